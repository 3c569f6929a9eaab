/* ttv-ctf-net-dev.h: the payload of lttng-modules' net_dev_template events
 * (net_dev_queue, net_if_receive_skb) with the packet's IP and transport
 * headers as nested fields; ttv-ctf-sim.c (ttv-gen --net-events=net-dev) and the writer tests use it. */
#pragma once

#include "ttv-encoder.h"
#include "ttv-sim-net.h"

G_BEGIN_DECLS

/* The most scalars one packet takes (ttv_ctf_net_dev_values). */
#define TTV_CTF_NET_DEV_MAX_VALUES 64

/* The struct lttng-modules' include/instrumentation/events/net.h declares:
 * skbaddr (hex, @pointer_bits), len, name, network_header_type (enum
 * unknown/ipv4/ipv6), network_header (a variant on it: struct ipv4 { 4-bit
 * version and ihl, tos, tot_len, id, frag_off, ttl, protocol (enum),
 * checksum, saddr[4], daddr[4], transport_header_type (enum
 * unknown/tcp/udp/icmp), transport_header (a variant: struct tcp {
 * source_port, dest_port, seq, ack_seq, 4-bit data_offset, 3-bit reserved,
 * 9-bit flags, window_size, checksum, urg_ptr }, udp, icmp) }, ipv6 with
 * addresses of 8 16-bit words).  The header fields are big-endian in any
 * trace, as the kernel copies them from the packet; the tags are in
 * @order.  Each array is preceded by the empty "_padding" struct
 * lttng-modules writes for its alignment. */
TtvType *ttv_ctf_net_dev_type (TtvByteOrder order, guint pointer_bits);

/* The values of @e's packet for that type, into @out
 * [TTV_CTF_NET_DEV_MAX_VALUES]; returns how many.  @e->protocol 0 is a
 * frame without an IP header (ARP). */
guint ttv_ctf_net_dev_values (const TtvSimNetEvent *e, const char *device, TtvScalar *out);

G_END_DECLS

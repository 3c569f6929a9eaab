/* ttv-sim-net.h: simulated machines that talk over a network, each with its own
 * clock (offset and drift from true time); ttv-gen --machines and the sync tests use it. */
#pragma once

#include "ttv-time.h"

#include <glib.h>

G_BEGIN_DECLS

/* A machine's clock: local = true + offset + drift * (true - epoch). */
typedef struct {
  gint64 offset_ns;
  double drift;                 /* rate error, e.g. 50e-6 for +50 ppm */
} TtvSimClock;

TtvTime ttv_sim_clock_local (const TtvSimClock *clock, TtvTime epoch, TtvTime true_time);

typedef struct {
  guint n_machines;             /* 2 or more */
  const TtvSimClock *clocks;    /* [n_machines]; clocks[0] is usually exact */
  TtvTime epoch;                /* true start time of the traces */
  TtvTime span;                 /* true time the traces cover */
  TtvTime interval_ns;          /* time between two messages of one direction (default 1 ms) */
  guint64 seed;
  gboolean one_way;             /* machine 0 sends, the others only receive (a sync test) */
  /* Traffic as lttng-modules' net_dev_queue / net_if_receive_skb see it:
   * machine 0's connections with machines 2 and up over IPv6, and besides
   * TCP, UDP datagrams and ARP frames (nothing to match them by).  The
   * TCP packets are the same as without it. */
  gboolean mixed;
  gboolean no_tcp;              /* with mixed: the UDP and ARP traffic only */
} TtvSimNetOptions;

/* One packet as a machine's kernel records it: LTTng's inet_sock_local_out
 * (or net_dev_queue) when it leaves, inet_sock_local_in (or
 * net_if_receive_skb) when it arrives; the TCP identity (addresses, ports,
 * sequence numbers, flags) is the same on both sides. */
typedef struct {
  TtvTime time;                 /* the recording machine's local time */
  gboolean receive;
  guint64 sk;                   /* the socket's kernel address on that machine */
  guint32 saddr, daddr;         /* IPv4, host order */
  guint16 sport, dport;
  guint32 seq, ack_seq;
  guint16 flags;                /* TCP flags (9 bits): ACK | PSH */
  guint8 protocol;              /* IPPROTO_TCP (6) or UDP (17); 0: an ARP frame (no IP header) */
  gboolean ipv6;                /* addresses fd00::saddr, fd00::daddr */
  guint16 len;                  /* bytes of payload after the transport header */
} TtvSimNetEvent;

/* The messages between machine 0 and every other machine, both ways (one
 * way with one_way), sent at about every interval_ns of true time across
 * the span, each delayed by 30 µs plus a random latency (at most a
 * quarter of the interval).  Returns one GArray of TtvSimNetEvent per
 * machine, sorted by local time. */
GPtrArray *ttv_sim_net_schedule (const TtvSimNetOptions *options);
/* The packet of @packets (one machine's schedule) at index *@next if it is
 * not after @time, *@next moved past it; else NULL.  The writers take the
 * packets due before each simulated event, so every stream stays in time
 * order. */
const TtvSimNetEvent *ttv_sim_net_next_due (const GArray *packets, guint *next, TtvTime time);
/* Whether @e is a TCP packet (what synchronization matches). */
gboolean   ttv_sim_net_event_is_tcp (const TtvSimNetEvent *e);

G_END_DECLS

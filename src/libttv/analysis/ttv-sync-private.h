/* ttv-sync-private.h: what ttv-sync.c shares with ttv-sync-net-dev.c and
 * ttv-sync-lttng0.c: the key that names one packet on both machines. */
#pragma once

#include "ttv-decoder.h"
#include "ttv-trace.h"

G_BEGIN_DECLS

/* saddr, daddr (IPv4; IPv6: the low 64 bits), sport, dport, seq, ack_seq,
 * flags (the inet_sock fields' order), then the high 64 bits of IPv6
 * addresses and where the key comes from (inet_sock events, net_dev ones
 * over IPv4 or IPv6, LTTng 0.x ones): packets of different sources never
 * match. */
enum {
  TTV_SYNC_KEY_SADDR_HIGH = 7,
  TTV_SYNC_KEY_DADDR_HIGH,
  TTV_SYNC_KEY_SOURCE,
  TTV_SYNC_KEY_N
};

typedef struct {
  gint64 values[TTV_SYNC_KEY_N];
} PacketKey;

#define TTV_SYNC_KEY_SOURCE_LTTNG0 10

/* Whether @type is a net_dev_queue or net_if_receive_skb (netif_receive_skb)
 * whose payload has lttng-modules' network_header variant. */
gboolean ttv_sync_net_dev_type_is_usable (const TtvEventType *type);

/* The key of @ev's packet (a usable type), decoding it in @scratch; FALSE
 * when it is not TCP over IPv4 or IPv6 (or is damaged). */
gboolean ttv_sync_net_dev_key (const TtvEvent *ev, TtvDecoder *scratch, PacketKey *key);

/* --- LTTng 0.x kernels patched for synchronization (ttv-sync-lttng0.c) --- */

typedef enum {
  TTV_SYNC_LTTNG0_XMIT,         /* net.dev_xmit_extended: a packet leaves, with its headers */
  TTV_SYNC_LTTNG0_RECEIVE,      /* net.dev_receive (netif_receive_skb): a frame arrives */
  TTV_SYNC_LTTNG0_TCP_RCV,      /* net.tcpv4_rcv_extended: TCP takes that skb, with its headers */
} TtvSyncLttng0Kind;

typedef struct _TtvSyncLttng0Type TtvSyncLttng0Type;

/* @type resolved, or NULL when it is none of these events, or (then with
 * *@why set, if NULL before and @why not NULL) lacks a field it needs or
 * has it of another type than an integer.  g_free() it. */
TtvSyncLttng0Type *ttv_sync_lttng0_type_new (const TtvEventType *type, char **why);
TtvSyncLttng0Kind  ttv_sync_lttng0_type_get_kind (const TtvSyncLttng0Type *type);

/* The receptions seen by dev_receive that TCP has not taken yet. */
typedef struct _TtvSyncLttng0 TtvSyncLttng0;

TtvSyncLttng0 *ttv_sync_lttng0_new (void);
void           ttv_sync_lttng0_free (TtvSyncLttng0 *s);

typedef enum {
  TTV_SYNC_LTTNG0_SENT,         /* *key and *time: a TCP packet left */
  TTV_SYNC_LTTNG0_RECEIVED,     /* *key and *time (its dev_receive's): a TCP packet arrived */
  TTV_SYNC_LTTNG0_PENDING,      /* an IP frame arrived: TCP may take it */
  TTV_SYNC_LTTNG0_NOT_TCP,      /* not TCP over IPv4: nothing to match it by */
  TTV_SYNC_LTTNG0_IGNORED,      /* damaged, or a TCP reception without its dev_receive */
} TtvSyncLttng0Packet;

/* What @ev (of @type, on @machine) says, decoding it in @scratch. */
TtvSyncLttng0Packet ttv_sync_lttng0_packet (TtvSyncLttng0 *s, const TtvSyncLttng0Type *type, const TtvEvent *ev,
                                            guint machine, TtvDecoder *scratch, PacketKey *key, TtvTime *time);
/* IP frames received that TCP never took (UDP, ICMP...). */
guint64             ttv_sync_lttng0_n_pending (const TtvSyncLttng0 *s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvSyncLttng0, ttv_sync_lttng0_free)

G_END_DECLS

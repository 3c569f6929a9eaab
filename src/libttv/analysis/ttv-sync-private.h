/* ttv-sync-private.h: what ttv-sync.c shares with ttv-sync-net-dev.c: the key
 * that names one packet on both machines. */
#pragma once

#include "ttv-decoder.h"
#include "ttv-trace.h"

G_BEGIN_DECLS

/* saddr, daddr (IPv4; IPv6: the low 64 bits), sport, dport, seq, ack_seq,
 * flags (the inet_sock fields' order), then the high 64 bits of IPv6
 * addresses and where the key comes from (inet_sock events, or net_dev
 * ones over IPv4 or IPv6): packets of different sources never match. */
enum {
  TTV_SYNC_KEY_SADDR_HIGH = 7,
  TTV_SYNC_KEY_DADDR_HIGH,
  TTV_SYNC_KEY_SOURCE,
  TTV_SYNC_KEY_N
};

typedef struct {
  gint64 values[TTV_SYNC_KEY_N];
} PacketKey;

/* Whether @type is a net_dev_queue or net_if_receive_skb (netif_receive_skb)
 * whose payload has lttng-modules' network_header variant. */
gboolean ttv_sync_net_dev_type_is_usable (const TtvEventType *type);

/* The key of @ev's packet (a usable type), decoding it in @scratch; FALSE
 * when it is not TCP over IPv4 or IPv6 (or is damaged). */
gboolean ttv_sync_net_dev_key (const TtvEvent *ev, TtvDecoder *scratch, PacketKey *key);

G_END_DECLS

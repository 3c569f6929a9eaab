/* ttv-sync-lttng0.c: the TCP identity of a packet from the "net" channel of
 * LTTng 0.x kernels patched for synchronization (dev_xmit_extended when it
 * leaves; dev_receive, then tcpv4_rcv_extended of the same skb, when it
 * arrives), as LTTV's sync module reads them; ttv-sync.c matches by it. */
#include "ttv-sync-private.h"

#include "ttv-field-accessor.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define ETH_P_IP_ 0x0800
#define IPPROTO_TCP_ 6

/* The header fields of both extended events, in the order of the key. */
static const char *const header_fields[] = {
  "saddr", "daddr", "source", "dest", "seq", "ack_seq", "tot_len", "ihl", "doff", "ack", "rst", "syn", "fin",
};
#define N_HEADER_FIELDS G_N_ELEMENTS (header_fields)
enum { H_SADDR, H_DADDR, H_SOURCE, H_DEST, H_SEQ, H_ACK_SEQ, H_TOT_LEN, H_IHL, H_DOFF, H_ACK, H_RST, H_SYN, H_FIN };

static const char *const event_names[] = { "dev_xmit_extended", "dev_receive", "tcpv4_rcv_extended" };
/* dev_receive's name in some patch sets. */
#define DEV_RECEIVE_OTHER_NAME "netif_receive_skb"

struct _TtvSyncLttng0Type {
  TtvSyncLttng0Kind kind;
  TtvFieldAccessor skb;
  TtvFieldAccessor protocol;            /* DEV_RECEIVE: protocol; XMIT: network_protocol */
  TtvFieldAccessor transport;           /* XMIT */
  TtvFieldAccessor headers[N_HEADER_FIELDS];
};

typedef struct {
  guint machine;
  guint64 skb;
} PendingKey;

typedef struct {
  PendingKey key;
  TtvTime time;
} Pending;

struct _TtvSyncLttng0 {
  GHashTable *pending;                  /* PendingKey * (in the Pending) -> Pending *, owned */
};

/* @alias: the name is also another tracer's (lttng-modules' netif_receive_skb
 * has skbaddr, not skb): not having the fields is no fault then. */
static gboolean
kind_of (const TtvEventType *type, TtvSyncLttng0Kind *kind, gboolean *alias)
{
  *alias = FALSE;
  /* The channel is "net"; a trace that names none is given the benefit. */
  if (type->name == NULL || (type->facility != NULL && strcmp (type->facility, "net") != 0))
    return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (event_names); k++)
    if (strcmp (type->name, event_names[k]) == 0)
      {
        *kind = (TtvSyncLttng0Kind) k;
        return TRUE;
      }
  if (strcmp (type->name, DEV_RECEIVE_OTHER_NAME) == 0)
    {
      *kind = TTV_SYNC_LTTNG0_RECEIVE;
      *alias = TRUE;
      return TRUE;
    }
  return FALSE;
}

/* Resolves @name as an integer (or enum) field, else says why in @why. */
static gboolean
resolve (TtvFieldAccessor *acc, const TtvEventType *type, const char *name, char **why)
{
  ttv_field_accessor_init (acc, type, name);
  const TtvType *t = acc->type;
  if (ttv_field_accessor_is_valid (acc) && t != NULL
      && (t->kind == TTV_TYPE_INTEGER || t->kind == TTV_TYPE_ENUM))
    return TRUE;
  if (why && *why == NULL)
    *why = g_strdup_printf (t == NULL ? _("%s.%s has no field “%s”") : _("%s.%s: field “%s” is not an integer"),
                            type->facility ? type->facility : "net", type->name, name);
  return FALSE;
}

TtvSyncLttng0Type *
ttv_sync_lttng0_type_new (const TtvEventType *type, char **why)
{
  TtvSyncLttng0Kind kind;
  gboolean alias;
  if (type->fields == NULL || !kind_of (type, &kind, &alias))
    return NULL;
  if (alias)
    why = NULL;
  g_autofree TtvSyncLttng0Type *t = g_new0 (TtvSyncLttng0Type, 1);
  t->kind = kind;
  gboolean ok = resolve (&t->skb, type, "skb", why);
  if (kind == TTV_SYNC_LTTNG0_RECEIVE)
    return ok && resolve (&t->protocol, type, "protocol", why) ? g_steal_pointer (&t) : NULL;
  if (kind == TTV_SYNC_LTTNG0_XMIT)
    ok = ok && resolve (&t->protocol, type, "network_protocol", why)
         && resolve (&t->transport, type, "transport_protocol", why);
  for (guint f = 0; ok && f < N_HEADER_FIELDS; f++)
    ok = resolve (&t->headers[f], type, header_fields[f], why);
  return ok ? g_steal_pointer (&t) : NULL;
}

TtvSyncLttng0Kind
ttv_sync_lttng0_type_get_kind (const TtvSyncLttng0Type *type)
{
  return type->kind;
}

static guint
pending_hash (gconstpointer p)
{
  const PendingKey *k = p;
  return g_int64_hash (&k->skb) ^ (k->machine * 0x9e3779b9u);
}

static gboolean
pending_equal (gconstpointer a, gconstpointer b)
{
  const PendingKey *x = a, *y = b;
  return x->machine == y->machine && x->skb == y->skb;
}

TtvSyncLttng0 *
ttv_sync_lttng0_new (void)
{
  TtvSyncLttng0 *s = g_new0 (TtvSyncLttng0, 1);
  s->pending = g_hash_table_new_full (pending_hash, pending_equal, NULL, g_free);
  return s;
}

void
ttv_sync_lttng0_free (TtvSyncLttng0 *s)
{
  if (s == NULL)
    return;
  g_hash_table_unref (s->pending);
  g_free (s);
}

/* The key of the headers: addresses, ports, sequence numbers, then the
 * lengths and flags in one value (tot_len, ihl, doff, ack, rst, syn, fin). */
static gboolean
header_key (const TtvSyncLttng0Type *t, const TtvEvent *ev, TtvDecoder *scratch, PacketKey *key)
{
  gint64 h[N_HEADER_FIELDS];
  for (guint f = 0; f < N_HEADER_FIELDS; f++)
    if (!ttv_field_accessor_get_int (&t->headers[f], ev, scratch, &h[f]))
      return FALSE;
  memset (key, 0, sizeof *key);
  for (guint f = H_SADDR; f <= H_ACK_SEQ; f++)
    key->values[f] = h[f];
  key->values[6] = (h[H_TOT_LEN] & 0xffff) << 24 | (h[H_IHL] & 0xf) << 20 | (h[H_DOFF] & 0xf) << 12
                   | (h[H_ACK] != 0) << 4 | (h[H_RST] != 0) << 2 | (h[H_SYN] != 0) << 1 | (h[H_FIN] != 0);
  key->values[TTV_SYNC_KEY_SOURCE] = TTV_SYNC_KEY_SOURCE_LTTNG0;
  return TRUE;
}

TtvSyncLttng0Packet
ttv_sync_lttng0_packet (TtvSyncLttng0 *s, const TtvSyncLttng0Type *t, const TtvEvent *ev, guint machine,
                        TtvDecoder *scratch, PacketKey *key, TtvTime *time)
{
  gint64 skb, protocol, transport;
  if (!ttv_field_accessor_get_int (&t->skb, ev, scratch, &skb))
    return TTV_SYNC_LTTNG0_IGNORED;
  switch (t->kind)
    {
    case TTV_SYNC_LTTNG0_XMIT:
      if (!ttv_field_accessor_get_int (&t->protocol, ev, scratch, &protocol)
          || !ttv_field_accessor_get_int (&t->transport, ev, scratch, &transport))
        return TTV_SYNC_LTTNG0_IGNORED;
      if (protocol != ETH_P_IP_ || transport != IPPROTO_TCP_)
        return TTV_SYNC_LTTNG0_NOT_TCP;
      if (!header_key (t, ev, scratch, key))
        return TTV_SYNC_LTTNG0_IGNORED;
      *time = ev->time;
      return TTV_SYNC_LTTNG0_SENT;
    case TTV_SYNC_LTTNG0_RECEIVE:
      {
        if (!ttv_field_accessor_get_int (&t->protocol, ev, scratch, &protocol))
          return TTV_SYNC_LTTNG0_IGNORED;
        if (protocol != ETH_P_IP_)
          return TTV_SYNC_LTTNG0_NOT_TCP;
        /* TCP says later whether it takes the buffer. */
        Pending *p = g_new (Pending, 1);
        p->key = (PendingKey) { machine, (guint64) skb };
        p->time = ev->time;
        gboolean was_pending = g_hash_table_contains (s->pending, &p->key);
        g_hash_table_replace (s->pending, &p->key, p);
        return was_pending ? TTV_SYNC_LTTNG0_NOT_TCP : TTV_SYNC_LTTNG0_PENDING;
      }
    case TTV_SYNC_LTTNG0_TCP_RCV:
    default:
      {
        PendingKey k = { machine, (guint64) skb };
        Pending *p = g_hash_table_lookup (s->pending, &k);
        /* Without its dev_receive (lost, or before the trace), the time of
         * arrival is unknown. */
        if (p == NULL)
          return TTV_SYNC_LTTNG0_IGNORED;
        *time = p->time;
        g_hash_table_remove (s->pending, &k);
        return header_key (t, ev, scratch, key) ? TTV_SYNC_LTTNG0_RECEIVED : TTV_SYNC_LTTNG0_IGNORED;
      }
    }
}

guint64
ttv_sync_lttng0_n_pending (const TtvSyncLttng0 *s)
{
  return g_hash_table_size (s->pending);
}

/* ttv-sync-net-dev.c: the TCP identity of a packet from lttng-modules'
 * net_dev_queue / net_if_receive_skb, whose payload holds the packet's IP
 * and transport headers as nested variants; ttv-sync.c matches by it. */
#include "ttv-sync-private.h"

#include <string.h>

#define SOURCE_NET_DEV_IPV4 4
#define SOURCE_NET_DEV_IPV6 6

static const char *const net_dev_names[] = { "net_dev_queue", "net_if_receive_skb", "netif_receive_skb", NULL };

gboolean
ttv_sync_net_dev_type_is_usable (const TtvEventType *type)
{
  if (type->name == NULL || !g_strv_contains (net_dev_names, type->name) || type->fields == NULL)
    return FALSE;
  gint i = ttv_type_find_field (type->fields, "network_header");
  return i >= 0 && ((const TtvField *) g_ptr_array_index (type->fields->fields, i))->type->kind == TTV_TYPE_VARIANT;
}

/* The option a decoded variant holds, and its name; NULL when none. */
static const TtvValue *
option_of (const TtvDecoder *d, const TtvValue *variant)
{
  if (variant == NULL || variant->type->kind != TTV_TYPE_VARIANT || variant->n_children != 1)
    return NULL;
  const TtvValue *o = ttv_decoder_get_children (d, variant);
  return o->name ? o : NULL;
}

static gboolean
field_uint (const TtvDecoder *d, const TtvValue *s, const char *name, guint64 *out)
{
  const TtvValue *v = ttv_decoder_get_field (d, s, name);
  return v && ttv_value_get_uint (v, out);
}

/* An address of @n elements of @bits bits (4 bytes, or 8 16-bit words) as
 * a 128-bit number: @high, @low. */
static gboolean
address (const TtvDecoder *d, const TtvValue *s, const char *name, guint n, guint bits, gint64 *high,
         gint64 *low)
{
  const TtvValue *a = ttv_decoder_get_field (d, s, name);
  if (a == NULL || (a->type->kind != TTV_TYPE_ARRAY && a->type->kind != TTV_TYPE_SEQUENCE)
      || ttv_value_get_n_elements (a) != n)
    return FALSE;
  guint64 h = 0, l = 0;
  for (guint i = 0; i < n; i++)
    {
      TtvValue scratch;
      const TtvValue *e = ttv_decoder_get_element (d, a, i, &scratch);
      guint64 x;
      if (e == NULL || !ttv_value_get_uint (e, &x))
        return FALSE;
      h = (h << bits) | (l >> (64 - bits));
      l = (l << bits) | (x & ((G_GUINT64_CONSTANT (1) << bits) - 1));
    }
  *high = (gint64) h;
  *low = (gint64) l;
  return TRUE;
}

gboolean
ttv_sync_net_dev_key (const TtvEvent *ev, TtvDecoder *scratch, PacketKey *key)
{
  ttv_decoder_reset (scratch);
  gint32 root = ttv_event_decode_fields (ev, scratch, NULL);
  if (root < 0)
    return FALSE;
  const TtvValue *r = ttv_decoder_get (scratch, (guint32) root);
  const TtvValue *ip = option_of (scratch, ttv_decoder_get_field (scratch, r, "network_header"));
  if (ip == NULL)
    return FALSE;
  memset (key, 0, sizeof *key);
  gboolean v6 = strcmp (ip->name, "ipv6") == 0;
  if (!v6 && strcmp (ip->name, "ipv4") != 0)
    return FALSE;
  guint n = v6 ? 8 : 4, bits = v6 ? 16 : 8;
  if (!address (scratch, ip, "saddr", n, bits, &key->values[TTV_SYNC_KEY_SADDR_HIGH], &key->values[0])
      || !address (scratch, ip, "daddr", n, bits, &key->values[TTV_SYNC_KEY_DADDR_HIGH], &key->values[1]))
    return FALSE;
  const TtvValue *tcp = option_of (scratch, ttv_decoder_get_field (scratch, ip, "transport_header"));
  if (tcp == NULL || strcmp (tcp->name, "tcp") != 0)
    return FALSE;
  static const char *const fields[] = { "source_port", "dest_port", "seq", "ack_seq", "flags" };
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      guint64 x;
      if (!field_uint (scratch, tcp, fields[i], &x))
        return FALSE;
      key->values[2 + i] = (gint64) x;
    }
  key->values[TTV_SYNC_KEY_SOURCE] = v6 ? SOURCE_NET_DEV_IPV6 : SOURCE_NET_DEV_IPV4;
  return TRUE;
}

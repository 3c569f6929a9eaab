/* ttv-sim-net-lttng0.c: the "net" channel events of LTTng 0.x kernels
 * patched for synchronization (as LTTV's sync module reads them), written
 * for the simulated network's packets (see the header). */
#include "ttv-sim-net-lttng0.h"

#define ETH_P_IP_ 0x0800
#define ETH_P_ARP_ 0x0806
#define ETH_P_IPV6_ 0x86dd
#define IP_HEADER_BYTES 20
#define TCP_HEADER_BYTES 20
#define UDP_HEADER_BYTES 8
#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_ACK 0x10

static const char *const event_names[] = { "dev_xmit_extended", "dev_receive", "tcpv4_rcv_extended" };

const char *
ttv_sim_net_lttng0_event_name (TtvSimNetLttng0Event event)
{
  g_return_val_if_fail (event < TTV_SIM_NET_LTTNG0_N_EVENTS, NULL);
  return event_names[event];
}

static void
add_uint (TtvType *s, const char *name, guint bits, TtvByteOrder order)
{
  ttv_type_add_field (s, name, ttv_type_new_integer (bits, FALSE, order, bits), NULL);
}

/* The IPv4 and TCP header fields both extended events carry. */
static void
add_headers (TtvType *s, TtvByteOrder order)
{
  add_uint (s, "saddr", 32, order);
  add_uint (s, "daddr", 32, order);
  add_uint (s, "tot_len", 16, order);
  add_uint (s, "ihl", 8, order);
  add_uint (s, "source", 16, order);
  add_uint (s, "dest", 16, order);
  add_uint (s, "seq", 32, order);
  add_uint (s, "ack_seq", 32, order);
  static const char *const bits[] = { "doff", "ack", "rst", "syn", "fin" };
  for (guint i = 0; i < G_N_ELEMENTS (bits); i++)
    add_uint (s, bits[i], 8, order);
}

TtvType *
ttv_sim_net_lttng0_event_type (TtvSimNetLttng0Event event, TtvByteOrder order)
{
  g_return_val_if_fail (event < TTV_SIM_NET_LTTNG0_N_EVENTS, NULL);
  TtvType *s = ttv_type_new_struct ();
  TtvType *skb = ttv_type_new_integer (64, FALSE, order, 64);
  skb->native_size = TTV_NATIVE_POINTER;
  skb->base = 16;
  ttv_type_add_field (s, "skb", skb, NULL);
  switch (event)
    {
    case TTV_SIM_NET_LTTNG0_DEV_XMIT_EXTENDED:
      add_uint (s, "network_protocol", 16, order);
      add_uint (s, "transport_protocol", 8, order);
      add_headers (s, order);
      break;
    case TTV_SIM_NET_LTTNG0_DEV_RECEIVE:
      add_uint (s, "protocol", 16, order);
      break;
    case TTV_SIM_NET_LTTNG0_TCPV4_RCV_EXTENDED:
    default:
      add_headers (s, order);
      break;
    }
  ttv_type_finish (s);
  return s;
}

static guint
header_values (const TtvSimNetEvent *e, TtvScalar *v)
{
  gboolean tcp = ttv_sim_net_event_is_tcp (e);
  guint transport = tcp ? TCP_HEADER_BYTES : UDP_HEADER_BYTES;
  guint n = 0;
  v[n++] = TTV_SCALAR_UINT (e->saddr);
  v[n++] = TTV_SCALAR_UINT (e->daddr);
  v[n++] = TTV_SCALAR_UINT (IP_HEADER_BYTES + transport + e->len);
  v[n++] = TTV_SCALAR_UINT (IP_HEADER_BYTES / 4);
  v[n++] = TTV_SCALAR_UINT (e->sport);
  v[n++] = TTV_SCALAR_UINT (e->dport);
  /* UDP has no sequence numbers nor flags: the probe writes zeros. */
  v[n++] = TTV_SCALAR_UINT (tcp ? e->seq : 0);
  v[n++] = TTV_SCALAR_UINT (tcp ? e->ack_seq : 0);
  v[n++] = TTV_SCALAR_UINT (tcp ? TCP_HEADER_BYTES / 4 : 0);
  v[n++] = TTV_SCALAR_UINT (tcp && (e->flags & TCP_ACK) != 0);
  v[n++] = TTV_SCALAR_UINT (tcp && (e->flags & TCP_RST) != 0);
  v[n++] = TTV_SCALAR_UINT (tcp && (e->flags & TCP_SYN) != 0);
  v[n++] = TTV_SCALAR_UINT (tcp && (e->flags & TCP_FIN) != 0);
  return n;
}

/* A socket buffer's kernel address, one per packet (they are reused in a
 * real kernel; a reception's two events share it). */
static guint64
skb_address (guint64 n, gboolean wide)
{
  if (!wide)
    return 0xc0000000u | ((n << 8) & 0x3fffff00u);
  return G_GUINT64_CONSTANT (0xffff880000000000) | ((n << 8) & G_GUINT64_CONSTANT (0xffffffffff00));
}

gboolean
ttv_sim_net_lttng0_write_due (const GArray *network, guint *next, TtvTime time, guint64 *n_skbs, gboolean wide,
                              TtvSimNetLttng0WriteFunc write, gpointer data, GError **error)
{
  const TtvSimNetEvent *e;
  while ((e = ttv_sim_net_next_due (network, next, time)) != NULL)
    {
      TtvSimNetLttng0Event events[2];
      TtvScalar values[2][TTV_SIM_NET_LTTNG0_MAX_VALUES];
      guint n_values[2];
      guint n = ttv_sim_net_lttng0_values (e, skb_address (++*n_skbs, wide), events, values, n_values);
      for (guint i = 0; i < n; i++)
        if (!write (data, e->time, events[i], values[i], n_values[i], error))
          return FALSE;
    }
  return TRUE;
}

guint
ttv_sim_net_lttng0_values (const TtvSimNetEvent *e, guint64 skb, TtvSimNetLttng0Event events[2],
                           TtvScalar values[2][TTV_SIM_NET_LTTNG0_MAX_VALUES], guint n_values[2])
{
  guint16 network = e->protocol == 0 ? ETH_P_ARP_ : e->ipv6 ? ETH_P_IPV6_ : ETH_P_IP_;
  if (!e->receive)
    {
      events[0] = TTV_SIM_NET_LTTNG0_DEV_XMIT_EXTENDED;
      values[0][0] = TTV_SCALAR_UINT (skb);
      values[0][1] = TTV_SCALAR_UINT (network);
      values[0][2] = TTV_SCALAR_UINT (e->protocol);
      n_values[0] = 3 + header_values (e, &values[0][3]);
      return 1;
    }
  events[0] = TTV_SIM_NET_LTTNG0_DEV_RECEIVE;
  values[0][0] = TTV_SCALAR_UINT (skb);
  values[0][1] = TTV_SCALAR_UINT (network);
  n_values[0] = 2;
  /* The extended probe is in tcp_v4_rcv: TCP over IPv4 only. */
  if (network != ETH_P_IP_ || !ttv_sim_net_event_is_tcp (e))
    return 1;
  events[1] = TTV_SIM_NET_LTTNG0_TCPV4_RCV_EXTENDED;
  values[1][0] = TTV_SCALAR_UINT (skb);
  n_values[1] = 1 + header_values (e, &values[1][1]);
  return 2;
}

/* ttv-ctf-net-dev.c: lttng-modules' net_dev_template payload, its type and
 * one packet's values (see the header). */
#include "ttv-ctf-net-dev.h"

#define NH_IPV4 1
#define NH_IPV6 2
#define TH_TCP 1
#define TH_UDP 2
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17
#define IPPROTO_ICMP_ 1
#define IPV4_HEADER_BYTES 20
#define IPV6_HEADER_BYTES 40
#define TCP_HEADER_BYTES 20
#define UDP_HEADER_BYTES 8

static TtvType *
be_int (guint bits, guint align, guint base)
{
  TtvType *t = ttv_type_new_integer (bits, FALSE, TTV_BYTE_ORDER_BIG, align);
  t->base = base;
  return t;
}

static void
add (TtvType *s, const char *name, TtvType *t)
{
  ttv_type_add_field (s, name, t, NULL);
}

/* "struct { } align(8) _NAME_padding; integer _NAME[N];" as lttng-modules
 * writes an array with an alignment. */
static void
add_array (TtvType *s, const char *name, guint length, guint element_bits, guint base)
{
  g_autofree char *padding = g_strconcat (name, "_padding", NULL);
  TtvType *pad = ttv_type_new_struct ();
  pad->align_bits = element_bits;
  add (s, padding, pad);
  add (s, name, ttv_type_new_array (be_int (element_bits, element_bits, base), length));
}

static TtvType *
enum_u8 (TtvByteOrder order, const char *const *labels, guint n)
{
  TtvType *e = ttv_type_new_enum (ttv_type_new_integer (8, FALSE, order, 8));
  for (guint i = 0; i < n; i++)
    ttv_type_add_mapping (e, labels[i], i, i);
  return e;
}

/* IPPROTO_* as lttng-modules' proto_transport_header_type names them. */
static TtvType *
protocol_enum (void)
{
  TtvType *e = ttv_type_new_enum (be_int (8, 8, 10));
  ttv_type_add_mapping (e, "unknown", 0, IPPROTO_ICMP_ - 1);
  ttv_type_add_mapping (e, "icmp", IPPROTO_ICMP_, IPPROTO_ICMP_);
  ttv_type_add_mapping (e, "unknown", IPPROTO_ICMP_ + 1, IPPROTO_TCP_ - 1);
  ttv_type_add_mapping (e, "tcp", IPPROTO_TCP_, IPPROTO_TCP_);
  ttv_type_add_mapping (e, "unknown", IPPROTO_TCP_ + 1, IPPROTO_UDP_ - 1);
  ttv_type_add_mapping (e, "udp", IPPROTO_UDP_, IPPROTO_UDP_);
  ttv_type_add_mapping (e, "unknown", IPPROTO_UDP_ + 1, 255);
  return e;
}

/* A header field: big-endian, @bits wide, aligned to @align bits. */
typedef struct {
  const char *name;
  guint8 bits, align, base;
} HeaderField;

static const HeaderField tcp_fields[] = {
  { "source_port", 16, 16, 10 }, { "dest_port", 16, 16, 10 }, { "seq", 32, 32, 10 }, { "ack_seq", 32, 32, 10 },
  { "data_offset", 4, 4, 10 }, { "reserved", 3, 1, 10 }, { "flags", 9, 1, 16 }, { "window_size", 16, 16, 10 },
  { "checksum", 16, 16, 16 }, { "urg_ptr", 16, 16, 10 },
};
static const HeaderField udp_fields[] = {
  { "source_port", 16, 16, 10 }, { "dest_port", 16, 16, 10 }, { "len", 16, 16, 10 }, { "check", 16, 16, 10 },
};
static const HeaderField icmp_fields[] = {
  { "type", 8, 8, 10 }, { "code", 8, 8, 10 }, { "checksum", 16, 16, 10 }, { "gateway", 32, 32, 10 },
};
/* The IPv4 header up to its protocol. */
static const HeaderField ipv4_fields[] = {
  { "version", 4, 4, 10 }, { "ihl", 4, 4, 10 }, { "tos", 8, 8, 10 }, { "tot_len", 16, 16, 10 },
  { "id", 16, 16, 16 }, { "frag_off", 16, 16, 10 }, { "ttl", 8, 8, 10 },
};

static void
add_fields (TtvType *s, const HeaderField *f, guint n)
{
  for (guint i = 0; i < n; i++)
    add (s, f[i].name, be_int (f[i].bits, f[i].align, f[i].base));
}

static TtvType *
header_struct (const HeaderField *f, guint n)
{
  TtvType *s = ttv_type_new_struct ();
  add_fields (s, f, n);
  return s;
}

static TtvType *
transport_variant (void)
{
  TtvType *v = ttv_type_new_variant_ref ("transport_header_type");
  add (v, "unknown", ttv_type_new_struct ());
  add (v, "tcp", header_struct (tcp_fields, G_N_ELEMENTS (tcp_fields)));
  add (v, "udp", header_struct (udp_fields, G_N_ELEMENTS (udp_fields)));
  add (v, "icmp", header_struct (icmp_fields, G_N_ELEMENTS (icmp_fields)));
  return v;
}

/* The end of an IP header: the addresses (@n elements of @bits bits), the
 * transport header's type and the variant it selects. */
static void
add_addresses_and_transport (TtvType *ip, guint n, guint bits, guint base, TtvByteOrder order)
{
  static const char *const transport_labels[] = { "unknown", "tcp", "udp", "icmp" };
  add_array (ip, "saddr", n, bits, base);
  add_array (ip, "daddr", n, bits, base);
  add (ip, "transport_header_type", enum_u8 (order, transport_labels, G_N_ELEMENTS (transport_labels)));
  add (ip, "transport_header", transport_variant ());
}

TtvType *
ttv_ctf_net_dev_type (TtvByteOrder order, guint pointer_bits)
{
  static const char *const network_labels[] = { "unknown", "ipv4", "ipv6" };
  TtvType *s = ttv_type_new_struct ();
  TtvType *skb = ttv_type_new_integer (pointer_bits, FALSE, order, pointer_bits);
  skb->base = 16;
  add (s, "skbaddr", skb);
  add (s, "len", ttv_type_new_integer (32, FALSE, order, 32));
  add (s, "name", ttv_type_new_string ());
  add (s, "network_header_type", enum_u8 (order, network_labels, G_N_ELEMENTS (network_labels)));

  TtvType *ipv4 = header_struct (ipv4_fields, G_N_ELEMENTS (ipv4_fields));
  add (ipv4, "protocol", protocol_enum ());
  add (ipv4, "checksum", be_int (16, 16, 16));
  add_addresses_and_transport (ipv4, 4, 8, 10, order);

  TtvType *ipv6 = ttv_type_new_struct ();
  add (ipv6, "version", be_int (4, 4, 10));
  add (ipv6, "prio", be_int (4, 4, 10));
  add_array (ipv6, "flow_lbl", 3, 8, 16);
  add (ipv6, "payload_len", be_int (16, 16, 10));
  add (ipv6, "nexthdr", protocol_enum ());
  add (ipv6, "hop_limit", be_int (8, 8, 10));
  add_addresses_and_transport (ipv6, 8, 16, 16, order);

  TtvType *network = ttv_type_new_variant_ref ("network_header_type");
  add (network, "unknown", ttv_type_new_struct ());
  add (network, "ipv4", ipv4);
  add (network, "ipv6", ipv6);
  add (s, "network_header", network);
  ttv_type_finish (s);
  return s;
}

/* The IPv6 address of a simulated IPv4 one: fd00::a.b.c.d, as 8 words. */
static guint
put_ipv6_address (TtvScalar *v, guint n, guint32 ipv4)
{
  static const guint16 prefix[6] = { 0xfd00, 0, 0, 0, 0, 0 };
  for (guint i = 0; i < 6; i++)
    v[n++] = TTV_SCALAR_UINT (prefix[i]);
  v[n++] = TTV_SCALAR_UINT (ipv4 >> 16);
  v[n++] = TTV_SCALAR_UINT (ipv4 & 0xffff);
  return n;
}

static guint
put_transport (const TtvSimNetEvent *e, TtvScalar *v, guint n)
{
  if (e->protocol == IPPROTO_TCP_)
    {
      v[n++] = TTV_SCALAR_UINT (TH_TCP);
      v[n++] = TTV_SCALAR_UINT (TH_TCP);           /* the option */
      v[n++] = TTV_SCALAR_UINT (e->sport);
      v[n++] = TTV_SCALAR_UINT (e->dport);
      v[n++] = TTV_SCALAR_UINT (e->seq);
      v[n++] = TTV_SCALAR_UINT (e->ack_seq);
      v[n++] = TTV_SCALAR_UINT (TCP_HEADER_BYTES / 4);
      v[n++] = TTV_SCALAR_UINT (0);
      v[n++] = TTV_SCALAR_UINT (e->flags);
      v[n++] = TTV_SCALAR_UINT (502);             /* window (scaled) */
      v[n++] = TTV_SCALAR_UINT ((e->seq ^ e->ack_seq) & 0xffff);
      v[n++] = TTV_SCALAR_UINT (0);
    }
  else
    {
      v[n++] = TTV_SCALAR_UINT (TH_UDP);
      v[n++] = TTV_SCALAR_UINT (TH_UDP);
      v[n++] = TTV_SCALAR_UINT (e->sport);
      v[n++] = TTV_SCALAR_UINT (e->dport);
      v[n++] = TTV_SCALAR_UINT (UDP_HEADER_BYTES + e->len);
      v[n++] = TTV_SCALAR_UINT (e->seq & 0xffff);
    }
  return n;
}

guint
ttv_ctf_net_dev_values (const TtvSimNetEvent *e, const char *device, TtvScalar *v)
{
  guint n = 0;
  guint transport = e->protocol == IPPROTO_TCP_ ? TCP_HEADER_BYTES : UDP_HEADER_BYTES;
  guint ip = e->ipv6 ? IPV6_HEADER_BYTES : IPV4_HEADER_BYTES;
  v[n++] = TTV_SCALAR_UINT (e->sk);                /* the skb: one per packet and machine */
  v[n++] = TTV_SCALAR_UINT (e->protocol ? ip + transport + e->len : 42);
  v[n++] = TTV_SCALAR_STRING (device);
  if (e->protocol == 0)
    {
      /* A frame without an IP header (ARP): nothing below. */
      v[n++] = TTV_SCALAR_UINT (0);
      v[n++] = TTV_SCALAR_UINT (0);
      return n;
    }
  if (e->ipv6)
    {
      v[n++] = TTV_SCALAR_UINT (NH_IPV6);
      v[n++] = TTV_SCALAR_UINT (NH_IPV6);
      v[n++] = TTV_SCALAR_UINT (6);
      v[n++] = TTV_SCALAR_UINT (0);
      for (guint i = 0; i < 3; i++)                /* flow_lbl (the paddings take no value) */
        v[n++] = TTV_SCALAR_UINT (0);
      v[n++] = TTV_SCALAR_UINT (transport + e->len);
      v[n++] = TTV_SCALAR_UINT (e->protocol);
      v[n++] = TTV_SCALAR_UINT (64);
      n = put_ipv6_address (v, n, e->saddr);
      n = put_ipv6_address (v, n, e->daddr);
      return put_transport (e, v, n);
    }
  v[n++] = TTV_SCALAR_UINT (NH_IPV4);
  v[n++] = TTV_SCALAR_UINT (NH_IPV4);
  v[n++] = TTV_SCALAR_UINT (4);
  v[n++] = TTV_SCALAR_UINT (IPV4_HEADER_BYTES / 4);
  v[n++] = TTV_SCALAR_UINT (0);
  v[n++] = TTV_SCALAR_UINT (ip + transport + e->len);
  v[n++] = TTV_SCALAR_UINT (e->seq & 0xffff);      /* id */
  v[n++] = TTV_SCALAR_UINT (0x4000);               /* don't fragment */
  v[n++] = TTV_SCALAR_UINT (64);
  v[n++] = TTV_SCALAR_UINT (e->protocol);
  v[n++] = TTV_SCALAR_UINT ((e->saddr + e->daddr) & 0xffff);
  for (guint i = 0; i < 4; i++)
    v[n++] = TTV_SCALAR_UINT ((e->saddr >> (24 - 8 * i)) & 0xff);
  for (guint i = 0; i < 4; i++)
    v[n++] = TTV_SCALAR_UINT ((e->daddr >> (24 - 8 * i)) & 0xff);
  return put_transport (e, v, n);
}

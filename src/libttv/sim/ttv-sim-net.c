/* ttv-sim-net.c: the message schedule of simulated machines talking over a
 * network, in each machine's own clock (see the header). */
#include "ttv-sim-net.h"
#include "ttv-sim-private.h"

#include <math.h>

#define MIN_LATENCY_NS 30000
#define DEFAULT_INTERVAL_NS 1000000
#define TCP_ACK 0x10
#define TCP_PSH 0x08
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17

TtvTime
ttv_sim_clock_local (const TtvSimClock *clock, TtvTime epoch, TtvTime true_time)
{
  double elapsed = (double) (true_time - epoch);
  return true_time + clock->offset_ns + (TtvTime) llround (clock->drift * elapsed);
}

static guint64
next_random (guint64 *state)
{
  return ttv_sim_splitmix64 (state);
}

static double
uniform (guint64 *state)
{
  return (double) (next_random (state) >> 11) / (double) (G_GUINT64_CONSTANT (1) << 53);
}

static gint
compare_events (gconstpointer a, gconstpointer b)
{
  const TtvSimNetEvent *x = a, *y = b;
  return x->time < y->time ? -1 : x->time > y->time;
}

/* One direction of the connection between machines @from and @to. */
static void
schedule_direction (const TtvSimNetOptions *o, GPtrArray *out, guint from, guint to,
                    gboolean reply, guint64 *random)
{
  TtvTime interval = o->interval_ns ? o->interval_ns : DEFAULT_INTERVAL_NS;
  /* The client (machine 0) connects from an ephemeral port to port 22. */
  guint32 client = 0x0a000001u + MIN (from, to), server = 0x0a000001u + MAX (from, to);
  guint16 client_port = (guint16) (40000 + MAX (from, to));
  guint32 seq = (guint32) next_random (random), ack = (guint32) next_random (random);
  guint64 sk_from = G_GUINT64_CONSTANT (0xffff888000000000) | ((guint64) (from + 1) << 24) | (to << 8);
  guint64 sk_to = G_GUINT64_CONSTANT (0xffff888000000000) | ((guint64) (to + 1) << 24) | (from << 8);
  TtvTime end = o->epoch + o->span;
  for (TtvTime t = o->epoch + interval / 2 + (reply ? interval / 2 : 0);; t += interval)
    {
      TtvTime sent = t + (TtvTime) (uniform (random) * (double) (interval / 4));
      double extra = -log (1.0 - uniform (random)) * (double) (interval / 16);
      TtvTime received = sent + MIN_LATENCY_NS + (TtvTime) MIN (extra, (double) (interval / 4));
      if (received >= end)
        break;
      guint32 len = 64 + (guint32) (next_random (random) % 1400);
      if (o->no_tcp)
        continue;
      TtvSimNetEvent e = {
        .saddr = from < to ? client : server,
        .daddr = from < to ? server : client,
        .sport = from < to ? client_port : 22,
        .dport = from < to ? 22 : client_port,
        .seq = seq,
        .ack_seq = ack,
        .flags = TCP_ACK | TCP_PSH,
        .protocol = IPPROTO_TCP_,
        .ipv6 = o->mixed && MAX (from, to) >= 2,
        .len = (guint16) len,
      };
      seq += len;
      e.time = ttv_sim_clock_local (&o->clocks[from], o->epoch, sent);
      e.sk = sk_from;
      g_array_append_val (g_ptr_array_index (out, from), e);
      e.time = ttv_sim_clock_local (&o->clocks[to], o->epoch, received);
      e.sk = sk_to;
      e.receive = TRUE;
      g_array_append_val (g_ptr_array_index (out, to), e);
    }
}

/* Traffic synchronization must not match, between machine 0 and @k every
 * 3 intervals: a DNS query (UDP) and its answer, and an ARP request of
 * @k's that 0 receives.  Its own random stream: the TCP packets stay. */
static void
schedule_other (const TtvSimNetOptions *o, GPtrArray *out, guint k, guint64 *random)
{
  TtvTime interval = (o->interval_ns ? o->interval_ns : DEFAULT_INTERVAL_NS) * 3;
  guint32 client = 0x0a000001u + k, server = 0x0a000001u;
  TtvTime end = o->epoch + o->span;
  guint16 query_id = (guint16) next_random (random);
  for (TtvTime t = o->epoch + interval / 3; t + interval / 2 < end; t += interval)
    {
      TtvTime latency = MIN_LATENCY_NS + (TtvTime) (uniform (random) * (double) (interval / 16));
      struct { guint from, to; TtvTime sent; guint8 protocol; guint16 sport, dport; } p[] = {
        { k, 0, t, IPPROTO_UDP_, 53000, 53 },
        { 0, k, t + interval / 8, IPPROTO_UDP_, 53, 53000 },
        { k, 0, t + interval / 4, 0, 0, 0 },
      };
      for (guint i = 0; i < G_N_ELEMENTS (p); i++)
        {
          TtvSimNetEvent e = {
            .saddr = p[i].from ? client : server,
            .daddr = p[i].from ? server : client,
            .sport = p[i].sport,
            .dport = p[i].dport,
            .seq = query_id,            /* UDP: the DNS id as the checksum seed */
            .protocol = p[i].protocol,
            .len = p[i].protocol ? 40 : 0,
            .sk = G_GUINT64_CONSTANT (0xffff888100000000) | ((guint64) (p[i].from + 1) << 24) | 0x53,
          };
          e.time = ttv_sim_clock_local (&o->clocks[p[i].from], o->epoch, p[i].sent);
          g_array_append_val (g_ptr_array_index (out, p[i].from), e);
          e.time = ttv_sim_clock_local (&o->clocks[p[i].to], o->epoch, p[i].sent + latency);
          e.receive = TRUE;
          g_array_append_val (g_ptr_array_index (out, p[i].to), e);
        }
      query_id++;
    }
}

const TtvSimNetEvent *
ttv_sim_net_next_due (const GArray *packets, guint *next, TtvTime time)
{
  if (*next >= packets->len)
    return NULL;
  const TtvSimNetEvent *e = &g_array_index (packets, TtvSimNetEvent, *next);
  if (e->time > time)
    return NULL;
  (*next)++;
  return e;
}

gboolean
ttv_sim_net_event_is_tcp (const TtvSimNetEvent *e)
{
  return e->protocol == IPPROTO_TCP_;
}

GPtrArray *
ttv_sim_net_schedule (const TtvSimNetOptions *o)
{
  g_return_val_if_fail (o != NULL && o->n_machines >= 2 && o->clocks != NULL, NULL);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < o->n_machines; i++)
    g_ptr_array_add (out, g_array_new (FALSE, FALSE, sizeof (TtvSimNetEvent)));
  guint64 random = o->seed ^ G_GUINT64_CONSTANT (0x6e6574776f726b);
  for (guint k = 1; k < o->n_machines; k++)
    {
      schedule_direction (o, out, 0, k, FALSE, &random);
      if (!o->one_way)
        schedule_direction (o, out, k, 0, TRUE, &random);
    }
  guint64 other = o->seed ^ G_GUINT64_CONSTANT (0x756470617270);
  for (guint k = 1; o->mixed && k < o->n_machines; k++)
    schedule_other (o, out, k, &other);
  for (guint i = 0; i < o->n_machines; i++)
    g_array_sort (g_ptr_array_index (out, i), compare_events);
  return out;
}

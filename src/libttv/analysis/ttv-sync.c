/* ttv-sync.c: synchronization of a traceset's machines: the packets matched
 * across machines, then a convex-hull fit per machine against the first
 * (ttv-sync-hull.c); ttv-report --sync and the viewer call it. */
#include "ttv-sync.h"
#include "ttv-sync-private.h"

#include "ttv-context.h"
#include "ttv-decoder.h"
#include "ttv-error.h"
#include "ttv-field-accessor.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

#define SEND_EVENT "inet_sock_local_out"
#define RECEIVE_EVENT "inet_sock_local_in"
/* lttng-modules' own, with the packet's headers (ttv-sync-net-dev.c). */
#define NET_DEV_SEND_EVENT "net_dev_queue"
#define NET_DEV_RECEIVE_EVENT "net_if_receive_skb"
#define NET_DEV_RECEIVE_EVENT_OLD "netif_receive_skb"
/* LTTng 0.x kernels patched for synchronization (ttv-sync-lttng0.c). */
#define LTTNG0_SEND_EVENT "dev_xmit_extended"
#define LTTNG0_RECEIVE_EVENT "dev_receive"
#define LTTNG0_TCP_EVENT "tcpv4_rcv_extended"

/* The fields that name a packet on both machines; seq is required. */
static const char *const key_fields[] = { "saddr", "daddr", "sport", "dport", "seq", "ack_seq", "flags" };
#define N_KEY_FIELDS G_N_ELEMENTS (key_fields)
#define SEQ_FIELD 4

typedef struct {
  gboolean receive;
  gboolean net_dev;             /* headers in network_header, else the fields below */
  TtvSyncLttng0Type *lttng0;    /* owned: an LTTng 0.x event, else NULL */
  TtvFieldAccessor fields[N_KEY_FIELDS];
} PacketType;

static void
packet_type_free (gpointer p)
{
  PacketType *pt = p;
  g_free (pt->lttng0);
  g_free (pt);
}

typedef struct {
  PacketKey key;
  TtvTime time;
  guint machine;
  gboolean receive;
  gboolean matched;
} Packet;

static guint
key_hash (gconstpointer p)
{
  const PacketKey *k = p;
  guint64 h = 1469598103934665603u;
  for (guint i = 0; i < TTV_SYNC_KEY_N; i++)
    h = (h ^ (guint64) k->values[i]) * 1099511628211u;
  return (guint) (h ^ (h >> 32));
}

static gboolean
key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (PacketKey)) == 0;
}

/* A packet between machines a < b. */
typedef struct {
  gboolean from_a;
  TtvTime time_a, time_b;
} Match;

typedef struct {
  TtvTraceset *ts;
  guint reference;
  guint n;                      /* machines */
  GHashTable *types;            /* const TtvEventType * -> PacketType *, owned */
  GHashTable *packets;          /* PacketKey * (in the Packet) -> Packet *, owned: one per direction */
  TtvSyncLttng0 *lttng0;        /* LTTng 0.x receptions waiting for TCP */
  char *unusable;               /* why the first LTTng 0.x packet event found cannot be read */
  TtvTime *origin;              /* [machine] */
  GArray **matches;             /* [a * n + b], a < b: of Match */
  TtvSyncResult *result;
} Matcher;

/* The packet event types of every trace, with their key fields resolved. */
static guint
find_types (Matcher *m)
{
  guint n = 0;
  for (guint t = 0; t < ttv_traceset_get_n_traces (m->ts); t++)
    {
      TtvTrace *trace = ttv_traceset_get_trace (m->ts, t);
      for (guint i = 0; i < trace->event_types->len; i++)
        {
          const TtvEventType *type = g_ptr_array_index (trace->event_types, i);
          TtvSyncLttng0Type *lttng0 = ttv_sync_lttng0_type_new (type, &m->unusable);
          if (lttng0)
            {
              PacketType *pt = g_new0 (PacketType, 1);
              pt->lttng0 = lttng0;
              pt->receive = ttv_sync_lttng0_type_get_kind (lttng0) != TTV_SYNC_LTTNG0_XMIT;
              g_hash_table_insert (m->types, (gpointer) type, pt);
              n++;
              continue;
            }
          if (ttv_sync_net_dev_type_is_usable (type))
            {
              PacketType *pt = g_new0 (PacketType, 1);
              pt->net_dev = TRUE;
              pt->receive = g_strcmp0 (type->name, NET_DEV_SEND_EVENT) != 0;
              g_hash_table_insert (m->types, (gpointer) type, pt);
              n++;
              continue;
            }
          gboolean send = g_strcmp0 (type->name, SEND_EVENT) == 0;
          if (!send && g_strcmp0 (type->name, RECEIVE_EVENT) != 0)
            continue;
          PacketType *pt = g_new0 (PacketType, 1);
          pt->receive = !send;
          for (guint f = 0; f < N_KEY_FIELDS; f++)
            ttv_field_accessor_init (&pt->fields[f], type, key_fields[f]);
          if (!ttv_field_accessor_is_valid (&pt->fields[SEQ_FIELD]))
            {
              g_free (pt);
              continue;
            }
          g_hash_table_insert (m->types, (gpointer) type, pt);
          n++;
        }
    }
  return n;
}

static void
add_match (Matcher *m, const Packet *sent, const Packet *received)
{
  m->result->n_matched++;
  gboolean from_a = sent->machine < received->machine;
  const Packet *a = from_a ? sent : received, *b = from_a ? received : sent;
  Match match = { from_a, a->time, b->time };
  g_array_append_val (m->matches[a->machine * m->n + b->machine], match);
}

/* An LTTng 0.x packet event: FALSE unless it completes a packet (@p). */
static gboolean
lttng0_packet (Matcher *m, const PacketType *pt, const TtvEvent *ev, guint machine, TtvDecoder *scratch,
               Packet *p)
{
  switch (ttv_sync_lttng0_packet (m->lttng0, pt->lttng0, ev, machine, scratch, &p->key, &p->time))
    {
    case TTV_SYNC_LTTNG0_SENT:
    case TTV_SYNC_LTTNG0_RECEIVED:
      return TRUE;
    case TTV_SYNC_LTTNG0_NOT_TCP:
      m->result->n_not_tcp++;
      return FALSE;
    case TTV_SYNC_LTTNG0_PENDING:
    case TTV_SYNC_LTTNG0_IGNORED:
    default:
      return FALSE;
    }
}

static void
on_packet (Matcher *m, const PacketType *pt, const TtvEvent *ev, guint machine, TtvDecoder *scratch)
{
  Packet *p = g_new0 (Packet, 1);
  p->time = ev->time;
  if (pt->lttng0)
    {
      if (!lttng0_packet (m, pt, ev, machine, scratch, p))
        {
          g_free (p);
          return;
        }
    }
  else if (pt->net_dev)
    {
      /* Only TCP over IP names a packet on both sides. */
      if (!ttv_sync_net_dev_key (ev, scratch, &p->key))
        {
          m->result->n_not_tcp++;
          g_free (p);
          return;
        }
    }
  else
    for (guint f = 0; f < N_KEY_FIELDS; f++)
      if (!ttv_field_accessor_get_int (&pt->fields[f], ev, scratch, &p->key.values[f]))
        p->key.values[f] = -1;
  p->machine = machine;
  p->receive = pt->receive;
  if (pt->receive)
    m->result->n_received++;
  else
    m->result->n_sent++;
  Packet *other = g_hash_table_lookup (m->packets, &p->key);
  if (other == NULL)
    {
      g_hash_table_insert (m->packets, &p->key, p);
      return;
    }
  /* A retransmission or the same machine seeing it twice: the first counts. */
  if (!other->matched && other->receive != p->receive && other->machine != machine)
    {
      other->matched = TRUE;
      add_match (m, p->receive ? other : p, p->receive ? p : other);
    }
  g_free (p);
}

static gboolean
match_packets (Matcher *m, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (m->ts, error);
  if (ctx == NULL)
    return FALSE;
  g_autoptr (TtvDecoder) scratch = ttv_decoder_new ();
  guint n_traces = ttv_traceset_get_n_traces (m->ts);
  g_autofree guint *trace_machine = g_new (guint, n_traces);
  for (guint t = 0; t < n_traces; t++)
    trace_machine[t] = ttv_traceset_get_trace_machine (m->ts, t);
  GError *local = NULL;
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &local)) != NULL)
    {
      const PacketType *pt = g_hash_table_lookup (m->types, ev->type);
      if (pt == NULL)
        continue;
      guint trace = ttv_traceset_get_stream_trace (m->ts, ttv_context_get_stream (ctx));
      on_packet (m, pt, ev, trace_machine[trace], scratch);
    }
  if (local)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  /* IP frames TCP never took: UDP, ICMP... */
  m->result->n_not_tcp += ttv_sync_lttng0_n_pending (m->lttng0);
  return TRUE;
}

/* Fits @q's clock to @p's from the packets between them. */
static void
fit_pair (Matcher *m, guint p, guint q, TtvSyncFit *fit, guint *n_from_p, guint *n_to_p)
{
  const GArray *matches = m->matches[MIN (p, q) * m->n + MAX (p, q)];
  g_autoptr (GArray) lower = g_array_new (FALSE, FALSE, sizeof (TtvSyncPoint));
  g_autoptr (GArray) upper = g_array_new (FALSE, FALSE, sizeof (TtvSyncPoint));
  for (guint i = 0; i < matches->len; i++)
    {
      const Match *x = &g_array_index (matches, Match, i);
      TtvTime tp = p < q ? x->time_a : x->time_b, tq = p < q ? x->time_b : x->time_a;
      gboolean from_p = (p < q) == x->from_a;
      TtvSyncPoint point = { (double) (tq - m->origin[q]), (double) (tp - tq) };
      g_array_append_val (from_p ? lower : upper, point);
    }
  *n_from_p = lower->len;
  *n_to_p = upper->len;
  ttv_sync_fit ((const TtvSyncPoint *) lower->data, lower->len, (const TtvSyncPoint *) upper->data, upper->len, fit);
}

static void
interval_product (double a0, double a1, double b0, double b1, double *lo, double *hi)
{
  double c[4] = { a0 * b0, a0 * b1, a1 * b0, a1 * b1 };
  *lo = MIN (MIN (c[0], c[1]), MIN (c[2], c[3]));
  *hi = MAX (MAX (c[0], c[1]), MAX (c[2], c[3]));
}

/* @fit corrects q to p's clock; p's own correction (to the reference) is
 * @via: q's correction to the reference is their composition, with bounds
 * that contain every composition of lines within both bounds. */
static void
compose (const TtvSyncMachine *via, TtvTime via_origin, TtvTime origin, TtvSyncFit *fit)
{
  const TtvSyncFit *v = &via->fit;
  /* p's correction applied at q's origin corrected to p: o + c */
  double delta = (double) (origin - via_origin) + fit->offset;
  double dlo, dhi, plo, phi;
  interval_product (v->drift_min, v->drift_max, (double) (origin - via_origin) + fit->offset_min,
                    (double) (origin - via_origin) + fit->offset_max, &dlo, &dhi);
  fit->offset_min += v->offset_min + dlo;
  fit->offset_max += v->offset_max + dhi;
  fit->offset += v->offset + v->drift * delta;
  interval_product (fit->drift_min, fit->drift_max, v->drift_min, v->drift_max, &plo, &phi);
  fit->drift_min += v->drift_min + plo;
  fit->drift_max += v->drift_max + phi;
  fit->drift += v->drift + fit->drift * v->drift;
  if (v->quality == TTV_SYNC_APPROXIMATE)
    {
      fit->quality = TTV_SYNC_APPROXIMATE;
      fit->reason = v->reason;
    }
}

/* From the reference outwards: each machine fitted to the first machine
 * already synchronized that it exchanged packets with, and composed. */
static void
fit_machines (Matcher *m)
{
  TtvSyncResult *r = m->result;
  g_autofree gboolean *done = g_new0 (gboolean, m->n);
  g_autofree guint *queue = g_new (guint, m->n);
  guint head = 0, tail = 0;
  queue[tail++] = m->reference;
  done[m->reference] = TRUE;
  for (guint k = 0; k < m->n; k++)
    {
      r->machines[k].correction.origin = m->origin[k];
      r->machines[k].quality = k == m->reference ? TTV_SYNC_REFERENCE : TTV_SYNC_FAIL;
      r->machines[k].via = m->reference;
    }
  while (head < tail)
    {
      guint p = queue[head++];
      for (guint q = 0; q < m->n; q++)
        {
          if (done[q] || m->matches[MIN (p, q) * m->n + MAX (p, q)]->len == 0)
            continue;
          TtvSyncMachine *sm = &r->machines[q];
          TtvSyncFit fit;
          guint n_from, n_to;
          fit_pair (m, p, q, &fit, &n_from, &n_to);
          /* A failure stands until another machine does better. */
          if (fit.quality == TTV_SYNC_FAIL && sm->reason)
            continue;
          sm->fit = fit;
          sm->via = p;
          sm->n_to = n_from;
          sm->n_from = n_to;
          sm->quality = fit.quality;
          if (fit.quality == TTV_SYNC_FAIL)
            {
              sm->reason = g_strdup (_(fit.reason));
              continue;
            }
          if (p != m->reference)
            compose (&r->machines[p], m->origin[p], m->origin[q], &sm->fit);
          sm->quality = sm->fit.quality;
          g_clear_pointer (&sm->reason, g_free);
          if (sm->fit.reason)
            sm->reason = g_strdup (_(sm->fit.reason));
          sm->correction.offset_ns = sm->fit.offset;
          sm->correction.drift = sm->fit.drift;
          done[q] = TRUE;
          queue[tail++] = q;
        }
    }
  for (guint k = 0; k < m->n; k++)
    if (!done[k] && r->machines[k].reason == NULL)
      r->machines[k].reason = g_strdup (_("no packet exchanged with a synchronized machine"));
}

TtvSyncResult *
ttv_sync_traceset (TtvTraceset *ts, GError **error)
{
  g_return_val_if_fail (ts != NULL, NULL);
  guint n_machines = ttv_traceset_get_n_machines (ts);
  if (n_machines < 2)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("Synchronization needs traces of two machines or more: these traces record one machine (%s)"),
                   ttv_traceset_get_machine_name (ts, 0));
      return NULL;
    }
  g_autoptr (TtvSyncResult) result = g_new0 (TtvSyncResult, 1);
  result->n_machines = n_machines;
  result->machines = g_new0 (TtvSyncMachine, n_machines);
  Matcher m = {
    .ts = ts,
    .result = result,
    .types = g_hash_table_new_full (NULL, NULL, NULL, packet_type_free),
    .lttng0 = ttv_sync_lttng0_new (),
    .packets = g_hash_table_new_full (key_hash, key_equal, NULL, g_free),
    .origin = g_new (TtvTime, n_machines),
    .n = n_machines,
    .matches = g_new (GArray *, n_machines * n_machines),
  };
  for (guint i = 0; i < n_machines * n_machines; i++)
    m.matches[i] = g_array_new (FALSE, FALSE, sizeof (Match));
  for (guint k = 0; k < n_machines; k++)
    {
      result->machines[k].name = g_strdup (ttv_traceset_get_machine_name (ts, k));
      m.origin[k] = TTV_TIME_MAX;
    }
  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    {
      guint k = ttv_traceset_get_trace_machine (ts, t);
      m.origin[k] = MIN (m.origin[k], ttv_traceset_get_trace (ts, t)->start);
    }
  gboolean ok = TRUE;
  guint n_types = find_types (&m);
  if ((n_types == 0 || ((ok = match_packets (&m, error)) && result->n_matched == 0)) && m.unusable)
    {
      /* An LTTng 0.x packet event without the fields to match it by. */
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("No network packet events to synchronize with: %s (LTTng 0.x kernels patched for "
                     "synchronization record net.%s, net.%s and net.%s with the packets' headers)"),
                   m.unusable, LTTNG0_SEND_EVENT, LTTNG0_RECEIVE_EVENT, LTTNG0_TCP_EVENT);
      ok = FALSE;
    }
  else if (n_types == 0)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("No network packet events to synchronize with: the traces have no %s or %s event "
                     "with network headers, nor %s or %s with a seq field (record them with lttng "
                     "enable-event -k %s,%s), nor the LTTng 0.x events net.%s, net.%s and net.%s"),
                   NET_DEV_SEND_EVENT, NET_DEV_RECEIVE_EVENT, SEND_EVENT, RECEIVE_EVENT, NET_DEV_SEND_EVENT,
                   NET_DEV_RECEIVE_EVENT, LTTNG0_SEND_EVENT, LTTNG0_RECEIVE_EVENT, LTTNG0_TCP_EVENT);
      ok = FALSE;
    }
  else if (ok && result->n_sent + result->n_received == 0
           && result->n_not_tcp > 0)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("No TCP packet to synchronize with: none of the %" PRIu64 " packet events is TCP over "
                     "IPv4 or IPv6 (UDP, ARP... cannot be matched)"), result->n_not_tcp);
      ok = FALSE;
    }
  else if (ok && result->n_matched == 0)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("No packet sent by one machine was received by another (%" PRIu64 " sent, %" PRIu64
                     " received): nothing to synchronize with"),
                   result->n_sent, result->n_received);
      ok = FALSE;
    }
  if (ok)
    fit_machines (&m);
  for (guint i = 0; i < n_machines * n_machines; i++)
    g_array_unref (m.matches[i]);
  g_free (m.matches);
  g_free (m.origin);
  g_hash_table_unref (m.types);
  g_hash_table_unref (m.packets);
  ttv_sync_lttng0_free (m.lttng0);
  g_free (m.unusable);
  return ok ? g_steal_pointer (&result) : NULL;
}

void
ttv_sync_result_apply (const TtvSyncResult *result, TtvTraceset *ts)
{
  g_return_if_fail (result != NULL && ts != NULL);
  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    {
      guint k = ttv_traceset_get_trace_machine (ts, t);
      if (k >= result->n_machines)
        continue;
      const TtvSyncMachine *m = &result->machines[k];
      if (m->quality != TTV_SYNC_ACCURATE && m->quality != TTV_SYNC_APPROXIMATE)
        continue;
      TtvClockCorrection total;
      ttv_clock_correction_compose (&ttv_traceset_get_trace (ts, t)->clock, &m->correction, &total);
      ttv_traceset_set_clock_correction (ts, t, &total);
    }
}

void
ttv_sync_result_free (TtvSyncResult *result)
{
  if (result == NULL)
    return;
  for (guint k = 0; k < result->n_machines; k++)
    {
      g_free (result->machines[k].name);
      g_free (result->machines[k].reason);
    }
  g_free (result->machines);
  g_free (result);
}

const char *
ttv_sync_quality_name (TtvSyncQuality quality)
{
  switch (quality)
    {
    case TTV_SYNC_REFERENCE: return _("reference");
    case TTV_SYNC_ACCURATE: return _("accurate");
    case TTV_SYNC_APPROXIMATE: return _("approximate");
    case TTV_SYNC_FAIL:
    default: return _("failed");
    }
}

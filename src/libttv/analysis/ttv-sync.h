/* ttv-sync.h: clock synchronization of the machines of a traceset from the
 * network packets they exchanged (convex-hull method); ttv-report --sync and the viewer use it. */
#pragma once

#include "ttv-clock-correction.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

typedef enum {
  TTV_SYNC_REFERENCE,           /* the machine the others are corrected to */
  TTV_SYNC_ACCURATE,            /* offset and drift bounded from both directions */
  TTV_SYNC_APPROXIMATE,         /* the drift is not bounded: assumed 0 (or the nearest bound) */
  TTV_SYNC_FAIL,                /* no correction: see the reason */
} TtvSyncQuality;

/* --- The convex-hull method, on one pair of machines ------------------------- */

/* One matched packet between the reference R and machine M, as a point
 * (u, v): u = M's time - M's origin, v = R's time - M's time.  A packet
 * from R to M is a lower bound (the corrected reception is after the
 * emission: c + d u > v); one from M to R an upper bound (c + d u < v). */
typedef struct {
  double u, v;
} TtvSyncPoint;

typedef struct {
  TtvSyncQuality quality;       /* ACCURATE, APPROXIMATE or FAIL */
  double drift, offset;         /* the estimate: corrected = t + offset + drift (t - origin) */
  double drift_min, drift_max;  /* the bounds (ACCURATE); APPROXIMATE: the drift assumed, twice */
  double offset_min, offset_max;/* the bounds of the offset at the origin */
  const char *reason;           /* FAIL and APPROXIMATE: why (untranslated, static) */
} TtvSyncFit;

/* The lines c + d u that separate @lower (below) from @upper (above): the
 * upper hull of one, the lower hull of the other, the extreme slopes and
 * offsets of the lines between them, and the middle as the estimate. */
void ttv_sync_fit (const TtvSyncPoint *lower, guint n_lower, const TtvSyncPoint *upper, guint n_upper,
                   TtvSyncFit *fit);

/* --- A traceset ---------------------------------------------------------- */

typedef struct {
  char *name;                   /* the machine's name */
  TtvSyncQuality quality;
  TtvClockCorrection correction;/* identity for the reference and on FAIL */
  TtvSyncFit fit;
  guint via;                    /* the machine it was fitted to: the reference, or one
                                 * synchronized before it (its correction composed) */
  guint n_to, n_from;           /* packets matched from @via to it, and from it to @via */
  char *reason;                 /* translated, FAIL and APPROXIMATE */
} TtvSyncMachine;

typedef struct {
  guint reference;
  guint n_machines;
  TtvSyncMachine *machines;     /* [n_machines] */
  guint64 n_sent, n_received;   /* packet events seen */
  guint64 n_matched;
  guint64 n_not_tcp;            /* net_dev and LTTng 0.x packet events that are not TCP over IP: ignored */
} TtvSyncResult;

/* Reads every trace of @ts once (a context of its own), matches each
 * inet_sock_local_out with the inet_sock_local_in of the same packet
 * (addresses, ports, sequence numbers, flags) on another machine, and each
 * net_dev_queue with the net_if_receive_skb (or netif_receive_skb) of the
 * same TCP packet over IPv4 or IPv6 (the same, read from the headers
 * lttng-modules records), and each LTTng 0.x net.dev_xmit_extended with the
 * net.dev_receive whose skb net.tcpv4_rcv_extended takes with the same
 * headers (ttv-sync-lttng0.c), and fits each machine's clock to machine 0's.
 * NULL with @error when there is nothing to synchronize: one machine only,
 * no packet events (or LTTng 0.x ones without the fields to match them
 * by: the message names one), no TCP packet, no packet matched. */
TtvSyncResult *ttv_sync_traceset (TtvTraceset *ts, GError **error);
void           ttv_sync_result_free (TtvSyncResult *result);
const char    *ttv_sync_quality_name (TtvSyncQuality quality);   /* translated */

/* Corrects every trace of @ts by its machine's correction (a machine that
 * failed keeps its clock), composed with the correction the trace already
 * had (the fit was made on the times it gave).  No context on @ts may
 * exist during the call. */
void           ttv_sync_result_apply (const TtvSyncResult *result, TtvTraceset *ts);
/* What ttv-report --sync prints: a line on the matching, then per trace of
 * @ts its machine's quality, correction formula and bounds (offsets in
 * seconds, bounds rounded outwards to the nanosecond, drifts in ppm). */
void           ttv_sync_append_text (const TtvSyncResult *result, TtvTraceset *ts, GString *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvSyncResult, ttv_sync_result_free)

G_END_DECLS

/* ttv-sync-print.c: a synchronization result as text, per trace: what
 * ttv-report --sync prints and the viewer shows. */
#include "ttv-sync.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>

/* Seconds with nine decimals, rounded down (@up FALSE) or up. */
static char *
seconds (double ns, gboolean up)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.9f", (up ? ceil (ns) : floor (ns)) / 1e9));
}

/* Parts per million with six decimals, rounded down or up. */
static char *
ppm (double drift, gboolean up)
{
  double micro = drift * 1e12;   /* in millionths of a ppm */
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6f", (up ? ceil (micro) : floor (micro)) / 1e6));
}

static void
append_machine (GString *out, const TtvSyncMachine *m)
{
  g_autofree char *formula = ttv_clock_correction_to_string (&m->correction);
  char origin[32];
  ttv_time_to_string (m->correction.origin, origin, sizeof origin);
  g_autofree char *offset = seconds (m->fit.offset, FALSE);
  g_autofree char *offset_min = seconds (m->fit.offset_min, FALSE);
  g_autofree char *offset_max = seconds (m->fit.offset_max, TRUE);
  g_autofree char *drift = ppm (m->fit.drift, FALSE);
  g_string_append_printf (out, _("  corrected time: %s\n"), formula);
  g_string_append_printf (out, _("  offset at %s: %s s, between %s and %s s\n"), origin, offset, offset_min,
                          offset_max);
  if (m->quality == TTV_SYNC_ACCURATE)
    {
      g_autofree char *drift_min = ppm (m->fit.drift_min, FALSE);
      g_autofree char *drift_max = ppm (m->fit.drift_max, TRUE);
      g_string_append_printf (out, _("  drift: %s ppm, between %s and %s ppm\n"), drift, drift_min, drift_max);
    }
  else
    g_string_append_printf (out, _("  drift: %s ppm, assumed\n"), drift);
}

void
ttv_sync_append_text (const TtvSyncResult *r, TtvTraceset *ts, GString *out)
{
  g_string_append_printf (out, _("Clock synchronization: %" PRIu64 " packets matched (%" PRIu64 " sent, %" PRIu64
                                 " received); reference machine %s\n"),
                          r->n_matched, r->n_sent, r->n_received, r->machines[r->reference].name);
  if (r->n_not_tcp > 0)
    g_string_append_printf (out, _("%" PRIu64 " other packets (not TCP over IPv4 or IPv6) ignored\n"),
                            r->n_not_tcp);
  for (guint t = 0; t < ttv_traceset_get_n_traces (ts); t++)
    {
      const TtvTrace *trace = ttv_traceset_get_trace (ts, t);
      const TtvSyncMachine *m = &r->machines[ttv_traceset_get_trace_machine (ts, t)];
      const char *name = trace->display_path ? trace->display_path : trace->name ? trace->name : "?";
      g_string_append_printf (out, "%s (%s): %s", name, m->name, ttv_sync_quality_name (m->quality));
      if (m->quality != TTV_SYNC_REFERENCE)
        g_string_append_printf (out, _(", %u packets from and %u to %s"), m->n_to, m->n_from,
                                r->machines[m->via].name);
      if (m->reason)
        g_string_append_printf (out, ": %s", m->reason);
      g_string_append_c (out, '\n');
      if (m->quality == TTV_SYNC_ACCURATE || m->quality == TTV_SYNC_APPROXIMATE)
        append_machine (out, m);
    }
}

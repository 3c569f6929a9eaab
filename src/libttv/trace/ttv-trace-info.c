/* ttv-trace-info.c: text descriptions of a trace (see ttv-trace-info.h).
 * Plain text, stable order, so tests can compare it. */
#include "ttv-trace-info.h"
#include "ttv-hook-groups.h"

#include <glib/gi18n-lib.h>

static void
append_time (GString *out, const char *label, TtvTime t)
{
  char buf[32];
  g_string_append_printf (out, "%-14s %s\n", label,
                          t == TTV_TIME_MAX || t == TTV_TIME_MIN ? "-" : ttv_time_to_string (t, buf, sizeof buf));
}

void
ttv_lost_range_append_text (const TtvLostRange *r, GString *out)
{
  char b1[32], b2[32];
  g_string_append (out, "    ");
  if (r->packets)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT " packets", r->packets);
  if (r->packets && r->count)
    g_string_append (out, " and ");
  if (r->count || !r->packets)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT " events", r->count);
  if (r->flags & TTV_LOST_TIME_UNKNOWN)
    g_string_append (out, " lost\n");
  else if (r->flags & TTV_LOST_SINCE_STREAM_START)
    g_string_append_printf (out, " lost before %s (counted since the stream began)\n",
                            ttv_time_to_string (r->end, b2, sizeof b2));
  else
    g_string_append_printf (out, " lost between %s and %s\n", ttv_time_to_string (r->start, b1, sizeof b1),
                            ttv_time_to_string (r->end, b2, sizeof b2));
}

gboolean
ttv_lost_range_in_interval (const TtvTracefile *tf, const TtvLostRange *r, TtvTime start, TtvTime end)
{
  if (r->flags & TTV_LOST_TIME_UNKNOWN)
    return start <= tf->start && end >= tf->end;
  return r->end >= start && r->start <= end;
}

void
ttv_trace_append_info (const TtvTrace *t, GString *out)
{
  g_string_append_printf (out, "trace          %s\n", t->display_path);
  g_string_append_printf (out, "format         %s (%s)\n", t->format->name, t->format->description);
  for (guint i = 0; i < t->info_keys->len; i++)
    {
      const char *key = g_ptr_array_index (t->info_keys, i);
      g_string_append_printf (out, "  %-12s %s\n", key, (const char *) g_hash_table_lookup (t->info, key));
    }
  append_time (out, "start", t->start);
  append_time (out, "end", t->end);
  if (t->start <= t->end)
    {
      char buf[32];
      g_string_append_printf (out, "%-14s %s s\n", "duration", ttv_time_to_string (t->end - t->start, buf, sizeof buf));
    }
  /* start / end are the first and last events; the packets the tracer
   * wrote usually begin earlier and end later. */
  if (t->packets_start <= t->packets_end && (t->packets_start != t->start || t->packets_end != t->end))
    {
      char b1[32], b2[32];
      g_string_append_printf (out, "%-14s %s .. %s\n", "packets",
                              ttv_time_to_string (t->packets_start, b1, sizeof b1),
                              ttv_time_to_string (t->packets_end, b2, sizeof b2));
    }
  g_string_append_printf (out, "%-14s %u\n", "event types", t->event_types->len);
  g_string_append_printf (out, "%-14s %u\n", "tracefiles", t->tracefiles->len);
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      const TtvTracefile *tf = g_ptr_array_index (t->tracefiles, i);
      char b1[32], b2[32];
      g_string_append_printf (out, "  %-20s cpu %-3d %10" G_GUINT64_FORMAT " bytes %8" G_GUINT64_FORMAT " blocks  %s .. %s\n",
                              tf->name, tf->cpu, tf->size, tf->n_blocks,
                              tf->first_event == TTV_TIME_MAX ? "-" : ttv_time_to_string (tf->first_event, b1, sizeof b1),
                              tf->last_event == TTV_TIME_MIN ? "-" : ttv_time_to_string (tf->last_event, b2, sizeof b2));
      for (guint j = 0; tf->lost && j < tf->lost->len; j++)
        ttv_lost_range_append_text (&g_array_index (tf->lost, TtvLostRange, j), out);
    }
  if (t->flags & TTV_TRACE_FLAG_BEGINNING_MISSING)
    g_string_append_printf (out, "%s\n", _("warning: the beginning of this trace is missing (flight recorder mode)"));
  for (guint i = 0; i < t->warnings->len; i++)
    g_string_append_printf (out, "warning: %s\n", (const char *) g_ptr_array_index (t->warnings, i));
}

void
ttv_trace_append_event_types (const TtvTrace *t, GString *out)
{
  for (guint i = 0; i < t->event_types->len; i++)
    {
      const TtvEventType *et = g_ptr_array_index (t->event_types, i);
      g_autofree char *sig = ttv_type_dup_signature (et->fields);
      char id[TTV_EVENT_ID_LEN];
      /* The trace's own id, as the ID column and -d take it. */
      TtvEventTypeAttributes attr;
      g_string_append_printf (out, "%-5s %-36s %s", ttv_event_type_format_id (et, id), et->full_name, sig);
      /* As `lttng list` shows them; nothing for the traces without. */
      ttv_event_type_get_attributes (t, et, &attr);
      if (attr.log_level >= 0)
        {
          g_autofree char *level = ttv_log_level_dup_text (attr.log_level);
          g_string_append_printf (out, "  (loglevel: %s)", level);
        }
      if (attr.emf_uri)
        g_string_append_printf (out, "  (emf-uri: %s)", attr.emf_uri);
      if (et->description)
        {
          g_autofree char *oneline = g_strdup (et->description);
          g_strstrip (g_strdelimit (oneline, "\n\t", ' '));
          g_string_append_printf (out, "  # %s", oneline);
        }
      g_string_append_c (out, '\n');
    }
}

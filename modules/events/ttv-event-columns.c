/* ttv-event-columns.c: what each column of the event list shows for an
 * event (used for the rows and by Find, so that Find looks at exactly what
 * the user reads), and the user's shown columns and widths, kept in the
 * settings so that the list looks the same next time. */
#include "ttv-event-columns.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#define COLUMNS_KEY "event-list-columns"
#define WIDTHS_KEY "event-list-column-widths"

static const struct {
  const char *name;
  const char *title;
} columns[TTV_EVENT_N_COLUMNS] = {
  { "time", N_("Time") }, { "delta", N_("Delta") }, { "trace", N_("Trace") }, { "cpu", N_("CPU") },
  { "event", N_("Event") }, { "pid", N_("PID") }, { "process", N_("Process") },
  { "mode", N_("Mode") }, { "symbol", N_("Symbol") }, { "fields", N_("Fields") },
};

const char *
ttv_event_column_get_name (TtvEventColumn column)
{
  g_return_val_if_fail (column < TTV_EVENT_N_COLUMNS, "");
  return columns[column].name;
}

const char *
ttv_event_column_get_title (TtvEventColumn column)
{
  g_return_val_if_fail (column < TTV_EVENT_N_COLUMNS, "");
  return g_dgettext (GETTEXT_PACKAGE, columns[column].title);
}

char *
ttv_event_columns_dup_cpu (const TtvViewerTrace *trace, guint stream)
{
  gint cpu = ttv_viewer_trace_get_stream_cpu (trace, stream);

  return cpu >= 0 ? g_strdup_printf ("%d", cpu) : g_strdup (ttv_viewer_trace_get_stream_name (trace, stream));
}

/* "syscall read" inside a call, "user ← read" on the exit that ends it, and
 * "idle" for the idle task in its base mode (what its CPU then does). */
static void
append_mode (GString *out, const TtvViewerProcessInfo *info)
{
  gboolean in_call = strcmp (info->mode, "syscall") == 0;

  if (info->pid == 0 && strcmp (info->mode, "user") == 0)
    g_string_append (out, "idle");
  else
    g_string_append (out, info->mode);
  if (info->syscall)
    {
      /* Not printf: Find formats this for millions of events. */
      g_string_append (out, in_call ? " " : " ← ");
      g_string_append (out, info->syscall);
    }
}

/* @v in decimal, without printf (Find formats millions of them). */
static void
append_uint (GString *out, guint v)
{
  char buf[16];
  int n = 0;

  do
    buf[n++] = (char) ('0' + v % 10);
  while ((v /= 10) != 0 && n < (int) sizeof buf);
  while (n > 0)
    g_string_append_c (out, buf[--n]);
}

const char *
ttv_event_columns_peek_text (TtvEventColumn column, const TtvViewerEvent *event,
                             const TtvViewerProcessInfo *info)
{
  const char *text;

  switch (column)
    {
    case TTV_EVENT_COLUMN_TRACE:
      text = ttv_viewer_trace_get_name (ttv_viewer_event_get_trace (event));
      break;
    case TTV_EVENT_COLUMN_EVENT:
      text = ttv_viewer_event_get_name (event);
      break;
    case TTV_EVENT_COLUMN_PROCESS:
      text = info ? (info->name[0] ? info->name : "-") : "";
      break;
    default:
      return NULL;
    }
  return text ? text : "";
}

void
ttv_event_columns_append_text (GString *out, TtvEventColumn column, TtvTabState *state,
                               const TtvViewerEvent *event, const TtvViewerProcessInfo *info)
{
  const char *plain = ttv_event_columns_peek_text (column, event, info);

  if (plain)
    {
      g_string_append (out, plain);
      return;
    }
  switch (column)
    {
    case TTV_EVENT_COLUMN_TIME:
      {
        g_autofree char *time = ttv_tab_state_format_time (state, ttv_viewer_event_get_time (event));

        g_string_append (out, time);
      }
      break;
    case TTV_EVENT_COLUMN_CPU:
      if (ttv_viewer_event_get_cpu (event) >= 0)
        append_uint (out, (guint) ttv_viewer_event_get_cpu (event));
      else
        g_string_append (out, ttv_viewer_trace_get_stream_name (ttv_viewer_event_get_trace (event),
                                                                ttv_viewer_event_get_stream (event)));
      break;
    case TTV_EVENT_COLUMN_FIELDS:
      ttv_viewer_event_append_fields (event, out);
      break;
    case TTV_EVENT_COLUMN_PID:
      if (info)
        append_uint (out, info->pid);
      break;
    case TTV_EVENT_COLUMN_MODE:
      if (info)
        append_mode (out, info);
      break;
    case TTV_EVENT_COLUMN_SYMBOL:
      {
        /* "main+0x26 (prog.c:11)": where the traced call returns to. */
        g_autofree char *symbol = ttv_tab_state_dup_event_symbol (state, event, "ip");

        if (symbol)
          g_string_append (out, symbol);
      }
      break;
    case TTV_EVENT_COLUMN_DELTA:
    default:
      break;
    }
}

gboolean
ttv_event_columns_has_symbol (const TtvViewerEvent *event)
{
  guint64 ip;

  return ttv_viewer_event_get_field_uint (event, "ip", &ip);
}

void
ttv_event_columns_fill (TtvTabState *state, TtvEventRequest *request, const TtvViewerEvent *event,
                        guint which, char *text[TTV_EVENT_N_COLUMNS])
{
  TtvViewerProcessInfo info;
  gboolean known = (which & TTV_EVENT_COLUMNS_STATE) && ttv_event_request_get_process (request, &info);
  g_autoptr (GString) buf = g_string_new (NULL);

  for (guint c = 0; c < TTV_EVENT_N_COLUMNS; c++)
    {
      if (!(which & TTV_EVENT_COLUMN_BIT (c)) || c == TTV_EVENT_COLUMN_DELTA
          || ((TTV_EVENT_COLUMN_BIT (c) & TTV_EVENT_COLUMNS_STATE) && !known))
        continue;
      g_string_truncate (buf, 0);
      ttv_event_columns_append_text (buf, c, state, event, &info);
      /* No symbol yet (they are being looked up): unknown, not empty. */
      if (c == TTV_EVENT_COLUMN_SYMBOL && buf->len == 0)
        continue;
      /* A trace's strings may hold bytes that are not UTF-8: GTK's cells
       * take only UTF-8. */
      text[c] = g_utf8_make_valid (buf->str, (gssize) buf->len);
    }
}

/* --- Settings ------------------------------------------------------------------ */

GSettings *
ttv_event_columns_new_settings (void)
{
  g_autoptr (GSettings) with_columns = ttv_viewer_dup_settings (COLUMNS_KEY);

  /* Both keys came in the same schema version, but an installed schema
   * older than this module must not crash it. */
  return with_columns ? ttv_viewer_dup_settings (WIDTHS_KEY) : NULL;
}

gboolean
ttv_event_columns_get_visible (GSettings *settings, TtvEventColumn column, TtvTabState *state)
{
  guint n_traces = ttv_tab_state_get_n_traces (state);
  gboolean visible;

  if (settings)
    {
      g_autoptr (GVariant) dict = g_settings_get_value (settings, COLUMNS_KEY);

      if (g_variant_lookup (dict, columns[column].name, "b", &visible))
        return visible;
    }
  /* One trace: its name on every row says nothing. */
  if (column == TTV_EVENT_COLUMN_TRACE)
    return n_traces > 1;
  /* Symbols: only for userspace traces recorded with the ip context. */
  if (column == TTV_EVENT_COLUMN_SYMBOL)
    {
      for (guint t = 0; t < n_traces; t++)
        if (ttv_viewer_trace_has_event_context (ttv_tab_state_get_trace (state, t), G_MAXUINT, "ip"))
          return TRUE;
      return FALSE;
    }
  return TRUE;
}

/* Sets @name to @value (NULL: removes it) in the dictionary at @key. */
static void
set_entry (GSettings *settings, const char *key, const char *name, GVariant *value)
{
  g_autoptr (GVariant) old = g_settings_get_value (settings, key);
  g_autoptr (GVariant) sunk = value ? g_variant_ref_sink (value) : NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *k;
  GVariant *v;

  g_variant_builder_init (&builder, g_variant_get_type (old));
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s@*}", &k, &v))
    {
      if (strcmp (k, name) != 0)
        g_variant_builder_add (&builder, "{s@*}", k, v);
      g_variant_unref (v);
    }
  if (sunk)
    g_variant_builder_add (&builder, "{s@*}", name, sunk);
  g_settings_set_value (settings, key, g_variant_builder_end (&builder));
}

void
ttv_event_columns_set_visible (GSettings *settings, TtvEventColumn column, gboolean visible)
{
  if (settings)
    set_entry (settings, COLUMNS_KEY, columns[column].name, g_variant_new_boolean (visible));
}

gint
ttv_event_columns_get_width (GSettings *settings, TtvEventColumn column)
{
  g_autoptr (GVariant) dict = settings ? g_settings_get_value (settings, WIDTHS_KEY) : NULL;
  gint width = 0;

  if (dict && g_variant_lookup (dict, columns[column].name, "i", &width))
    return MAX (width, 0);
  return 0;
}

void
ttv_event_columns_set_width (GSettings *settings, TtvEventColumn column, gint width)
{
  if (settings)
    set_entry (settings, WIDTHS_KEY, columns[column].name, width > 0 ? g_variant_new_int32 (width) : NULL);
}

/* ttv-trace.c: opening a trace with the best reader, and the format-neutral
 * bookkeeping that every reader shares (tracefiles, event types, info). */
#include "ttv-trace.h"
#include "ttv-trace-damage.h"
#include "ttv-archive.h"
#include "ttv-error.h"
#include "ttv-escape.h"

#include <glib/gi18n-lib.h>
#include <stdarg.h>

static TtvTrace *
trace_new (const char *path, const char *display_path)
{
  TtvTrace *t = g_new0 (TtvTrace, 1);
  t->path = g_strdup (path);
  t->display_path = g_strdup (display_path);
  /* For display: UTF-8 whatever bytes the file name holds. */
  t->name = g_filename_display_basename (display_path);
  t->tracefiles = g_ptr_array_new ();
  t->event_types = g_ptr_array_new ();
  t->info_keys = g_ptr_array_new_with_free_func (g_free);
  t->info = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  t->warnings = g_ptr_array_new_with_free_func (g_free);
  t->start = t->packets_start = TTV_TIME_MAX;
  t->end = t->packets_end = TTV_TIME_MIN;
  return t;
}

/* The latest event of @tf from block @b on; TTV_TIME_MIN when there is none. */
static TtvTime
last_event_from (TtvCursor *c, TtvTime block_start)
{
  TtvEvent ev;
  TtvTime last = TTV_TIME_MIN;
  if (!ttv_cursor_seek_time (c, block_start, NULL))
    return last;
  while (ttv_cursor_next (c, &ev, NULL))
    last = MAX (last, ev.time);
  return last;
}

/* The first and last events of @tf, found cheaply: the first event the
 * cursor delivers, and the latest one of the last block that holds any,
 * blocks being read backwards from the end (never the whole file).  A
 * tracefile that cannot be read keeps its packet bounds: reading it will
 * say what is wrong. */
static void
find_event_span (TtvTracefile *tf)
{
  const TtvFormatClass *format = tf->trace->format;
  tf->first_event = TTV_TIME_MAX;
  tf->last_event = TTV_TIME_MIN;
  if (tf->n_blocks == 0)
    return;
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvCursor) c = ttv_cursor_new_few (tf, &error);
  TtvEvent ev;
  if (c == NULL || !ttv_cursor_next (c, &ev, &error))
    {
      if (error && tf->start <= tf->end)
        {
          /* Unreadable: the packet bounds are all we know. */
          tf->first_event = tf->start;
          tf->last_event = tf->end;
        }
      return;
    }
  tf->first_event = ev.time;
  tf->last_event = MAX (ev.time, format->block_start ? TTV_TIME_MIN : tf->end);
  for (guint64 b = tf->n_blocks; format->block_start && b-- > 0;)
    {
      TtvTime begin = format->block_start (tf, b);
      if (begin == TTV_TIME_MIN)
        {
          tf->last_event = MAX (ev.time, tf->end);
          return;
        }
      TtvTime last = last_event_from (c, MAX (begin, ev.time));
      if (last != TTV_TIME_MIN)
        {
          tf->last_event = last;
          return;
        }
    }
}

/* The trace's span from its tracefiles' events (their packet bounds when no
 * tracefile has an event). */
static void
update_span (TtvTrace *t)
{
  t->start = t->packets_start = TTV_TIME_MAX;
  t->end = t->packets_end = TTV_TIME_MIN;
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      const TtvTracefile *tf = g_ptr_array_index (t->tracefiles, i);
      t->packets_start = MIN (t->packets_start, tf->start);
      t->packets_end = MAX (t->packets_end, tf->end);
      t->start = MIN (t->start, tf->first_event);
      t->end = MAX (t->end, tf->last_event);
    }
  if (t->start > t->end)
    {
      t->start = t->packets_start;
      t->end = t->packets_end;
    }
  if (!ttv_clock_correction_is_identity (&t->clock))
    {
      t->start = ttv_clock_correction_apply (&t->clock, t->start);
      t->end = ttv_clock_correction_apply (&t->clock, t->end);
      t->packets_start = ttv_clock_correction_apply (&t->clock, t->packets_start);
      t->packets_end = ttv_clock_correction_apply (&t->clock, t->packets_end);
    }
}

void
ttv_trace_set_clock_correction (TtvTrace *trace, const TtvClockCorrection *correction)
{
  g_return_if_fail (trace != NULL);
  if (correction)
    trace->clock = *correction;
  else
    memset (&trace->clock, 0, sizeof trace->clock);
  update_span (trace);
}

static void
trace_process_clear (gpointer p)
{
  g_free (((TtvTraceProcess *) p)->name);
}

GArray *
ttv_trace_processes_new (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (TtvTraceProcess));
  g_array_set_clear_func (a, trace_process_clear);
  return a;
}

static void
trace_interrupt_clear (gpointer p)
{
  TtvTraceInterrupt *i = p;
  g_free (i->controller);
  g_free (i->name);
}

GArray *
ttv_trace_interrupts_new (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (TtvTraceInterrupt));
  g_array_set_clear_func (a, trace_interrupt_clear);
  return a;
}

static void
tracefile_free (TtvTracefile *tf)
{
  g_free (tf->name);
  if (tf->lost)
    g_array_unref (tf->lost);
  g_free (tf);
}

static void
event_type_free (TtvEventType *et)
{
  g_free (et->name);
  g_free (et->facility);
  g_free (et->full_name);
  g_free (et->description);
  if (et->fields)
    ttv_type_unref (et->fields);
  g_free (et);
}

void
ttv_trace_close (TtvTrace *t)
{
  if (t == NULL)
    return;
  if (t->format && t->format->close)
    t->format->close (t);
  ttv_trace_damage_free (t->damage);
  for (guint i = 0; i < t->tracefiles->len; i++)
    tracefile_free (g_ptr_array_index (t->tracefiles, i));
  g_ptr_array_unref (t->tracefiles);
  for (guint i = 0; i < t->event_types->len; i++)
    event_type_free (g_ptr_array_index (t->event_types, i));
  g_ptr_array_unref (t->event_types);
  g_ptr_array_unref (t->info_keys);
  g_hash_table_unref (t->info);
  g_clear_pointer (&t->tail_warnings, g_ptr_array_unref);
  g_clear_pointer (&t->damage_warnings, g_ptr_array_unref);
  g_ptr_array_unref (t->warnings);
  g_free (t->path);
  g_free (t->display_path);
  g_free (t->session_rel);
  g_clear_pointer (&t->more_paths, g_ptr_array_unref);
  g_free (t->name);
  g_free (t);
}

static const TtvFormatClass *
best_format (const char *dir)
{
  const TtvFormatClass *best = NULL;
  guint best_score = 0;
  for (const TtvFormatClass * const *f = ttv_formats_list (); *f; f++)
    {
      guint score = (*f)->probe (dir);
      if (score > best_score)
        {
          best = *f;
          best_score = score;
        }
    }
  return best;
}

/* @format's open of the new trace @t, then its span; @t is freed on error. */
static TtvTrace *
format_open (TtvTrace *t, const TtvFormatClass *format, GError **error)
{
  if (!format->open (t, error))
    {
      /* close() is only for a trace the reader accepted. */
      t->format = NULL;
      ttv_trace_close (t);
      return NULL;
    }
  t->format = format;
  for (guint i = 0; i < t->tracefiles->len; i++)
    find_event_span (g_ptr_array_index (t->tracefiles, i));
  update_span (t);
  return t;
}

char *
ttv_trace_dup_enclosing (const char *dir)
{
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR) || best_format (dir) != NULL)
    return NULL;
  g_autofree char *canonical = g_canonicalize_filename (dir, NULL);
  g_autofree char *parent = g_path_get_dirname (canonical);
  if (g_strcmp0 (parent, canonical) == 0 || best_format (parent) == NULL)
    return NULL;
  return g_steal_pointer (&parent);
}

/* The best reader's open of @dir (@path is what the user gave). */
static TtvTrace *
open_dir (const char *dir, const char *path, TtvTraceFlags flags, GError **error)
{
  const TtvFormatClass *format = best_format (dir);
  g_autofree char *enclosing = format ? NULL : ttv_trace_dup_enclosing (dir);
  if (enclosing)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNKNOWN_FORMAT,
                   _("%s: not a trace, but a folder of the trace %s: open that folder"), path, enclosing);
      return NULL;
    }
  if (format == NULL)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNKNOWN_FORMAT,
                   _("%s: not a trace that ttv can read (no LTT info/system.xml, "
                     "LTTng 0.x cpu_N files or CTF metadata found)"),
                   path);
      return NULL;
    }

  TtvTrace *t = trace_new (dir, path);
  t->flags = flags;
  return format_open (t, format, error);
}

TtvTrace *
ttv_trace_open (const char *path, GError **error)
{
  return ttv_trace_open_full (path, NULL, NULL, NULL, error);
}

TtvTrace *
ttv_trace_open_full (const char *path, GCancellable *cancellable,
                     void (*progress) (guint64 done, guint64 total, gpointer data),
                     gpointer progress_data, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autofree char *dir = NULL;

  if (ttv_archive_is_archive (path))
    {
      dir = ttv_archive_extract_full (path, cancellable, progress, progress_data, error);
      if (dir == NULL)
        return NULL;
    }
  else if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_MISSING,
                   g_file_test (path, G_FILE_TEST_EXISTS)
                     ? _("%s: not a trace directory nor a .tar.gz, .tgz or .tar archive")
                     : _("%s: no such file or directory"),
                   path);
      return NULL;
    }
  else
    dir = g_strdup (path);
  return open_dir (dir, path, 0, error);
}

TtvTrace *
ttv_trace_open_growing (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  return open_dir (path, path, TTV_TRACE_FLAG_GROWING, error);
}

TtvTrace *
ttv_trace_open_group (const char *const *paths, guint n, GError **error)
{
  g_return_val_if_fail (paths != NULL && n > 0, NULL);
  if (n == 1)
    return ttv_trace_open (paths[0], error);
  const TtvFormatClass *format = best_format (paths[0]);
  g_return_val_if_fail (format != NULL && format->identity != NULL, NULL);
  TtvTrace *t = trace_new (paths[0], paths[0]);
  t->more_paths = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 1; i < n; i++)
    g_ptr_array_add (t->more_paths, g_strdup (paths[i]));
  return format_open (t, format, error);
}

gboolean
ttv_trace_refresh (TtvTrace *t, gboolean *changed, GError **error)
{
  g_return_val_if_fail (t != NULL && changed != NULL, FALSE);
  *changed = FALSE;
  if (t->format == NULL || t->format->refresh == NULL)
    return TRUE;
  if (!t->format->refresh (t, changed, error))
    return FALSE;
  if (!*changed)
    return TRUE;
  for (guint i = 0; i < t->tracefiles->len; i++)
    find_event_span (g_ptr_array_index (t->tracefiles, i));
  update_span (t);
  return TRUE;
}

TtvTracefile *
ttv_trace_add_tracefile (TtvTrace *t, const char *name, gint cpu)
{
  static guint serials;
  TtvTracefile *tf = g_new0 (TtvTracefile, 1);
  tf->trace = t;
  tf->index = t->tracefiles->len;
  tf->serial = (guint) g_atomic_int_add ((gint *) &serials, 1);
  tf->name = g_strdup (name);
  tf->cpu = cpu;
  tf->start = tf->first_event = TTV_TIME_MAX;
  tf->end = tf->last_event = TTV_TIME_MIN;
  tf->lost = g_array_new (FALSE, FALSE, sizeof (TtvLostRange));
  g_ptr_array_add (t->tracefiles, tf);
  return tf;
}

TtvEventType *
ttv_trace_add_event_type (TtvTrace *t, const char *facility, const char *name, TtvType *fields)
{
  TtvEventType *et = g_new0 (TtvEventType, 1);
  et->id = t->event_types->len;
  et->name = g_strdup (name);
  et->facility = g_strdup (facility);
  et->full_name = facility ? g_strdup_printf ("%s.%s", facility, name) : g_strdup (name);
  et->fields = fields ? fields : ttv_type_new_struct ();
  ttv_type_finish (et->fields);
  g_ptr_array_add (t->event_types, et);
  return et;
}

void
ttv_trace_set_info (TtvTrace *t, const char *key, const char *value)
{
  if (!g_hash_table_contains (t->info, key))
    g_ptr_array_add (t->info_keys, g_strdup (key));
  g_hash_table_insert (t->info, g_strdup (key), g_strdup (value));
}

const char *
ttv_trace_get_info (const TtvTrace *t, const char *key)
{
  return g_hash_table_lookup (t->info, key);
}

/* A warning, added to @warnings and to the subsets its kind names. */
static void
add_warning (TtvTrace *t, gboolean tail, gboolean damage, const char *format, va_list ap) G_GNUC_PRINTF (4, 0);

static void
add_warning (TtvTrace *t, gboolean tail, gboolean damage, const char *format, va_list ap)
{
  g_autofree char *raw = g_strdup_vprintf (format, ap);
  /* Names from the trace (file names, archive members) may hold newlines
   * or terminal escapes: every warning is printed and shown as it is. */
  char *text = ttv_text_for_display (raw);
  g_ptr_array_add (t->warnings, text);
  if (tail)
    {
      if (t->tail_warnings == NULL)
        t->tail_warnings = g_ptr_array_new ();
      g_ptr_array_add (t->tail_warnings, text);
    }
  if (damage)
    {
      if (t->damage_warnings == NULL)
        t->damage_warnings = g_ptr_array_new ();
      g_ptr_array_add (t->damage_warnings, text);
    }
}

void
ttv_trace_add_warning (TtvTrace *t, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  add_warning (t, FALSE, FALSE, format, ap);
  va_end (ap);
}

void
ttv_trace_add_tail_warning (TtvTrace *t, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  add_warning (t, TRUE, FALSE, format, ap);
  va_end (ap);
}

void
ttv_trace_add_damage_warning (TtvTrace *t, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  add_warning (t, FALSE, TRUE, format, ap);
  va_end (ap);
}

void
ttv_trace_add_tail_damage_warning (TtvTrace *t, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  add_warning (t, TRUE, TRUE, format, ap);
  va_end (ap);
}

gboolean
ttv_trace_warning_is_tail (const TtvTrace *t, const char *warning)
{
  g_return_val_if_fail (t != NULL, FALSE);
  return t->tail_warnings && g_ptr_array_find (t->tail_warnings, warning, NULL);
}

gboolean
ttv_trace_warning_loses_events (const TtvTrace *t, const char *warning)
{
  g_return_val_if_fail (t != NULL, FALSE);
  return t->damage_warnings && g_ptr_array_find (t->damage_warnings, warning, NULL);
}

const TtvEventType *
ttv_trace_find_event_type (const TtvTrace *t, const char *name)
{
  for (guint i = 0; i < t->event_types->len; i++)
    {
      const TtvEventType *et = g_ptr_array_index (t->event_types, i);
      if (g_strcmp0 (et->full_name, name) == 0)
        return et;
    }
  for (guint i = 0; i < t->event_types->len; i++)
    {
      const TtvEventType *et = g_ptr_array_index (t->event_types, i);
      if (g_strcmp0 (et->name, name) == 0)
        return et;
    }
  return NULL;
}

gboolean
ttv_trace_cycles_to_time (const TtvTrace *trace, guint64 cycles, TtvTime *time)
{
  g_return_val_if_fail (trace != NULL && time != NULL, FALSE);
  if (trace->format == NULL || trace->format->cycles_to_time == NULL)
    return FALSE;
  return trace->format->cycles_to_time (trace, cycles, time);
}

/* A cursor of @tf made by @make, the format's constructor. */
static TtvCursor *
cursor_made_by (TtvCursor *(*make) (TtvTracefile *, GError **), TtvTracefile *tf, GError **error)
{
  TtvCursor *c = make (tf, error);
  if (c)
    c->tracefile = tf;
  return c;
}

TtvCursor *
ttv_cursor_new (TtvTracefile *tf, GError **error)
{
  g_return_val_if_fail (tf != NULL, NULL);
  return cursor_made_by (tf->trace->format->cursor_new, tf, error);
}

TtvCursor *
ttv_cursor_new_few (TtvTracefile *tf, GError **error)
{
  g_return_val_if_fail (tf != NULL, NULL);
  const TtvFormatClass *format = tf->trace->format;
  return cursor_made_by (format->cursor_new_few ? format->cursor_new_few : format->cursor_new, tf, error);
}

void
ttv_cursor_free (TtvCursor *c)
{
  if (c)
    c->tracefile->trace->format->cursor_free (c);
}

gboolean
ttv_cursor_next (TtvCursor *c, TtvEvent *event, GError **error)
{
  if (G_UNLIKELY (c->tracefile->trace->damage != NULL))
    return ttv_cursor_next_skipping_damage (c, event, error);
  return c->tracefile->trace->format->cursor_next (c, event, error);
}

gboolean
ttv_cursor_seek_time (TtvCursor *c, TtvTime time, GError **error)
{
  if (G_UNLIKELY (c->tracefile->trace->damage != NULL))
    return ttv_cursor_seek_time_skipping_damage (c, time, error);
  return c->tracefile->trace->format->cursor_seek_time (c, time, error);
}

gboolean
ttv_cursor_seek_position (TtvCursor *c, const TtvTracefilePosition *pos, GError **error)
{
  return c->tracefile->trace->format->cursor_seek_position (c, pos, error);
}

TtvTracefile *
ttv_cursor_get_tracefile (TtvCursor *c)
{
  return c->tracefile;
}

const GArray *
ttv_trace_get_processes (const TtvTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return trace->format && trace->format->get_processes ? trace->format->get_processes (trace) : NULL;
}

const GArray *
ttv_trace_get_interrupts (const TtvTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return trace->format && trace->format->get_interrupts ? trace->format->get_interrupts (trace) : NULL;
}

gboolean
ttv_trace_has_event_contexts (const TtvTrace *trace)
{
  return trace->format != NULL && trace->format->decode_contexts != NULL;
}

gboolean
ttv_event_type_has_context (const TtvTrace *trace, const TtvEventType *type, const char *name)
{
  if (trace->format == NULL || trace->format->event_type_has_context == NULL)
    return FALSE;
  return trace->format->event_type_has_context (trace, type, name);
}

void
ttv_event_type_get_attributes (const TtvTrace *trace, const TtvEventType *type, TtvEventTypeAttributes *attributes)
{
  attributes->log_level = -1;
  attributes->emf_uri = NULL;
  if (trace->format && trace->format->get_event_type_attributes)
    trace->format->get_event_type_attributes (trace, type, attributes);
}

char *
ttv_log_level_dup_text (gint level)
{
  /* LTTng-UST's names (lttng list, lttng enable-event --loglevel). */
  static const char *const names[] = {
    "TRACE_EMERG", "TRACE_ALERT", "TRACE_CRIT", "TRACE_ERR", "TRACE_WARNING", "TRACE_NOTICE",
    "TRACE_INFO", "TRACE_DEBUG_SYSTEM", "TRACE_DEBUG_PROGRAM", "TRACE_DEBUG_PROCESS",
    "TRACE_DEBUG_MODULE", "TRACE_DEBUG_UNIT", "TRACE_DEBUG_FUNCTION", "TRACE_DEBUG_LINE",
    "TRACE_DEBUG",
  };

  if (level >= 0 && level < (gint) G_N_ELEMENTS (names))
    return g_strdup_printf ("%s (%d)", names[level], level);
  return g_strdup_printf ("%d", level);
}

/* ttv_event_decode_contexts of a format without contexts: its own
 * function, so that the other way stays a call in tail position. */
static G_NO_INLINE gint32
decode_fields_alone (const TtvEvent *event, TtvDecoder *decoder, gint32 scopes[TTV_EVENT_N_CONTEXTS],
                     GError **error)
{
  for (guint i = 0; i < TTV_EVENT_N_CONTEXTS; i++)
    scopes[i] = -1;
  ttv_decoder_reset (decoder);
  return event->tracefile->trace->format->decode_fields (event, decoder, error);
}

gint32
ttv_event_decode_contexts_slow (const TtvEvent *event, TtvDecoder *decoder,
                                gint32 scopes[TTV_EVENT_N_CONTEXTS], GError **error)
{
  g_return_val_if_fail (event != NULL && decoder != NULL, -1);
  const TtvFormatClass *format = event->tracefile->trace->format;
  /* A format's decode_contexts resets the decoder itself (CTF's with its
   * packet context, in one call). */
  if (format->decode_contexts != NULL)
    return format->decode_contexts (event, decoder, scopes, error);
  return decode_fields_alone (event, decoder, scopes, error);
}

gboolean
ttv_event_append_babeltrace_line (GString *out, const TtvEvent *event, TtvTime previous_time,
                                  TtvDecoder *decoder)
{
  const TtvFormatClass *format = event->tracefile->trace->format;
  if (format->append_babeltrace_line == NULL)
    return FALSE;
  format->append_babeltrace_line (out, event, previous_time, decoder);
  return TRUE;
}

gboolean
ttv_event_append_jsonl_scopes (GString *out, const TtvEvent *event, TtvDecoder *decoder)
{
  const TtvFormatClass *format = event->tracefile->trace->format;
  return format->append_jsonl_scopes != NULL && format->append_jsonl_scopes (out, event, decoder);
}

gboolean
ttv_tracefile_append_babeltrace_lost (GString *out, const TtvTracefile *tracefile, const TtvLostRange *lost)
{
  const TtvFormatClass *format = tracefile->trace->format;
  if (format->append_babeltrace_lost == NULL)
    return FALSE;
  format->append_babeltrace_lost (out, tracefile, lost);
  return TRUE;
}

gint32
ttv_event_decode_fields (const TtvEvent *event, TtvDecoder *decoder, GError **error)
{
  return event->tracefile->trace->format->decode_fields (event, decoder, error);
}

int
ttv_tracefile_position_compare (const TtvTracefilePosition *a, const TtvTracefilePosition *b)
{
  if (a->block != b->block)
    return a->block < b->block ? -1 : 1;
  if (a->offset != b->offset)
    return a->offset < b->offset ? -1 : 1;
  return 0;
}

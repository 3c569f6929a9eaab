/* ttv-analysis-print.c: analysis results as text, JSON lines or CSV (see
 * ttv-analysis-print.h).  Everything goes through sheets (named columns,
 * rows of cells with a text and a JSON form), printed in the chosen
 * format: times and durations are seconds with nanoseconds in text and
 * CSV, integers of nanoseconds in JSON. */
#include "ttv-analysis-print.h"
#include "ttv-analysis-private.h"
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-analysis-output.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

typedef struct {
  char *text;
  char *json;                   /* a JSON value: a number, a quoted string, null */
} Cell;

typedef struct {
  const char *key;              /* JSON key, CSV heading */
  const char *title;            /* translated text heading */
  gboolean right;               /* numbers: aligned right in text */
} SheetColumn;

typedef struct {
  const char *analysis;
  const char *name;             /* "calls", "calls/stats" */
  GArray *columns;              /* of SheetColumn */
  GPtrArray *rows;              /* of Cell arrays (GArray) */
} Sheet;

static void
cell_clear (Cell *c)
{
  g_free (c->text);
  g_free (c->json);
}

static Sheet *
sheet_new (const char *analysis, const char *name)
{
  Sheet *s = g_new0 (Sheet, 1);
  s->analysis = analysis;
  s->name = name;
  s->columns = g_array_new (FALSE, FALSE, sizeof (SheetColumn));
  s->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  return s;
}

static void
sheet_free (Sheet *s)
{
  g_array_unref (s->columns);
  g_ptr_array_unref (s->rows);
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Sheet, sheet_free)

static void
sheet_column (Sheet *s, const char *key, const char *title, gboolean right)
{
  SheetColumn c = { key, title, right };
  g_array_append_val (s->columns, c);
}

static GArray *
sheet_row (Sheet *s)
{
  GArray *row = g_array_new (FALSE, TRUE, sizeof (Cell));
  g_array_set_clear_func (row, (GDestroyNotify) cell_clear);
  g_ptr_array_add (s->rows, row);
  return row;
}

static char *
json_string (const char *text)
{
  GString *out = g_string_new (NULL);
  ttv_json_append_string (out, text, -1);
  return g_string_free (out, FALSE);
}

static void
add_text (GArray *row, const char *text)
{
  Cell c = { g_strdup (text ? text : ""), text && *text ? json_string (text) : g_strdup ("null") };
  g_array_append_val (row, c);
}

static void
add_int (GArray *row, gint64 v)
{
  Cell c = { g_strdup_printf ("%" G_GINT64_FORMAT, v), g_strdup_printf ("%" G_GINT64_FORMAT, v) };
  g_array_append_val (row, c);
}

/* A time or duration: seconds in text, nanoseconds in JSON. */
static void
add_ns (GArray *row, gint64 v)
{
  char buf[48];
  Cell c = { g_strdup (ttv_time_to_string (v, buf, sizeof buf)), g_strdup_printf ("%" G_GINT64_FORMAT, v) };
  g_array_append_val (row, c);
}

static void
add_ns_double (GArray *row, double v)
{
  char buf[48];
  gint64 r = (gint64) llround (v);
  Cell c = { g_strdup (ttv_time_to_string (r, buf, sizeof buf)), g_strdup_printf ("%.3f", v) };
  g_array_append_val (row, c);
}

/* A hexadecimal number ("0x1f"), a string in JSON. */
static void
add_hex (GArray *row, gint64 v)
{
  g_autofree char *text = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", (guint64) v);
  add_text (row, text);
}

/* A priority, empty (null) where the record has none. */
static void
add_prio (GArray *row, gint64 v)
{
  if (v == TTV_ANALYSIS_NO_PRIO)
    add_text (row, NULL);
  else
    add_int (row, v);
}

/* A thread or other 32-bit id, empty (null) for none (G_MAXUINT32). */
static void
add_id (GArray *row, gint64 v)
{
  if ((guint32) v == G_MAXUINT32)
    add_text (row, NULL);
  else
    add_int (row, (guint32) v);
}

/* A real number with @text_digits decimals in text, @json_digits in JSON. */
static void
add_real (GArray *row, double v, int text_digits, int json_digits)
{
  Cell c = { g_strdup_printf ("%.*f", text_digits, v), g_strdup_printf ("%.*f", json_digits, v) };
  g_array_append_val (row, c);
}

static void
add_percent (GArray *row, double v)
{
  add_real (row, v, 2, 4);
}

/* ---- printing sheets ---- */


static void
sheet_print (const Sheet *s, TtvAnalysisFormat format, GString *out)
{
  guint n = s->columns->len;
  if (format == TTV_ANALYSIS_FORMAT_JSONL)
    {
      for (guint r = 0; r < s->rows->len; r++)
        {
          GArray *row = g_ptr_array_index (s->rows, r);
          g_string_append_printf (out, "{\"analysis\":\"%s\",\"table\":\"%s\"", s->analysis, s->name);
          for (guint c = 0; c < n && c < row->len; c++)
            g_string_append_printf (out, ",\"%s\":%s", g_array_index (s->columns, SheetColumn, c).key,
                                    g_array_index (row, Cell, c).json);
          g_string_append (out, "}\n");
        }
      return;
    }
  if (format == TTV_ANALYSIS_FORMAT_CSV)
    {
      for (guint c = 0; c < n; c++)
        {
          if (c)
            g_string_append_c (out, ',');
          ttv_csv_append_field (out, g_array_index (s->columns, SheetColumn, c).key);
        }
      g_string_append_c (out, '\n');
      for (guint r = 0; r < s->rows->len; r++)
        {
          GArray *row = g_ptr_array_index (s->rows, r);
          for (guint c = 0; c < n && c < row->len; c++)
            {
              if (c)
                g_string_append_c (out, ',');
              ttv_csv_append_field (out, g_array_index (row, Cell, c).text);
            }
          g_string_append_c (out, '\n');
        }
      return;
    }
  /* Text: columns as wide as their widest cell (in characters). */
  g_autofree guint *width = g_new0 (guint, MAX (n, 1));
  for (guint c = 0; c < n; c++)
    width[c] = (guint) g_utf8_strlen (_(g_array_index (s->columns, SheetColumn, c).title), -1);
  for (guint r = 0; r < s->rows->len; r++)
    {
      GArray *row = g_ptr_array_index (s->rows, r);
      for (guint c = 0; c < n && c < row->len; c++)
        width[c] = MAX (width[c], (guint) g_utf8_strlen (g_array_index (row, Cell, c).text, -1));
    }
  for (guint r = 0; r <= s->rows->len; r++)
    {
      GArray *row = r ? g_ptr_array_index (s->rows, r - 1) : NULL;
      GString *line = g_string_new (NULL);
      for (guint c = 0; c < n; c++)
        {
          const SheetColumn *col = &g_array_index (s->columns, SheetColumn, c);
          const char *text = row ? (c < row->len ? g_array_index (row, Cell, c).text : "") : _(col->title);
          guint pad = width[c] - MIN (width[c], (guint) g_utf8_strlen (text, -1));
          if (c)
            g_string_append (line, "  ");
          if (col->right)
            for (guint i = 0; i < pad; i++)
              g_string_append_c (line, ' ');
          g_string_append (line, text);
          if (!col->right && c + 1 < n)
            for (guint i = 0; i < pad; i++)
              g_string_append_c (line, ' ');
        }
      g_string_append (out, line->str);
      g_string_append_c (out, '\n');
      g_string_free (line, TRUE);
    }
}

/* What a report prints, resolved from the options. */
typedef struct {
  TtvAnalysisFormat format;
  TtvTime start, end;           /* TTV_TIME_MIN, TTV_TIME_MAX: the whole trace */
  gboolean records;
  const char *table;
  const char *group_by;
  guint64 top;
  guint bins;
  guint32 tid;                  /* G_MAXUINT32: every thread */
  const char *machine;          /* with @tid: its machine's name, NULL: any */
  TtvTraceset *traceset;
} Print;

static void
print_heading (GString *out, const Print *o, const char *title, const char *table,
               guint64 count)
{
  if (o->format != TTV_ANALYSIS_FORMAT_TEXT)
    return;
  if (out->len)
    g_string_append_c (out, '\n');
  g_string_append_printf (out, "%s: %s (%" G_GUINT64_FORMAT ")\n", title, table, count);
}

/* The window clipped to the result's span (for rates and shares). */
static void
window (const TtvAnalysis *r, const Print *o, TtvTime *t0, TtvTime *t1)
{
  TtvTime s, e;
  ttv_analysis_get_time_range (r, &s, &e);
  *t0 = MAX (o->start, s);
  *t1 = MIN (o->end, e);
  if (*t1 < *t0)
    *t1 = *t0;
}

/* ---- values of records ---- */

static void
add_value (GArray *row, const TtvAnalysis *r, const TtvAnalysisColumn *col, const void *record)
{
  gint64 v = ttv_analysis_column_get (col, record);
  switch (col->type)
    {
    case TTV_COLUMN_TIME:
    case TTV_COLUMN_DURATION:
      add_ns (row, v);
      break;
    case TTV_COLUMN_INT:
      add_prio (row, v);
      break;
    case TTV_COLUMN_HEX:
      add_hex (row, v);
      break;
    case TTV_COLUMN_TID:
      add_id (row, v);
      break;
    case TTV_COLUMN_CPU:
      if (v < 0)
        add_text (row, NULL);
      else
        add_int (row, v);
      break;
    case TTV_COLUMN_UINT:
      add_int (row, (guint32) v);
      break;
    default:
      {
        g_autofree char *t = ttv_analysis_format_value (r, col, record, TTV_TIME_MIN);
        add_text (row, t);
      }
      break;
    }
}

static gboolean
is_right (TtvColumnType type)
{
  return type != TTV_COLUMN_STRING && type != TTV_COLUMN_ENUM && type != TTV_COLUMN_HEX;
}

/* ---- system calls' arguments, read along the records ---- */

typedef struct {
  TtvTraceset *ts;
  TtvContext *ctx;             /* owned */
  TtvKernelModel *model;       /* owned */
  TtvDecoder *decoder;         /* owned */
  TtvTime at;                  /* time of the next event of @ctx, TTV_TIME_MIN: not positioned */
  GHashTable *pending;         /* "time/cpu" -> arguments read ahead, owned */
} ArgsReader;

static void
args_reader_clear (ArgsReader *a)
{
  if (a->ctx)
    ttv_context_free (a->ctx);
  if (a->model)
    ttv_kernel_model_free (a->model);
  if (a->decoder)
    ttv_decoder_free (a->decoder);
  if (a->pending)
    g_hash_table_unref (a->pending);
}

/* The arguments of @call, for records in start order: one read forward
 * through the trace, with a seek when the next call is far ahead. */
static char *
args_reader_get (ArgsReader *a, const TtvSyscallRecord *call)
{
  if (a->ctx == NULL)
    {
      g_autoptr (GPtrArray) traces = g_ptr_array_new ();
      for (guint i = 0; i < ttv_traceset_get_n_traces (a->ts); i++)
        g_ptr_array_add (traces, ttv_traceset_get_trace (a->ts, i));
      a->ctx = ttv_context_new (a->ts, NULL);
      a->model = ttv_kernel_model_new (traces);
      a->decoder = ttv_decoder_new ();
      a->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      a->at = TTV_TIME_MIN;
      if (a->ctx == NULL)
        return NULL;
    }
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%d", call->start, call->cpu);
  char *found = NULL;
  g_autofree char *found_key = NULL;   /* stolen with its value: ours to free */
  if (g_hash_table_steal_extended (a->pending, key, (gpointer *) &found_key, (gpointer *) &found))
    return found;
  if (a->at == TTV_TIME_MIN || call->start < a->at || call->start - a->at > 10 * G_GINT64_CONSTANT (1000000))
    {
      g_hash_table_remove_all (a->pending);
      if (!ttv_context_seek_time (a->ctx, call->start, NULL))
        return NULL;
    }
  const TtvEvent *ev;
  while ((ev = ttv_context_next (a->ctx, NULL)) != NULL)
    {
      a->at = ev->time;
      if (ev->time > call->start)
        break;
      guint trace = ttv_traceset_get_stream_trace (a->ts, ttv_context_get_stream (a->ctx));
      if (ev->time < call->start || ttv_kernel_model_get_action (a->model, trace, ev->type) != TTV_KM_SYSCALL_ENTRY)
        continue;
      ttv_decoder_reset (a->decoder);
      gint32 root = ttv_event_decode_fields (ev, a->decoder, NULL);
      GString *text = g_string_new (NULL);
      if (root >= 0)
        ttv_decoder_append_value (a->decoder, (guint32) root, TTV_VALUE_STYLE_PLAIN, text);
      if (ev->tracefile->cpu == call->cpu)
        return g_string_free (text, FALSE);
      /* Another CPU's call of the same instant: for a later record. */
      g_hash_table_replace (a->pending, g_strdup_printf ("%" G_GINT64_FORMAT "/%d", ev->time, ev->tracefile->cpu),
                            g_string_free (text, FALSE));
    }
  return NULL;
}

/* ---- records ---- */

static gboolean
print_records (const TtvAnalysis *r, const TtvAnalysisTable *t, const Print *o,
               GString *out, GError **error)
{
  const TtvAnalysisTableSpec *spec = ttv_analysis_table_get_spec (t);
  const TtvAnalysisClass *cls = ttv_analysis_get_class (r);
  g_autoptr (GArray) records = ttv_analysis_table_query (t, TTV_QUERY_START_IN, o->start, o->end, error);
  if (records == NULL)
    return FALSE;
  const TtvAnalysisColumn *tid_col = ttv_analysis_table_find_column (t, "tid");
  const TtvAnalysisColumn *machine_col = ttv_analysis_table_find_column (t, TTV_ANALYSIS_MACHINE_COLUMN);
  if (machine_col && !ttv_analysis_column_is_shown (r, machine_col))
    machine_col = NULL;
  if (o->tid != G_MAXUINT32 && tid_col)
    {
      guint kept = 0;
      for (guint i = 0; i < records->len; i++)
        {
          const guint8 *rec = (const guint8 *) records->data + i * spec->record_size;
          if ((guint32) ttv_analysis_column_get (tid_col, rec) == o->tid
              && (o->machine == NULL || machine_col == NULL
                  || g_str_equal (ttv_analysis_get_string (r, (guint32) ttv_analysis_column_get (machine_col, rec)),
                                  o->machine)))
            memmove (records->data + kept++ * spec->record_size, rec, spec->record_size);
        }
      g_array_set_size (records, kept);
    }
  if (o->top)
    {
      g_array_sort (records, ttv_analysis_record_compare_longest);
      if (records->len > o->top)
        g_array_set_size (records, (guint) o->top);
    }
  gboolean args = o->traceset && cls == &ttv_syscall_analysis;
  g_autoptr (Sheet) s = sheet_new (cls->name, spec->name);
  for (guint c = 0; c < spec->n_columns; c++)
    if (ttv_analysis_column_is_shown (r, &spec->columns[c]))
      sheet_column (s, spec->columns[c].name, spec->columns[c].title, is_right (spec->columns[c].type));
  if (args)
    sheet_column (s, "args", N_("Arguments"), FALSE);
  ArgsReader reader = { o->traceset, NULL, NULL, NULL, TTV_TIME_MIN, NULL };
  for (guint i = 0; i < records->len; i++)
    {
      const guint8 *rec = (const guint8 *) records->data + i * spec->record_size;
      GArray *row = sheet_row (s);
      for (guint c = 0; c < spec->n_columns; c++)
        if (ttv_analysis_column_is_shown (r, &spec->columns[c]))
          add_value (row, r, &spec->columns[c], rec);
      if (args)
        {
          g_autofree char *text = args_reader_get (&reader, (const TtvSyscallRecord *) rec);
          add_text (row, text);
        }
    }
  args_reader_clear (&reader);
  print_heading (out, o, _(cls->title), spec->name, records->len);
  sheet_print (s, o->format, out);
  return TRUE;
}

/* ---- statistics ---- */

/* The statistics of @t grouped by @column (NULL: the table's own), over
 * the window: from the stored ones for the whole trace. */
typedef struct {
  const TtvAnalysisColumn *column;   /* the machine column, NULL: every record */
  gint64 value;                      /* the machine's name (a string index) */
} MachineOnly;

static GArray *
summarize_by (const TtvAnalysisTable *t, const TtvAnalysisColumn *column, const MachineOnly *only, TtvTime t0,
              TtvTime t1, TtvDurationSummary *all, GError **error)
{
  const TtvAnalysisTableSpec *spec = ttv_analysis_table_get_spec (t);
  if (column == NULL || (column->offset == spec->group_offset && column->offset >= 0))
    return ttv_analysis_table_summarize_where (t, only->column, only->value, t0, t1, all, error);
  /* Another grouping: the records of the window, per value. */
  g_autoptr (GArray) records = ttv_analysis_table_query (t, TTV_QUERY_START_IN, t0, t1, error);
  if (records == NULL)
    return NULL;
  g_autoptr (GHashTable) groups = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                         (GDestroyNotify) g_array_unref);
  g_autoptr (GArray) every = g_array_new (FALSE, FALSE, sizeof (TtvTime));
  for (guint i = 0; i < records->len; i++)
    {
      const guint8 *rec = (const guint8 *) records->data + i * spec->record_size;
      if (only->column && ttv_analysis_column_get (only->column, rec) != only->value)
        continue;
      gint64 key = column ? ttv_analysis_column_get (column, rec) : -1;
      TtvTime d = ttv_analysis_record_duration (rec);
      GArray *g = g_hash_table_lookup (groups, &key);
      if (g == NULL)
        {
          g = g_array_new (FALSE, FALSE, sizeof (TtvTime));
          g_hash_table_insert (groups, g_memdup2 (&key, sizeof key), g);
        }
      g_array_append_val (g, d);
      g_array_append_val (every, d);
    }
  ttv_duration_summary_compute (all, -1, (TtvTime *) every->data, every->len);
  GArray *out = g_array_new (FALSE, TRUE, sizeof (TtvDurationSummary));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, groups);
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      TtvDurationSummary d;
      GArray *g = v;
      ttv_duration_summary_compute (&d, *(gint64 *) k, (TtvTime *) g->data, g->len);
      g_array_append_val (out, d);
    }
  return out;
}

static gint
compare_summary_total (gconstpointer a, gconstpointer b)
{
  const TtvDurationSummary *x = a, *y = b;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->key < y->key ? -1 : x->key > y->key;
}

static void
add_group (GArray *row, const TtvAnalysis *r, const TtvAnalysisTable *t, const TtvAnalysisColumn *col,
           gint64 key)
{
  if (col == NULL)
    {
      add_text (row, NULL);
      return;
    }
  switch (col->type)
    {
    case TTV_COLUMN_STRING:
      add_text (row, ttv_analysis_get_string (r, (guint32) key));
      break;
    case TTV_COLUMN_HEX:
      add_hex (row, key);
      break;
    case TTV_COLUMN_ENUM:
      {
        guint n = 0;
        while (col->labels && col->labels[n])
          n++;
        if ((guint64) key < n)
          add_text (row, col->labels[key]);
        else
          add_int (row, key);
      }
      break;
    case TTV_COLUMN_INT:
      add_prio (row, key);
      break;
    case TTV_COLUMN_TID:
    case TTV_COLUMN_UINT:
      add_id (row, key);
      break;
    default:
      add_int (row, key);
      break;
    }
}

static gboolean
print_stats (const TtvAnalysis *r, const TtvAnalysisTable *t, const Print *o,
             GString *out, GError **error)
{
  const TtvAnalysisTableSpec *spec = ttv_analysis_table_get_spec (t);
  const TtvAnalysisClass *cls = ttv_analysis_get_class (r);
  const TtvAnalysisColumn *col = NULL;
  if (o->group_by)
    {
      col = ttv_analysis_table_find_column (t, o->group_by);
      if (col == NULL)
        {
          g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                       _("--group-by: table %s has no column %s"), spec->name, o->group_by);
          return FALSE;
        }
    }
  else
    for (guint c = 0; c < spec->n_columns && spec->group_offset >= 0; c++)
      if (spec->columns[c].offset == spec->group_offset)
        col = &spec->columns[c];
  TtvTime t0, t1;
  window (r, o, &t0, &t1);
  double seconds = (double) ttv_time_span_ns (t0, t1) / 1e9;
  /* Numbered groups (IRQ lines, vectors) with their names. */
  gboolean named = col && col->type == TTV_COLUMN_UINT && ttv_analysis_table_find_column (t, "name");
  /* With several machines, each machine's groups and its own all. */
  const TtvAnalysisColumn *machine_col = ttv_analysis_table_find_column (t, TTV_ANALYSIS_MACHINE_COLUMN);
  if (machine_col && !ttv_analysis_column_is_shown (r, machine_col))
    machine_col = NULL;
  g_autofree char *stats_name = g_strdup_printf ("%s/stats", spec->name);
  g_autoptr (Sheet) s = sheet_new (cls->name, stats_name);
  if (machine_col)
    sheet_column (s, machine_col->name, machine_col->title, FALSE);
  sheet_column (s, col ? col->name : "group", col ? col->title : N_("Group"), col && is_right (col->type)
                && col->type != TTV_COLUMN_INT);
  if (named)
    sheet_column (s, "name", N_("Name"), FALSE);
  sheet_column (s, "count", N_("Count"), TRUE);
  sheet_column (s, "rate", N_("Per second"), TRUE);
  sheet_column (s, "total", N_("Total"), TRUE);
  sheet_column (s, "min", N_("Min"), TRUE);
  sheet_column (s, "mean", N_("Mean"), TRUE);
  sheet_column (s, "max", N_("Max"), TRUE);
  sheet_column (s, "stddev", N_("Std dev"), TRUE);
  sheet_column (s, "p50", N_("P50"), TRUE);
  sheet_column (s, "p90", N_("P90"), TRUE);
  sheet_column (s, "p99", N_("P99"), TRUE);
  guint64 count = 0;
  guint n_machines = machine_col ? ttv_analysis_get_n_machines (r) : 1;
  for (guint m = 0; m < n_machines; m++)
    {
      MachineOnly only = { NULL, 0 };
      if (machine_col)
        {
          only.column = machine_col;
          if (!ttv_analysis_get_machine_string (r, m, &only.value))
            continue;
        }
      TtvDurationSummary all;
      g_autoptr (GArray) groups = summarize_by (t, col, &only, o->start, o->end, &all, error);
      if (groups == NULL)
        return FALSE;
      g_array_sort (groups, compare_summary_total);
      count += all.count;
      for (guint i = 0; i <= groups->len; i++)
        {
          const TtvDurationSummary *d = i < groups->len ? &g_array_index (groups, TtvDurationSummary, i) : &all;
          if (d->count == 0)
            continue;
          GArray *row = sheet_row (s);
          if (machine_col)
            add_text (row, ttv_analysis_get_machine_name (r, m));
          if (i < groups->len)
            add_group (row, r, t, col, d->key);
          else
            add_text (row, _("all"));
          if (named)
            add_text (row, i < groups->len ? ttv_analysis_get_machine_group_name (r, t, m, d->key) : NULL);
          add_int (row, (gint64) d->count);
          add_real (row, seconds > 0 ? d->count / seconds : 0.0, 2, 6);
          add_ns (row, d->total);
          add_ns (row, d->min);
          add_ns_double (row, d->mean);
          add_ns (row, d->max);
          add_ns_double (row, d->stddev);
          add_ns (row, d->p50);
          add_ns (row, d->p90);
          add_ns (row, d->p99);
        }
    }
  print_heading (out, o, _(cls->title), stats_name, count);
  sheet_print (s, o->format, out);
  return TRUE;
}

/* ---- CPU usage ---- */

/* With several machines, the CPU rows of each machine end with its own
 * "all" row, and the bins with its own "all" column; with one, the
 * tables are as before machines existed. */
typedef struct {
  const TtvAnalysis *r;
  guint n_machines;
  GArray *cpus;              /* CPU keys, sorted: grouped by machine */
  TtvTime *machine_busy;     /* per machine, owned */
  guint *machine_cpus;       /* per machine: how many CPUs, owned */
} CpuSheet;

static void
add_machine (GArray *row, const CpuSheet *c, guint machine)
{
  if (c->n_machines > 1)
    add_text (row, ttv_analysis_get_machine_name (c->r, machine));
}

static void
add_cpu_row (Sheet *s, const CpuSheet *c, guint machine, gint cpu, TtvTime busy, double span, guint n_cpus)
{
  GArray *row = sheet_row (s);
  add_machine (row, c, machine);
  if (cpu >= 0)
    add_int (row, cpu);
  else
    add_text (row, _("all"));
  add_ns (row, busy);
  add_percent (row, 100.0 * busy / span / MAX (n_cpus, 1));
}

static gboolean
print_cpu_busy (CpuSheet *c, const Print *o, TtvTime t0, TtvTime t1, GString *out, GError **error)
{
  double span = (double) MAX (ttv_time_span_ns (t0, t1), 1);
  g_autoptr (Sheet) cs = sheet_new ("cpu", "cpus");
  if (c->n_machines > 1)
    sheet_column (cs, "machine", N_("Machine"), FALSE);
  sheet_column (cs, "cpu", N_("CPU"), TRUE);
  sheet_column (cs, "busy", N_("Busy"), TRUE);
  sheet_column (cs, "percent", N_("Share"), TRUE);
  for (guint i = 0; i < c->cpus->len; i++)
    {
      guint32 key = g_array_index (c->cpus, guint32, i);
      guint m = c->n_machines > 1 ? MIN (ttv_cpu_key_machine (key), c->n_machines - 1) : 0;
      TtvTime busy;
      if (!ttv_cpu_usage_get_busy (c->r, (gint) key, t0, t1, &busy, error))
        return FALSE;
      add_cpu_row (cs, c, m, c->n_machines > 1 ? ttv_cpu_key_cpu (key) : (gint) key, busy, span, 1);
      /* a damaged cache can hold anything */
      c->machine_busy[m] = ttv_time_add_saturating (c->machine_busy[m], busy);
      c->machine_cpus[m]++;
      guint32 next = i + 1 < c->cpus->len ? g_array_index (c->cpus, guint32, i + 1) : 0;
      if (c->n_machines > 1 && (i + 1 == c->cpus->len || ttv_cpu_key_machine (next) != ttv_cpu_key_machine (key)))
        add_cpu_row (cs, c, m, -1, c->machine_busy[m], span, c->machine_cpus[m]);
    }
  if (c->n_machines == 1)
    {
      TtvTime busy;
      if (!ttv_cpu_usage_get_busy (c->r, -1, t0, t1, &busy, error))
        return FALSE;
      add_cpu_row (cs, c, 0, -1, busy, span, c->cpus->len);
    }
  print_heading (out, o, _("CPU usage"), "cpus", c->cpus->len);
  sheet_print (cs, o->format, out);
  return TRUE;
}

static gboolean
print_cpu_threads (const CpuSheet *c, const Print *o, TtvTime t0, TtvTime t1, GString *out, GError **error)
{
  g_autoptr (GArray) threads = ttv_cpu_usage_top_threads (c->r, t0, t1, error);
  if (threads == NULL)
    return FALSE;
  g_autoptr (Sheet) ts = sheet_new ("cpu", "threads");
  if (c->n_machines > 1)
    sheet_column (ts, "machine", N_("Machine"), FALSE);
  sheet_column (ts, "tid", N_("TID"), TRUE);
  sheet_column (ts, "tgid", N_("PID"), TRUE);
  sheet_column (ts, "name", N_("Name"), FALSE);
  sheet_column (ts, "cpu_time", N_("CPU time"), TRUE);
  sheet_column (ts, "percent", N_("Share of busy"), TRUE);
  guint shown = o->top ? (guint) MIN (o->top, threads->len) : threads->len;
  for (guint i = 0; i < shown; i++)
    {
      const TtvThreadUsage *u = &g_array_index (threads, TtvThreadUsage, i);
      /* A thread's share of its own machine's busy time. */
      guint m = MIN (u->machine, c->n_machines - 1);
      TtvTime total = c->machine_busy[m];
      GArray *row = sheet_row (ts);
      add_machine (row, c, m);
      add_int (row, u->tid);
      add_int (row, u->tgid);
      add_text (row, u->name);
      add_ns (row, u->cpu_time);
      add_percent (row, total > 0 ? 100.0 * u->cpu_time / total : 0.0);
    }
  print_heading (out, o, _("CPU usage"), "threads", threads->len);
  sheet_print (ts, o->format, out);
  return TRUE;
}

/* A bins column: a CPU key's, or (@cpu -1) a machine's "all" (or the
 * whole traceset's with one machine). */
typedef struct {
  guint machine;
  gint cpu;
  gint key;
} BinsColumn;

static gboolean
print_cpu_bins (const CpuSheet *c, const Print *o, TtvTime t0, TtvTime t1, GString *out, GError **error)
{
  guint n = o->bins;
  g_autofree TtvTime *edges = g_new (TtvTime, n + 1);
  for (guint i = 0; i <= n; i++)
    edges[i] = t0 + (TtvTime) ((double) ttv_time_span_ns (t0, t1) * i / n);
  g_autoptr (Sheet) bs = sheet_new ("cpu", "bins");
  sheet_column (bs, "start", N_("Start"), TRUE);
  sheet_column (bs, "end", N_("End"), TRUE);
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GArray) columns = g_array_new (FALSE, FALSE, sizeof (BinsColumn));
  for (guint i = 0; i < c->cpus->len; i++)
    {
      guint32 key = g_array_index (c->cpus, guint32, i);
      guint m = c->n_machines > 1 ? MIN (ttv_cpu_key_machine (key), c->n_machines - 1) : 0;
      const char *machine = ttv_analysis_get_machine_name (c->r, m);
      BinsColumn col = { m, c->n_machines > 1 ? ttv_cpu_key_cpu (key) : (gint) key, (gint) key };
      g_array_append_val (columns, col);
      char *name = c->n_machines > 1 ? g_strdup_printf ("%s/cpu%d", machine, col.cpu)
                                     : g_strdup_printf ("cpu%u", key);
      g_ptr_array_add (keys, name);
      sheet_column (bs, name, name, TRUE);
      guint32 next = i + 1 < c->cpus->len ? g_array_index (c->cpus, guint32, i + 1) : 0;
      if (c->n_machines > 1 && (i + 1 == c->cpus->len || ttv_cpu_key_machine (next) != ttv_cpu_key_machine (key)))
        {
          BinsColumn all = { m, -1, -1 };
          g_array_append_val (columns, all);
          char *all_name = g_strdup_printf ("%s/all", machine);
          g_ptr_array_add (keys, all_name);
          sheet_column (bs, all_name, all_name, TRUE);
        }
    }
  if (c->n_machines == 1)
    {
      BinsColumn all = { 0, -1, -1 };
      g_array_append_val (columns, all);
      sheet_column (bs, "all", N_("all"), TRUE);
    }
  g_autofree TtvTime *busy = g_new0 (TtvTime, MAX (columns->len, 1) * n);
  for (guint k = 0; k < columns->len; k++)
    {
      const BinsColumn *col = &g_array_index (columns, BinsColumn, k);
      if (col->cpu >= 0 || c->n_machines == 1)
        {
          if (!ttv_cpu_usage_get_busy_bins (c->r, col->key, edges, n + 1, busy + k * n, error))
            return FALSE;
          continue;
        }
      /* A machine's all: the sum of its CPUs' columns, just before. */
      for (guint j = 0; j < k; j++)
        if (g_array_index (columns, BinsColumn, j).machine == col->machine)
          for (guint i = 0; i < n; i++)
            busy[k * n + i] = ttv_time_add_saturating (busy[k * n + i], busy[j * n + i]);
    }
  for (guint i = 0; i < n; i++)
    {
      GArray *row = sheet_row (bs);
      add_ns (row, edges[i]);
      add_ns (row, edges[i + 1]);
      double len = (double) MAX (edges[i + 1] - edges[i], 1);
      for (guint k = 0; k < columns->len; k++)
        {
          const BinsColumn *col = &g_array_index (columns, BinsColumn, k);
          guint n_cpus = col->cpu >= 0 ? 1 : c->n_machines == 1 ? c->cpus->len : c->machine_cpus[col->machine];
          add_percent (row, 100.0 * busy[k * n + i] / len / MAX (n_cpus, 1));
        }
    }
  print_heading (out, o, _("CPU usage"), "bins", n);
  sheet_print (bs, o->format, out);
  return TRUE;
}

static gboolean
print_cpu (const TtvAnalysis *r, const Print *o, GString *out, GError **error)
{
  TtvTime t0, t1;
  window (r, o, &t0, &t1);
  CpuSheet c = { r, ttv_analysis_get_n_machines (r), ttv_cpu_usage_list_cpus (r), NULL, NULL };
  c.machine_busy = g_new0 (TtvTime, c.n_machines);
  c.machine_cpus = g_new0 (guint, c.n_machines);
  gboolean ok = print_cpu_busy (&c, o, t0, t1, out, error) && print_cpu_threads (&c, o, t0, t1, out, error)
                && (o->bins == 0 || print_cpu_bins (&c, o, t0, t1, out, error));
  g_array_unref (c.cpus);
  g_free (c.machine_busy);
  g_free (c.machine_cpus);
  return ok;
}

/* ---- block I/O throughput ---- */

static gboolean
print_block_usage (const TtvAnalysis *r, const Print *o, gboolean by_process,
                   GString *out, GError **error)
{
  TtvTime t0, t1;
  window (r, o, &t0, &t1);
  g_autoptr (GArray) usage = ttv_block_usage (r, by_process, t0, t1, error);
  if (usage == NULL)
    return FALSE;
  const char *name = by_process ? "processes" : "devices";
  gboolean machines = ttv_analysis_get_n_machines (r) > 1;
  g_autoptr (Sheet) s = sheet_new ("block", name);
  if (machines)
    sheet_column (s, "machine", N_("Machine"), FALSE);
  sheet_column (s, by_process ? "tgid" : "device", by_process ? N_("PID") : N_("Device"), by_process);
  if (by_process)
    sheet_column (s, "name", N_("Name"), FALSE);
  sheet_column (s, "requests", N_("Requests"), TRUE);
  sheet_column (s, "read_bytes", N_("Read bytes"), TRUE);
  sheet_column (s, "write_bytes", N_("Written bytes"), TRUE);
  sheet_column (s, "read_bps", N_("Read B/s"), TRUE);
  sheet_column (s, "write_bps", N_("Written B/s"), TRUE);
  sheet_column (s, "busy", N_("Request time"), TRUE);
  for (guint i = 0; i < usage->len; i++)
    {
      const TtvBlockUsage *u = &g_array_index (usage, TtvBlockUsage, i);
      GArray *row = sheet_row (s);
      if (machines)
        add_text (row, ttv_analysis_get_machine_name (r, u->machine));
      if (by_process)
        add_id (row, u->key);
      add_text (row, u->name);
      add_int (row, (gint64) u->requests);
      add_int (row, (gint64) u->read_bytes);
      add_int (row, (gint64) u->write_bytes);
      add_real (row, u->read_rate, 0, 3);
      add_real (row, u->write_rate, 0, 3);
      add_ns (row, u->busy);
    }
  print_heading (out, o, _("Block I/O"), name, usage->len);
  sheet_print (s, o->format, out);
  return TRUE;
}

gboolean
ttv_analysis_print (const TtvAnalysis *r, TtvAnalysisFormat format, const TtvAnalysisOptions *options, GString *out,
                    GError **error)
{
  gboolean whole = options->start == 0 && options->end == 0;
  Print print = { format, whole ? TTV_TIME_MIN : options->start, whole ? TTV_TIME_MAX : options->end,
                  options->records, options->table, options->group_by, options->top, options->bins,
                  options->one_thread ? options->tid : G_MAXUINT32, options->one_thread ? options->machine : NULL,
                  options->traceset };
  const Print *o = &print;
  const TtvAnalysisClass *cls = ttv_analysis_get_class (r);
  if (o->table && ttv_analysis_find_table (r, o->table) == NULL)
    {
      GString *names = g_string_new (NULL);
      for (guint i = 0; i < cls->n_tables; i++)
        g_string_append_printf (names, "%s%s", i ? ", " : "", cls->tables[i]->name);
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("--table: the %s analysis has no table %s (it has %s)"), cls->name, o->table, names->str);
      g_string_free (names, TRUE);
      return FALSE;
    }
  if (!o->records && !o->table && cls == &ttv_cpu_usage_analysis)
    return print_cpu (r, o, out, error);
  if (!o->records && !o->table && cls == &ttv_block_analysis
      && (!print_block_usage (r, o, FALSE, out, error) || !print_block_usage (r, o, TRUE, out, error)))
    return FALSE;
  for (guint i = 0; i < ttv_analysis_get_n_tables (r); i++)
    {
      const TtvAnalysisTable *t = ttv_analysis_get_table (r, i);
      const TtvAnalysisTableSpec *spec = ttv_analysis_table_get_spec (t);
      if (o->table && !g_str_equal (o->table, spec->name))
        continue;
      gboolean stats = !o->records && (spec->summaries || spec->group_offset >= 0);
      if (!(stats ? print_stats (r, t, o, out, error) : print_records (r, t, o, out, error)))
        return FALSE;
    }
  return TRUE;
}

/* ---- the critical path ---- */

typedef struct {
  TtvPathKind kind;
  guint32 tid;              /* thread, or waiting thread of a device */
  guint32 irq;
  gboolean softirq;
  const char *name;
  TtvTime total;
} Share;

static gint
compare_share (gconstpointer a, gconstpointer b)
{
  const Share *x = a, *y = b;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  return (gint) x->kind - (gint) y->kind;
}

void
ttv_critical_path_print (GArray *segments, guint32 tid, TtvAnalysisFormat format, GString *out)
{
  Print print = { format, TTV_TIME_MIN, TTV_TIME_MAX, FALSE, NULL, NULL, 0, 0, G_MAXUINT32, NULL, NULL };
  const Print *o = &print;
  g_autoptr (Sheet) s = sheet_new ("critical-path", "segments");
  sheet_column (s, "start", N_("Start"), TRUE);
  sheet_column (s, "end", N_("End"), TRUE);
  sheet_column (s, "duration", N_("Duration"), TRUE);
  sheet_column (s, "kind", N_("State"), FALSE);
  sheet_column (s, "tid", N_("TID"), TRUE);
  sheet_column (s, "name", N_("Name"), FALSE);
  sheet_column (s, "irq", N_("IRQ"), TRUE);
  sheet_column (s, "in_call", N_("In call"), FALSE);
  g_autoptr (GArray) shares = g_array_new (FALSE, TRUE, sizeof (Share));
  for (guint i = 0; i < segments->len; i++)
    {
      const TtvPathSegment *seg = &g_array_index (segments, TtvPathSegment, i);
      GArray *row = sheet_row (s);
      add_ns (row, seg->start);
      add_ns (row, seg->end);
      add_ns (row, ttv_time_span_saturating (seg->start, seg->end));
      add_text (row, ttv_path_kind_name (seg->kind));
      add_int (row, seg->tid);
      add_text (row, seg->name);
      if (seg->kind == TTV_PATH_DEVICE)
        add_int (row, seg->irq);
      else
        add_text (row, NULL);
      add_text (row, seg->syscall);
      /* Time per participant: a thread in each state, or a device. */
      gboolean device = seg->kind == TTV_PATH_DEVICE;
      Share *found = NULL;
      for (guint k = 0; k < shares->len && !found; k++)
        {
          Share *sh = &g_array_index (shares, Share, k);
          if (sh->kind == seg->kind && (device ? sh->irq == seg->irq && sh->softirq == seg->softirq : sh->tid == seg->tid))
            found = sh;
        }
      if (found == NULL)
        {
          Share sh = { seg->kind, device ? 0 : seg->tid, seg->irq, seg->softirq, seg->name, 0 };
          g_array_append_val (shares, sh);
          found = &g_array_index (shares, Share, shares->len - 1);
        }
      found->total = ttv_time_add_saturating (found->total, ttv_time_span_saturating (seg->start, seg->end));
    }
  g_autofree char *title = g_strdup_printf (_("Critical path of %u"), tid);
  print_heading (out, o, title, "segments", segments->len);
  sheet_print (s, o->format, out);

  g_array_sort (shares, compare_share);
  g_autoptr (Sheet) p = sheet_new ("critical-path", "participants");
  sheet_column (p, "kind", N_("State"), FALSE);
  sheet_column (p, "tid", N_("TID"), TRUE);
  sheet_column (p, "irq", N_("IRQ"), TRUE);
  sheet_column (p, "name", N_("Name"), FALSE);
  sheet_column (p, "total", N_("Total"), TRUE);
  for (guint k = 0; k < shares->len; k++)
    {
      const Share *sh = &g_array_index (shares, Share, k);
      GArray *row = sheet_row (p);
      add_text (row, ttv_path_kind_name (sh->kind));
      if (sh->kind == TTV_PATH_DEVICE)
        {
          add_text (row, NULL);
          add_int (row, sh->irq);
        }
      else
        {
          add_int (row, sh->tid);
          add_text (row, NULL);
        }
      add_text (row, sh->name);
      add_ns (row, sh->total);
    }
  print_heading (out, o, title, "participants", shares->len);
  sheet_print (p, o->format, out);
}

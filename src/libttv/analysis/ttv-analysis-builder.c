/* ttv-analysis-builder.c: what an analysis with tables fills while the
 * trace is read (its tables, strings, values), written out as it goes to
 * its cache file (or memory), then its tail and header, committed under
 * its cache name and opened as the analysis.  Used by the run
 * (ttv-analysis.c). */
#include "ttv-analysis-private.h"
#include "ttv-context.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* What a build buffers by default before going on in a file (no cache). */
#define DEFAULT_MAX_MEMORY ((gsize) 8 << 20)

struct _TtvAnalysisBuilder {
  const TtvAnalysisClass *cls;        /* weak: static */
  TtvTraceset *traceset;              /* weak */
  TtvState *state;                    /* weak */
  TtvHistoryWriter w;
  char *cache_path;                   /* owned: committed there when done, or NULL */
  char *fingerprint;                  /* owned */
  TtvTableBuilder **tables;           /* owned, cls->n_tables */
  GPtrArray *strings;                 /* of char *, owned */
  GHashTable *string_index;           /* char * (in strings) -> index + 1 */
  GHashTable *quark_index;            /* GQuark -> index + 1 (large quarks) */
  GArray *quark_small;                /* of guint32: index + 1 by quark, below QUARK_SMALL */
  GArray *values;                     /* of gint64 pairs (string index, value) */
  guint64 n_events;
  TtvTime start, end;
  TtvBusyClock clock;                 /* start..end less the long idle gaps: the tables' bins */
};

/* ---- the builder's API ---- */

TtvTableBuilder *
ttv_analysis_builder_get_table (TtvAnalysisBuilder *b, guint index)
{
  g_return_val_if_fail (index < b->cls->n_tables, NULL);
  return b->tables[index];
}

TtvHistoryWriter *
ttv_analysis_builder_get_writer (TtvAnalysisBuilder *b)
{
  return &b->w;
}

guint32
ttv_analysis_builder_intern (TtvAnalysisBuilder *b, const char *text)
{
  if (text == NULL)
    return TTV_ANALYSIS_NO_STRING;
  gpointer found = g_hash_table_lookup (b->string_index, text);
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  char *copy = g_strdup (text);
  g_ptr_array_add (b->strings, copy);
  g_hash_table_insert (b->string_index, copy, GUINT_TO_POINTER (b->strings->len));
  return b->strings->len - 1;
}

/* Names come as quarks, mostly small ones: a direct table for those (one
 * lookup per record of most analyses). */
#define QUARK_SMALL (1u << 20)

guint32
ttv_analysis_builder_intern_quark (TtvAnalysisBuilder *b, GQuark quark)
{
  if (quark == 0)
    return TTV_ANALYSIS_NO_STRING;
  if (quark < QUARK_SMALL && quark < b->quark_small->len && g_array_index (b->quark_small, guint32, quark))
    return g_array_index (b->quark_small, guint32, quark) - 1;
  gpointer found = quark < QUARK_SMALL ? NULL : g_hash_table_lookup (b->quark_index, GUINT_TO_POINTER (quark));
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  guint32 index = ttv_analysis_builder_intern (b, g_quark_to_string (quark));
  if (quark < QUARK_SMALL)
    {
      if (quark >= b->quark_small->len)
        g_array_set_size (b->quark_small, quark + 1);
      g_array_index (b->quark_small, guint32, quark) = index + 1;
    }
  else
    g_hash_table_insert (b->quark_index, GUINT_TO_POINTER (quark), GUINT_TO_POINTER (index + 1));
  return index;
}

void
ttv_analysis_builder_set_value (TtvAnalysisBuilder *b, const char *key, gint64 value)
{
  gint64 pair[2] = { ttv_analysis_builder_intern (b, key), value };
  for (guint i = 0; i < b->values->len; i += 2)
    if (g_array_index (b->values, gint64, i) == pair[0])
      {
        g_array_index (b->values, gint64, i + 1) = value;
        return;
      }
  g_array_append_vals (b->values, pair, 2);
}

TtvTraceset *
ttv_analysis_builder_get_traceset (TtvAnalysisBuilder *b)
{
  return b->traceset;
}

const TtvState *
ttv_analysis_builder_get_state (TtvAnalysisBuilder *b)
{
  return b->state;
}

void
ttv_analysis_writer_source (TtvHistoryWriter *w, TtvAnalysisSource *src)
{
  ttv_history_writer_flush (w);
  src->data = w->bytes ? w->bytes->data : NULL;
  src->fd = w->bytes ? -1 : w->fd;
  src->size = w->offset;
  src->what = "analysis results";
}

void
ttv_analysis_builder_free (TtvAnalysisBuilder *b)
{
  if (b == NULL)
    return;
  for (guint i = 0; b->tables && i < b->cls->n_tables; i++)
    ttv_table_builder_free (b->tables[i]);
  g_free (b->tables);
  ttv_history_writer_clear (&b->w);
  g_free (b->cache_path);
  g_free (b->fingerprint);
  g_ptr_array_unref (b->strings);
  g_hash_table_unref (b->string_index);
  g_hash_table_unref (b->quark_index);
  g_array_unref (b->quark_small);
  g_array_unref (b->values);
  g_free (b);
}

/* ---- cache files ---- */

static void
history_options (const TtvAnalysisOptions *opt, TtvHistoryOptions *h)
{
  memset (h, 0, sizeof *h);
  if (opt)
    {
      h->cache_dir = opt->cache_dir;
      h->cache_max_bytes = opt->cache_max_bytes;
      h->no_cache = opt->no_cache;
    }
}

char *
ttv_analysis_cache_path (TtvTraceset *ts, const TtvAnalysisClass *cls, const TtvAnalysisOptions *opt)
{
  TtvHistoryOptions h;
  history_options (opt, &h);
  g_autofree char *history = ttv_history_cache_path (ts, &h);
  /* Beside the state history ("<sha>.hist"), under one cap. */
  gsize n = strlen (history);
  if (g_str_has_suffix (history, ".hist"))
    history[n - 5] = '\0';
  return g_strdup_printf ("%s.%s.ttva", history, cls->name);
}

/* What a result must match: the trace (as the state history's), and the
 * analysis with the version of what it stores. */
void
ttv_analysis_cache_reused (const char *path, const TtvAnalysisOptions *opt)
{
  /* The most recently used now; and the cap may have changed. */
  ttv_history_cache_touch (path);
  TtvHistoryOptions h;
  history_options (opt, &h);
  g_autofree char *dir = g_path_get_dirname (path);
  ttv_history_cache_evict (dir, ttv_history_cache_limit (&h, dir), path);
}

char *
ttv_analysis_fingerprint (TtvTraceset *ts, const TtvAnalysisClass *cls)
{
  g_autofree char *trace = ttv_history_fingerprint (ts);
  return g_strdup_printf ("%sanalysis %s %u layout %u\n", trace, cls->name, cls->version,
                          TTV_ANALYSIS_VERSION);
}

TtvAnalysisBuilder *
ttv_analysis_builder_new (TtvTraceset *ts, const TtvAnalysisClass *cls, const TtvAnalysisOptions *opt, TtvState *state,
             GError **error)
{
  TtvAnalysisBuilder *b = g_new0 (TtvAnalysisBuilder, 1);
  b->cls = cls;
  b->traceset = ts;
  b->state = state;
  b->fingerprint = ttv_analysis_fingerprint (ts, cls);
  b->strings = g_ptr_array_new_with_free_func (g_free);
  b->string_index = g_hash_table_new (g_str_hash, g_str_equal);
  b->quark_index = g_hash_table_new (g_direct_hash, g_direct_equal);
  b->quark_small = g_array_new (FALSE, TRUE, sizeof (guint32));
  b->values = g_array_new (FALSE, FALSE, sizeof (gint64));
  b->start = ttv_traceset_get_start (ts);
  b->end = ttv_traceset_get_end (ts);
  if (b->start == TTV_TIME_MAX)
    b->start = b->end = 0;
  TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2];
  guint n_gaps = ttv_traceset_find_idle_gaps (ts, b->start, b->end, gaps);
  ttv_busy_clock_init (&b->clock, b->start, b->end, (const TtvTime (*)[2]) gaps, n_gaps);
  gsize max_memory = opt && opt->max_memory ? opt->max_memory : DEFAULT_MAX_MEMORY;
  g_autoptr (GError) cache_error = NULL;
  gboolean in_file = FALSE;
  if (!(opt && opt->no_cache))
    {
      b->cache_path = ttv_analysis_cache_path (ts, cls, opt);
      g_autofree char *dir = g_path_get_dirname (b->cache_path);
      in_file = ttv_history_writer_init_file (&b->w, dir, FALSE, &cache_error);
      if (!in_file)
        {
          g_warning ("The %s analysis is not cached: %s", cls->name, cache_error->message);
          g_clear_pointer (&b->cache_path, g_free);
        }
    }
  if (!in_file)
    ttv_history_writer_init_memory (&b->w, max_memory, NULL);
  b->w.header_size = sizeof (TtvAnalysisHeader);
  /* Appended to in order, its header last: no read of the whole file back
   * for its checksum. */
  ttv_history_writer_hash_as_written (&b->w);
  /* The header's place, written last; the fingerprint first, so that a
   * stale file is told by its first bytes. */
  ttv_history_writer_reserve (&b->w, sizeof (TtvAnalysisHeader));
  ttv_history_writer_append (&b->w, b->fingerprint, strlen (b->fingerprint) + 1);
  ttv_history_writer_align (&b->w);
  b->tables = g_new0 (TtvTableBuilder *, MAX (cls->n_tables, 1));
  for (guint i = 0; i < cls->n_tables; i++)
    b->tables[i] = ttv_table_builder_new (b, cls->tables[i], &b->clock);
  if (b->w.failed)
    {
      ttv_history_writer_set_error (&b->w, cls->name, error);
      ttv_analysis_builder_free (b);
      return NULL;
    }
  return b;
}


void
ttv_analysis_builder_set_n_events (TtvAnalysisBuilder *b, guint64 n)
{
  b->n_events = n;
}

void
ttv_analysis_builder_set_state (TtvAnalysisBuilder *b, TtvState *state)
{
  b->state = state;
}

/* With several machines, their number, names and spans, for the reports
 * of analyses whose records say their machine (ttv_analysis_get_n_machines);
 * one machine stores nothing, so that its results are as before. */
static void
record_machines (TtvAnalysisBuilder *b)
{
  guint n = ttv_traceset_get_n_machines (b->traceset);
  if (n < 2)
    return;
  ttv_analysis_builder_set_value (b, "machines", n);
  for (guint m = 0; m < n; m++)
    {
      char key[32];
      g_snprintf (key, sizeof key, "machine/%u", m);
      ttv_analysis_builder_set_value (b, key, ttv_analysis_builder_intern (b, ttv_traceset_get_machine_name (b->traceset, m)));
      TtvTime start, end;
      if (!ttv_traceset_get_machine_span (b->traceset, m, &start, &end))
        continue;
      g_snprintf (key, sizeof key, "machine/%u/start", m);
      ttv_analysis_builder_set_value (b, key, start);
      g_snprintf (key, sizeof key, "machine/%u/end", m);
      ttv_analysis_builder_set_value (b, key, end);
    }
}

/* The gaps the tables' bins leave out (ttv_analysis_load_gaps() reads
 * them); none stored without gaps, so that such results are as before. */
static void
record_gaps (TtvAnalysisBuilder *b)
{
  if (b->clock.n_gaps == 0)
    return;
  ttv_analysis_builder_set_value (b, "gaps", b->clock.n_gaps);
  for (guint i = 0; i < b->clock.n_gaps; i++)
    {
      char key[32];
      g_snprintf (key, sizeof key, "gap/%u/start", i);
      ttv_analysis_builder_set_value (b, key, b->clock.gaps[i][0]);
      g_snprintf (key, sizeof key, "gap/%u/end", i);
      ttv_analysis_builder_set_value (b, key, b->clock.gaps[i][1]);
    }
}

/* Everything after the tables' data: table headers, values, strings,
 * then the header at the start. */
gboolean
ttv_analysis_builder_write_tail (TtvAnalysisBuilder *b, GCancellable *cancel, GError **error)
{
  TtvHistoryWriter *w = &b->w;
  record_machines (b);
  record_gaps (b);
  g_autoptr (GArray) headers = g_array_new (FALSE, TRUE, sizeof (TtvAnalysisTableHeader));
  for (guint i = 0; i < b->cls->n_tables; i++)
    {
      TtvAnalysisTableHeader th;
      guint32 name = ttv_analysis_builder_intern (b, b->cls->tables[i]->name);
      if (!ttv_table_builder_finish (b->tables[i], w, &th, name, cancel, error))
        return FALSE;
      g_array_append_val (headers, th);
      /* Its buffers go now. */
      ttv_table_builder_free (g_steal_pointer (&b->tables[i]));
    }
  TtvAnalysisHeader hd;
  memset (&hd, 0, sizeof hd);
  ttv_history_writer_align (w);
  hd.tables_offset = ttv_history_writer_append (w, headers->data, headers->len * sizeof (TtvAnalysisTableHeader));
  hd.n_tables = headers->len;
  ttv_history_writer_align (w);
  hd.values_offset = ttv_history_writer_append (w, b->values->data, b->values->len * sizeof (gint64));
  hd.n_values = b->values->len / 2;
  TtvHistoryStringTable strings = ttv_history_writer_append_strings (w, b->strings);
  hd.strings_offset = strings.strings_offset;
  hd.strings_size = strings.strings_size;
  hd.string_index_offset = strings.index_offset;
  hd.n_strings = b->strings->len;
  memcpy (hd.magic, TTV_ANALYSIS_MAGIC, sizeof hd.magic);
  hd.version = TTV_ANALYSIS_VERSION;
  hd.bom = TTV_ANALYSIS_BOM;
  hd.file_size = w->offset;
  hd.fingerprint_offset = sizeof hd;
  hd.fingerprint_size = strlen (b->fingerprint) + 1;
  hd.n_events = b->n_events;
  hd.start = b->start;
  hd.end = b->end;
  /* Memory is not damaged between runs: only files carry a checksum. */
  hd.checksum = w->bytes ? 0 : ttv_history_writer_checksum (w);
  ttv_history_writer_pwrite (w, 0, &hd, sizeof hd);
  if (!ttv_history_writer_flush (w))
    {
      ttv_history_writer_set_error (w, b->cls->name, error);
      return FALSE;
    }
  return TRUE;
}

/* The result @b wrote: committed to the cache when it has a path. */
TtvAnalysis *
ttv_analysis_builder_open (TtvAnalysisBuilder *b, const TtvAnalysisOptions *opt, GError **error)
{
  TtvAnalysisSource src = { NULL, -1, b->w.offset, NULL };
  guint8 *heap = NULL;
  if (b->w.bytes)
    {
      src.size = b->w.bytes->len;
      heap = g_byte_array_free (g_steal_pointer (&b->w.bytes), FALSE);
      src.data = heap;
    }
  else
    {
      src.fd = dup (b->w.fd);
      if (src.fd < 0)
        {
          ttv_history_writer_set_error (&b->w, b->cls->name, error);
          return NULL;
        }
    }
  TtvAnalysis *r = ttv_analysis_new_tables (b->cls, &src, heap);
  if (b->cache_path)
    {
      g_autoptr (GError) commit_error = NULL;
      if (ttv_history_writer_commit (&b->w, b->cache_path, &commit_error))
        {
          r->cache_path = g_strdup (b->cache_path);
          TtvHistoryOptions h;
          history_options (opt, &h);
          g_autofree char *dir = g_path_get_dirname (b->cache_path);
          if (!ttv_history_cache_evict (dir, ttv_history_cache_limit (&h, dir), b->cache_path))
            g_clear_pointer (&r->cache_path, g_free);
        }
      else
        /* Still right, only not kept for the next time. */
        g_warning ("%s", commit_error->message);
    }
  r->src.what = r->cache_path ? r->cache_path : "analysis results";
  /* Just built: trusted, not read through again. */
  if (!ttv_analysis_open_tables (r, r->src.what, NULL, error))
    {
      ttv_analysis_unref (r);
      return NULL;
    }
  return r;
}

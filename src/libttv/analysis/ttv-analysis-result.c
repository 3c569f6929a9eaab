/* ttv-analysis-result.c: an analysis's result as queries see it: opened
 * from what a build wrote or from a cache file, every byte checked before
 * use (header, the trace it describes, checksum, every offset and count),
 * then immutable.  Used by ttv-analysis.c, the tables and the fuzzer. */
#include "ttv-analysis-private.h"
#include "ttv-error.h"
#include "ttv-kernel-analyses.h"
#include "ttv-temp-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TtvAnalysis *
ttv_analysis_new_tables (const TtvAnalysisClass *cls, const TtvAnalysisSource *src, guint8 *heap)
{
  TtvAnalysis *r = g_new0 (TtvAnalysis, 1);
  r->ref_count = 1;
  r->cls = cls;
  r->src = *src;
  r->heap = heap;
  return r;
}

TtvAnalysis *
ttv_analysis_new_data (const TtvAnalysisClass *cls, gpointer data)
{
  TtvAnalysis *r = g_new0 (TtvAnalysis, 1);
  r->ref_count = 1;
  r->cls = cls;
  r->data = data;
  r->src.fd = -1;
  return r;
}

TtvAnalysis *
ttv_analysis_ref (TtvAnalysis *r)
{
  g_atomic_int_inc (&r->ref_count);
  return r;
}

static void
table_clear (TtvAnalysisTable *t)
{
  ttv_analysis_seq_clear (&t->main);
  for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
    {
      for (guint64 i = 0; t->series[k] && i < t->h.n_keys[k]; i++)
        ttv_analysis_seq_clear (&t->series[k][i].seq);
      g_free (t->series[k]);
    }
  g_free (t->bin_first);
  g_free (t->cells);
  g_free (t->levels);
  g_free (t->stats);
}

void
ttv_analysis_unref (TtvAnalysis *r)
{
  if (r == NULL || !g_atomic_int_dec_and_test (&r->ref_count))
    return;
  if (r->data && r->cls->free)
    r->cls->free (r->data);
  for (guint i = 0; r->tables && i < r->n_tables; i++)
    table_clear (&r->tables[i]);
  g_free (r->tables);
  if (r->values)
    g_hash_table_unref (r->values);
  g_free (r->strings);
  g_free (r->strings_blob);
  g_free (r->heap);
  if (r->src.fd >= 0)
    close (r->src.fd);
  g_free (r->cache_path);
  g_free (r);
}

#define BAD(at, ...) \
  G_STMT_START { \
    g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT, __VA_ARGS__); \
    (void) (at); \
    return FALSE; \
  } G_STMT_END

static gboolean
fits (guint64 size, guint64 offset, guint64 count, gsize elem)
{
  return offset <= size && offset % 8 == 0 && count <= (size - offset) / elem;
}

/* Copies @len bytes at @offset into a new buffer; NULL when they do not fit. */
static gpointer
dup_bytes (const TtvAnalysisSource *src, guint64 offset, gsize len)
{
  guint8 *buf = g_try_malloc (MAX (len, 1));
  if (buf == NULL)
    return NULL;
  const guint8 *p = ttv_analysis_source_get (src, offset, len, buf);
  if (p == NULL)
    {
      g_free (buf);
      return NULL;
    }
  if (p != buf)
    memcpy (buf, p, len);
  return buf;
}

/* The gaps the tables' bins leave out, as the builder stored them (a
 * damaged file's out-of-order or overlapping ones are dropped by
 * ttv_busy_clock_init()): read once, for every table. */
typedef struct {
  TtvTime gaps[TTV_TIME_MAX_IDLE_GAPS][2];
  guint n;
} StoredGaps;

static void
load_gaps (const TtvAnalysis *r, StoredGaps *out)
{
  TtvTime (*gaps)[2] = out->gaps;
  gint64 n = 0;
  guint found = 0;
  ttv_analysis_get_value (r, "gaps", &n);
  for (guint i = 0; i < (guint) CLAMP (n, 0, TTV_TIME_MAX_IDLE_GAPS); i++)
    {
      char key[32];
      g_snprintf (key, sizeof key, "gap/%u/start", i);
      if (!ttv_analysis_get_value (r, key, &gaps[found][0]))
        continue;
      g_snprintf (key, sizeof key, "gap/%u/end", i);
      if (ttv_analysis_get_value (r, key, &gaps[found][1]))
        found++;
    }
  out->n = found;
}

#define SERIES_READ_AHEAD (64u * 1024)

/* Table @i, its bins measured with the result's @gaps left out. */
static gboolean
open_table (TtvAnalysis *r, guint i, const TtvAnalysisTableHeader *th, const StoredGaps *gaps, const char *what,
            GError **error)
{
  const TtvAnalysisSource *src = &r->src;
  TtvAnalysisTable *t = &r->tables[i];
  const TtvAnalysisTableSpec *spec = r->cls->tables[i];
  guint64 at = r->header.tables_offset + i * sizeof *th;
  t->result = r;
  t->spec = spec;
  t->h = *th;
  ttv_busy_clock_init (&t->clock, th->origin, r->header.end, (const TtvTime (*)[2]) gaps->gaps, gaps->n);
  if (th->name >= r->header.n_strings || !g_str_equal (r->strings[th->name], spec->name)
      || th->record_size != spec->record_size || th->n_series > TTV_ANALYSIS_MAX_SERIES)
    BAD (at, _("%s: table %u is not what the analysis stores (byte %" PRIu64 ")"), what, i, at);
  if (!ttv_analysis_seq_load (&t->main, src, &th->main, spec->record_size, NULL))
    BAD (at, _("%s: bad records of table %s (byte %" PRIu64 ")"), what, spec->name, th->main.chunks_offset);
  /* The series' summaries lie one after another near the file's end: read
   * through a window, one read for dozens of series, where a read each
   * (thousands, for the syscalls' threads) cost more than the bytes. */
  g_autofree guint8 *ahead_buf = NULL;
  TtvHistoryReadWindow ahead = { NULL, SERIES_READ_AHEAD, 0, 0 };
  for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
    {
      gboolean want = spec->series_offset[k] >= 0;
      if (!want)
        {
          if (k < th->n_series && th->n_keys[k] != 0)
            BAD (at, _("%s: unexpected series in table %s (byte %" PRIu64 ")"), what, spec->name, at);
          continue;
        }
      if (k >= th->n_series || !fits (src->size, th->series_offset[k], th->n_keys[k], sizeof (TtvAnalysisSeriesKey)))
        BAD (at, _("%s: bad series of table %s (byte %" PRIu64 ")"), what, spec->name, th->series_offset[k]);
      g_autofree TtvAnalysisSeriesKey *keys = dup_bytes (src, th->series_offset[k],
                                                         th->n_keys[k] * sizeof (TtvAnalysisSeriesKey));
      if (keys == NULL)
        BAD (at, _("%s: bad series of table %s (byte %" PRIu64 ")"), what, spec->name, th->series_offset[k]);
      t->series[k] = g_new0 (TtvAnalysisSeries, MAX (th->n_keys[k], 1));
      if (ahead.buf == NULL && src->data == NULL && th->n_keys[k] > 1)
        ahead.buf = ahead_buf = g_malloc (SERIES_READ_AHEAD);
      for (guint64 j = 0; j < th->n_keys[k]; j++)
        {
          guint64 kat = th->series_offset[k] + j * sizeof (TtvAnalysisSeriesKey);
          t->series[k][j].key = keys[j].key;
          if ((j > 0 && keys[j].key <= keys[j - 1].key)
              || !ttv_analysis_seq_load (&t->series[k][j].seq, src, &keys[j].seq, sizeof (TtvAnalysisSeriesEntry),
                                         ahead.buf ? &ahead : NULL))
            {
              /* The loaded ones (and this one) are cleared by table_clear. */
              BAD (kat, _("%s: bad series of table %s (byte %" PRIu64 ")"), what, spec->name, kat);
            }
        }
    }
  if (spec->summaries)
    {
      if (th->hist_bins == 0 || th->hist_bins > (1u << 20) || th->hist_shift >= 62
          || !fits (src->size, th->bin_first_offset, (guint64) th->hist_bins + 1, sizeof (guint32))
          || th->n_cells > (guint64) th->hist_bins * TTV_DURATION_BUCKETS
          || !fits (src->size, th->cells_offset, 2 * th->n_cells, sizeof (guint32))
          || th->n_levels == 0 || th->n_levels > TTV_ANALYSIS_MAX_LEVELS
          || !fits (src->size, th->levels_offset, th->n_levels, sizeof (TtvAnalysisLevel)))
        BAD (at, _("%s: bad summaries of table %s (byte %" PRIu64 ")"), what, spec->name, at);
      t->bin_first = dup_bytes (src, th->bin_first_offset, ((gsize) th->hist_bins + 1) * sizeof (guint32));
      t->cells = dup_bytes (src, th->cells_offset, 2 * th->n_cells * sizeof (guint32));
      t->levels = dup_bytes (src, th->levels_offset, th->n_levels * sizeof (TtvAnalysisLevel));
      if (t->bin_first == NULL || t->cells == NULL || t->levels == NULL)
        BAD (at, _("%s: bad summaries of table %s (byte %" PRIu64 ")"), what, spec->name, at);
      for (guint32 b = 0; b < th->hist_bins; b++)
        if (t->bin_first[b] > t->bin_first[b + 1] || t->bin_first[b + 1] > th->n_cells)
          BAD (at, _("%s: bad histogram of table %s (byte %" PRIu64 ")"), what, spec->name, th->bin_first_offset);
      if (t->bin_first[0] != 0)
        BAD (at, _("%s: bad histogram of table %s (byte %" PRIu64 ")"), what, spec->name, th->bin_first_offset);
      for (guint k = 0; k < th->n_levels; k++)
        {
          const TtvAnalysisLevel *l = &t->levels[k];
          if (l->shift >= 62 || l->n_bins == 0 || (k == 0 && (l->shift != th->hist_shift || l->n_bins != th->hist_bins))
              || (k > 0 && l->shift >= t->levels[k - 1].shift)
              || !fits (src->size, l->offset, l->n_bins, sizeof (TtvScatterColumn)))
            BAD (at, _("%s: bad scatter level %u of table %s (byte %" PRIu64 ")"), what, k, spec->name,
                 th->levels_offset);
        }
    }
  if (spec->summaries || spec->group_offset >= 0)
    {
      if (th->stats_offset == 0 || th->n_groups > th->main.n_entries || th->n_groups >= src->size
          || !fits (src->size, th->stats_offset, th->n_groups + 1, sizeof (TtvAnalysisStats)))
        BAD (at, _("%s: bad statistics of table %s (byte %" PRIu64 ")"), what, spec->name, th->stats_offset);
      t->stats = dup_bytes (src, th->stats_offset, (th->n_groups + 1) * sizeof (TtvAnalysisStats));
      if (t->stats == NULL)
        BAD (at, _("%s: bad statistics of table %s (byte %" PRIu64 ")"), what, spec->name, th->stats_offset);
    }
  return TRUE;
}

gboolean
ttv_analysis_open_tables (TtvAnalysis *r, const char *what, const char *fingerprint, GError **error)
{
  const TtvAnalysisSource *src = &r->src;
  TtvAnalysisHeader *hd = &r->header;
  const guint8 *p = ttv_analysis_source_get (src, 0, sizeof *hd, (guint8 *) hd);
  if (src->size < sizeof *hd || p == NULL)
    BAD (0, _("%s: truncated at byte %" PRIu64 " (no header)"), what, src->size);
  if (p != (const guint8 *) hd)
    memcpy (hd, p, sizeof *hd);
  if (memcmp (hd->magic, TTV_ANALYSIS_MAGIC, sizeof hd->magic) != 0 || hd->version != TTV_ANALYSIS_VERSION
      || hd->bom != TTV_ANALYSIS_BOM)
    BAD (0, _("%s: not analysis results of this version (byte 0)"), what);
  if (hd->file_size != src->size)
    BAD (0, _("%s: %" PRIu64 " bytes where the header says %" PRIu64), what, src->size, hd->file_size);
  if (hd->fingerprint_size == 0 || hd->fingerprint_offset > src->size
      || hd->fingerprint_size > src->size - hd->fingerprint_offset)
    BAD (0, _("%s: bad trace description at byte %" PRIu64), what, hd->fingerprint_offset);
  if (fingerprint)
    {
      gsize n = strlen (fingerprint) + 1;
      g_autofree char *stored = n == hd->fingerprint_size ? dup_bytes (src, hd->fingerprint_offset, n) : NULL;
      if (stored == NULL || memcmp (stored, fingerprint, n) != 0)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                       _("%s describes another state of the trace, or another analysis"), what);
          return FALSE;
        }
    }
  /* Strings. */
  if (hd->strings_offset > src->size || hd->strings_size > src->size - hd->strings_offset
      || !fits (src->size, hd->string_index_offset, hd->n_strings, sizeof (guint64)) || hd->n_strings > G_MAXUINT32)
    BAD (0, _("%s: bad string table at byte %" PRIu64), what, hd->strings_offset);
  r->strings_blob = dup_bytes (src, hd->strings_offset, hd->strings_size + 1);
  g_autofree guint64 *index = dup_bytes (src, hd->string_index_offset, hd->n_strings * sizeof (guint64));
  if (r->strings_blob == NULL || index == NULL
      || (hd->strings_size > 0 && r->strings_blob[hd->strings_size - 1] != '\0'))
    BAD (0, _("%s: bad string table at byte %" PRIu64), what, hd->strings_offset);
  r->strings = g_new0 (const char *, hd->n_strings + 1);
  for (guint64 i = 0; i < hd->n_strings; i++)
    {
      if (index[i] >= hd->strings_size)
        BAD (0, _("%s: string %" PRIu64 " out of its table (byte %" PRIu64 ")"), what, i, hd->string_index_offset);
      r->strings[i] = (const char *) r->strings_blob + index[i];
    }
  /* Values. */
  /* Pairs counted whole: 2 * n_values would wrap for a hostile count. */
  if (!fits (src->size, hd->values_offset, hd->n_values, 2 * sizeof (gint64)))
    BAD (0, _("%s: bad values at byte %" PRIu64), what, hd->values_offset);
  g_autofree gint64 *values = dup_bytes (src, hd->values_offset, 2 * hd->n_values * sizeof (gint64));
  if (values == NULL)
    BAD (0, _("%s: bad values at byte %" PRIu64), what, hd->values_offset);
  r->values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  for (guint64 i = 0; i < hd->n_values; i++)
    {
      if (values[2 * i] < 0 || (guint64) values[2 * i] >= hd->n_strings)
        BAD (0, _("%s: bad values at byte %" PRIu64), what, hd->values_offset);
      g_hash_table_insert (r->values, (gpointer) r->strings[values[2 * i]], g_memdup2 (&values[2 * i + 1], sizeof (gint64)));
    }
  /* Tables. */
  if (hd->n_tables != r->cls->n_tables
      || !fits (src->size, hd->tables_offset, hd->n_tables, sizeof (TtvAnalysisTableHeader)))
    BAD (0, _("%s: bad table list at byte %" PRIu64), what, hd->tables_offset);
  g_autofree TtvAnalysisTableHeader *headers = dup_bytes (src, hd->tables_offset,
                                                          hd->n_tables * sizeof (TtvAnalysisTableHeader));
  if (headers == NULL)
    BAD (0, _("%s: bad table list at byte %" PRIu64), what, hd->tables_offset);
  r->tables = g_new0 (TtvAnalysisTable, MAX (hd->n_tables, 1));
  r->n_tables = (guint) hd->n_tables;
  StoredGaps gaps;
  load_gaps (r, &gaps);
  for (guint i = 0; i < r->n_tables; i++)
    if (!open_table (r, i, &headers[i], &gaps, what, error))
      return FALSE;
  r->memory = sizeof *r + hd->strings_size + hd->n_strings * sizeof (char *) + hd->n_values * 48;
  for (guint i = 0; i < r->n_tables; i++)
    {
      const TtvAnalysisTable *t = &r->tables[i];
      r->memory += sizeof *t + t->h.main.n_chunks * (sizeof (TtvAnalysisBlock) + 6 * sizeof (gint64));
      for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
        for (guint64 j = 0; t->series[k] && j < t->h.n_keys[k]; j++)
          r->memory += sizeof (TtvAnalysisSeries) + t->series[k][j].seq.h.n_chunks * (sizeof (TtvAnalysisBlock) + 48);
      r->memory += (t->bin_first ? (t->h.hist_bins + 1) * 4 + t->h.n_cells * 8 : 0)
                   + t->h.n_levels * sizeof (TtvAnalysisLevel) + (t->stats ? (t->h.n_groups + 1) * sizeof (TtvAnalysisStats) : 0);
    }
  if (r->heap)
    r->memory += src->size;
  return TRUE;
}

/* The checks that need no decoding: the checksum of every byte after the
 * header, read a MiB at a time. */
static gboolean
check_sum (int fd, guint64 size, const char *path, GError **error)
{
  TtvAnalysisHeader hd;
  if (size < sizeof hd || !ttv_file_read_at (fd, &hd, sizeof hd, 0))
    BAD (0, _("%s: truncated at byte %" PRIu64 " (no header)"), path, size);
  guint64 sum, at;
  if (!ttv_history_hash_file (fd, sizeof hd, size, &sum, &at))
    BAD (at, _("%s: cannot read byte %" PRIu64), path, at);
  if (sum != hd.checksum)
    BAD (0, _("%s: checksum mismatch (damaged file)"), path);
  return TRUE;
}

TtvAnalysis *
ttv_analysis_load_file (const char *path, const char *fingerprint, const TtvAnalysisClass *cls,
                               GError **error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int err = errno;
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, _("Cannot open %s: %s"), path, g_strerror (err));
      return NULL;
    }
  struct stat st;
  if (fstat (fd, &st) != 0 || st.st_size == 0)
    {
      close (fd);
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED, _("%s: empty file (0 bytes)"), path);
      return NULL;
    }
  TtvAnalysisSource src = { NULL, fd, (guint64) st.st_size, NULL };
  TtvAnalysis *r = ttv_analysis_new_tables (cls, &src, NULL);
  r->cache_path = g_strdup (path);
  r->src.what = r->cache_path;
  r->from_cache = TRUE;
  /* The description first (a stale file costs a few bytes), then every byte. */
  if (!ttv_analysis_open_tables (r, path, fingerprint, error) || !check_sum (fd, src.size, path, error))
    {
      ttv_analysis_unref (r);
      return NULL;
    }
  posix_fadvise (fd, 0, 0, POSIX_FADV_RANDOM);
  return r;
}

TtvAnalysis *
ttv_analysis_load_bytes (GBytes *bytes, const char *fingerprint, const TtvAnalysisClass *cls,
                                GError **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  guint8 *heap = g_memdup2 (data, MAX (size, 1));
  TtvAnalysisSource src = { heap, -1, size, "analysis results" };
  TtvAnalysis *r = ttv_analysis_new_tables (cls, &src, heap);
  if (!ttv_analysis_open_tables (r, src.what, fingerprint, error))
    {
      ttv_analysis_unref (r);
      return NULL;
    }
  return r;
}

/* ---- getters ---- */

const TtvAnalysisClass *
ttv_analysis_get_class (const TtvAnalysis *r)
{
  return r->cls;
}

gpointer
ttv_analysis_get_data (const TtvAnalysis *r)
{
  return r->data;
}

guint
ttv_analysis_get_n_tables (const TtvAnalysis *r)
{
  return r->n_tables;
}

const TtvAnalysisTable *
ttv_analysis_get_table (const TtvAnalysis *r, guint index)
{
  return index < r->n_tables ? &r->tables[index] : NULL;
}

const TtvAnalysisTable *
ttv_analysis_find_table (const TtvAnalysis *r, const char *name)
{
  for (guint i = 0; i < r->n_tables; i++)
    if (g_str_equal (r->tables[i].spec->name, name))
      return &r->tables[i];
  return NULL;
}

const char *
ttv_analysis_get_string (const TtvAnalysis *r, guint32 index)
{
  if (index == TTV_ANALYSIS_NO_STRING)
    return "";
  return index < r->header.n_strings ? r->strings[index] : "?";
}

gboolean
ttv_analysis_get_value (const TtvAnalysis *r, const char *key, gint64 *value)
{
  const gint64 *v = r->values ? g_hash_table_lookup (r->values, key) : NULL;
  if (v && value)
    *value = *v;
  return v != NULL;
}

guint
ttv_analysis_get_n_machines (const TtvAnalysis *r)
{
  gint64 n;
  /* Records cannot tell more machines apart: a file saying more (damaged
   * or hostile) must not make reports loop or allocate for billions. */
  if (!ttv_analysis_get_value (r, "machines", &n) || n <= 1)
    return 1;
  return (guint) MIN ((guint64) n, TTV_ANALYSIS_MAX_MACHINES);
}

gboolean
ttv_analysis_get_machine_string (const TtvAnalysis *r, guint machine, gint64 *string)
{
  char key[32];
  g_snprintf (key, sizeof key, "machine/%u", machine);
  return ttv_analysis_get_value (r, key, string);
}

const char *
ttv_analysis_get_machine_name (const TtvAnalysis *r, guint machine)
{
  gint64 index;
  if (ttv_analysis_get_machine_string (r, machine, &index) && index >= 0 && index <= G_MAXUINT32)
    return ttv_analysis_get_string (r, (guint32) index);
  return "?";
}

guint
ttv_analysis_find_machine (const TtvAnalysis *r, const char *name)
{
  guint n = ttv_analysis_get_n_machines (r);
  for (guint m = 0; m < n && n > 1; m++)
    if (g_strcmp0 (ttv_analysis_get_machine_name (r, m), name) == 0)
      return m;
  return 0;
}

void
ttv_analysis_get_machine_span (const TtvAnalysis *r, guint machine, TtvTime *start, TtvTime *end)
{
  char key[48];
  gint64 s, e;
  ttv_analysis_get_time_range (r, start, end);
  g_snprintf (key, sizeof key, "machine/%u/start", machine);
  if (ttv_analysis_get_n_machines (r) < 2 || !ttv_analysis_get_value (r, key, &s))
    return;
  g_snprintf (key, sizeof key, "machine/%u/end", machine);
  if (ttv_analysis_get_value (r, key, &e) && s <= e)
    {
      *start = s;
      *end = e;
    }
}

gboolean
ttv_analysis_column_is_shown (const TtvAnalysis *r, const TtvAnalysisColumn *column)
{
  return !g_str_equal (column->name, TTV_ANALYSIS_MACHINE_COLUMN) || ttv_analysis_get_n_machines (r) > 1;
}

void
ttv_analysis_get_time_range (const TtvAnalysis *r, TtvTime *start, TtvTime *end)
{
  *start = r->header.start;
  *end = r->header.end;
}

guint64
ttv_analysis_get_n_events (const TtvAnalysis *r)
{
  return r->header.n_events;
}

gboolean
ttv_analysis_is_from_cache (const TtvAnalysis *r)
{
  return r->from_cache;
}

const char *
ttv_analysis_get_cache_path (const TtvAnalysis *r)
{
  return r->cache_path;
}

gsize
ttv_analysis_get_memory (const TtvAnalysis *r)
{
  return r->memory;
}

guint64
ttv_analysis_get_file_size (const TtvAnalysis *r)
{
  return r->src.fd >= 0 ? r->src.size : 0;
}

char *
ttv_analysis_format_value (const TtvAnalysis *r, const TtvAnalysisColumn *c, const void *record,
                                  TtvTime relative_to)
{
  gint64 v = ttv_analysis_column_get (c, record);
  char buf[48];
  switch (c->type)
    {
    case TTV_COLUMN_TIME:
      if (relative_to != TTV_TIME_MIN)
        {
          ttv_time_to_string (ttv_time_sub_saturating (v, relative_to), buf, sizeof buf);
          return g_strdup_printf ("+%s", buf);
        }
      return g_strdup (ttv_time_to_string (v, buf, sizeof buf));
    case TTV_COLUMN_DURATION:
      return g_strdup (ttv_time_to_string (v, buf, sizeof buf));
    case TTV_COLUMN_HEX:
      return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", (guint64) v);
    case TTV_COLUMN_TID:
      return (guint32) v == G_MAXUINT32 ? g_strdup ("") : g_strdup_printf ("%u", (guint32) v);
    case TTV_COLUMN_CPU:
      return v < 0 ? g_strdup ("") : g_strdup_printf ("%d", (gint) v);
    case TTV_COLUMN_STRING:
      return g_strdup (ttv_analysis_get_string (r, (guint32) v));
    case TTV_COLUMN_ENUM:
      {
        guint n = 0;
        while (c->labels && c->labels[n])
          n++;
        return (guint64) v < n ? g_strdup (c->labels[v]) : g_strdup_printf ("%" G_GINT64_FORMAT, v);
      }
    case TTV_COLUMN_UINT:
      return g_strdup_printf ("%u", (guint32) v);
    case TTV_COLUMN_INT:
    default:
      return g_strdup_printf ("%" G_GINT64_FORMAT, v);
    }
}

const char *
ttv_analysis_get_machine_group_name (const TtvAnalysis *r, const TtvAnalysisTable *t, guint machine, gint64 key)
{
  if (machine == 0)
    return ttv_analysis_get_group_name (r, t, key);
  g_autofree char *name_key = g_strdup_printf ("name/%s/%" G_GINT64_FORMAT "@%u", ttv_analysis_table_get_spec (t)->name,
                                               key, machine);
  gint64 index;
  return ttv_analysis_get_value (r, name_key, &index) ? ttv_analysis_get_string (r, (guint32) index) : NULL;
}

const char *
ttv_analysis_get_group_name (const TtvAnalysis *r, const TtvAnalysisTable *t, gint64 key)
{
  g_autofree char *name_key = g_strdup_printf ("name/%s/%" G_GINT64_FORMAT, ttv_analysis_table_get_spec (t)->name,
                                               key);
  gint64 index;
  return ttv_analysis_get_value (r, name_key, &index) ? ttv_analysis_get_string (r, (guint32) index) : NULL;
}

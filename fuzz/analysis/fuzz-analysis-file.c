/* fuzz-analysis-file.c: libFuzzer target feeding arbitrary bytes to the
 * reader of analysis results (the cache files of analyses with tables):
 * the first byte picks the analysis, the rest is the file.  What it
 * accepts must answer every query and report without crashing. */
#include "ttv-kernel-analyses.h"
#include "ttv-error.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static gboolean
count (const void *record, gpointer data)
{
  (*(guint64 *) data)++;
  return TRUE;
}

static void
query (TtvAnalysis *a)
{
  TtvTime start, end;
  ttv_analysis_get_time_range (a, &start, &end);
  TtvTime mid = start / 2 + end / 2;
  for (guint i = 0; i < ttv_analysis_get_n_tables (a); i++)
    {
      const TtvAnalysisTable *t = ttv_analysis_get_table (a, i);
      const TtvAnalysisTableSpec *spec = ttv_analysis_table_get_spec (t);
      guint64 n = 0;
      g_autoptr (GError) error = NULL;
      if (!ttv_analysis_table_foreach (t, TTV_QUERY_OVERLAP, TTV_TIME_MIN, TTV_TIME_MAX, count, &n, &error))
        {
          g_assert (error != NULL);
          continue;
        }
      g_autoptr (GArray) some = ttv_analysis_table_query (t, TTV_QUERY_START_IN, start, mid, NULL);
      for (guint r = 0; some && r < MIN (some->len, 16); r++)
        for (guint c = 0; c < spec->n_columns; c++)
          g_free (ttv_analysis_format_value (a, &spec->columns[c], some->data + r * spec->record_size, start));
      for (guint k = 0; k < TTV_ANALYSIS_MAX_SERIES; k++)
        {
          g_autoptr (GArray) keys = ttv_analysis_table_dup_series_keys (t, k);
          for (guint j = 0; j < MIN (keys->len, 4); j++)
            {
              guint32 key = g_array_index (keys, guint32, j);
              TtvTime sum, first, last;
              g_autoptr (GArray) series = ttv_analysis_table_query_series (t, k, key, start, end, NULL);
              ttv_analysis_table_sum_series (t, k, key, start, mid, &sum, NULL);
              ttv_analysis_table_get_series_span (t, k, key, &first, &last);
              (void) series;
            }
        }
      guint64 counts[TTV_DURATION_BUCKETS];
      TtvScatterColumn columns[64];
      gboolean exact;
      TtvDurationSummary all;
      ttv_analysis_table_histogram (t, start, mid, counts, NULL);
      ttv_analysis_table_scatter (t, start, end, G_N_ELEMENTS (columns), columns, &exact, NULL);
      g_autoptr (GArray) s1 = ttv_analysis_table_summarize (t, TTV_TIME_MIN, TTV_TIME_MAX, &all, NULL);
      g_autoptr (GArray) s2 = ttv_analysis_table_summarize (t, start, mid, &all, NULL);
      (void) s1;
      (void) s2;
    }
  for (TtvAnalysisFormat f = TTV_ANALYSIS_FORMAT_TEXT; f <= TTV_ANALYSIS_FORMAT_CSV; f++)
    {
      g_autoptr (GString) out = g_string_new (NULL);
      TtvAnalysisOptions o = { 0 };
      ttv_analysis_write (a, f, &o, out, NULL);
      o.records = TRUE;
      o.start = start;
      o.end = mid;
      ttv_analysis_write (a, f, &o, out, NULL);
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  if (size < 1)
    return 0;
  const TtvAnalysisClass *const *classes = ttv_analysis_list ();
  guint n = 0;
  while (classes[n])
    n++;
  const TtvAnalysisClass *cls = classes[data[0] % n];
  g_autoptr (GBytes) bytes = g_bytes_new (data + 1, size - 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvAnalysis) a = ttv_analysis_load_bytes (bytes, NULL, cls, &error);
  if (a == NULL)
    {
      /* Every refusal says why, naming the bytes. */
      g_assert (error != NULL);
      g_assert (strstr (error->message, "analysis results") != NULL);
      return 0;
    }
  g_assert (error == NULL);
  query (a);
  return 0;
}

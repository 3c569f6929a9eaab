/* fuzz-ust-trace.c: libFuzzer target reading arbitrary bytes as a stream of
 * an LTTng-UST 2.13 trace (ust-metadata.tsdl: statedump, dl, cyg-profile and
 * libc wrapper events with vpid, vtid, procname and ip contexts), through
 * the userspace model, the binaries' map, the symbolizer (in an empty
 * directory only: the recorded paths are never opened) and the call stack
 * and memory analyses, every report format included.  An input of odd
 * size is also read as a second machine's stream (the same bytes under
 * another host name), so that the reports of several machines run too. */
#include "ttv-callstack.h"
#include "ttv-memory-analysis.h"
#include "ttv-trace-damage.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char *dir;
static char *other_host;        /* the second machine's trace */
static char *empty;

static void
remove_trace (const char *trace)
{
  g_autofree char *m = g_build_filename (trace, "metadata", NULL);
  g_autofree char *s = g_build_filename (trace, "small_0", NULL);
  g_remove (m);
  g_remove (s);
  g_rmdir (trace);
}

static void
remove_dirs (void)
{
  remove_trace (dir);
  remove_trace (other_host);
  g_rmdir (empty);
}

static void
write_file (const char *trace, const char *name, const void *data, gsize size)
{
  g_autofree char *path = g_build_filename (trace, name, NULL);
  g_assert (g_file_set_contents (path, data, (gssize) size, NULL));
}

static void
set_up (void)
{
  dir = g_dir_make_tmp ("ttv-fuzz-ust-XXXXXX", NULL);
  other_host = g_dir_make_tmp ("ttv-fuzz-ust-other-XXXXXX", NULL);
  empty = g_dir_make_tmp ("ttv-fuzz-ust-symbols-XXXXXX", NULL);
  g_assert (dir != NULL && other_host != NULL && empty != NULL);
  g_autofree char *text = NULL;
  gsize length;
  g_assert (g_file_get_contents (TTV_FUZZ_METADATA, &text, &length, NULL));
  write_file (dir, "metadata", text, length);
  char *host = strstr (text, "hostname = \"vm\"");
  g_assert (host != NULL);
  memcpy (host, "hostname = \"zz\"", strlen ("hostname = \"zz\""));
  write_file (other_host, "metadata", text, length);
  atexit (remove_dirs);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  if (dir == NULL)
    set_up ();
  write_file (dir, "small_0", data, size);
  if (size % 2)
    write_file (other_host, "small_0", data, size);

  GError *error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  if (!ttv_traceset_add_path (ts, dir, &error) || (size % 2 && !ttv_traceset_add_path (ts, other_host, &error)))
    {
      g_clear_error (&error);
      ttv_traceset_unref (ts);
      return 0;
    }
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    ttv_trace_set_skip_damage (ttv_traceset_get_trace (ts, i), TRUE);
  const char *dirs[] = { empty, NULL };
  TtvAnalysisOptions options = { 0 };
  options.no_cache = TRUE;
  options.debug_dirs = dirs;
  options.symbols_only_in_dirs = TRUE;
  g_autoptr (GPtrArray) classes = g_ptr_array_new ();
  g_ptr_array_add (classes, (gpointer) &ttv_callstack_analysis);
  g_ptr_array_add (classes, (gpointer) &ttv_memory_analysis);
  GPtrArray *results = ttv_analysis_run_many (ts, classes, &options, NULL, NULL, NULL, &error);
  if (results == NULL)
    g_clear_error (&error);
  options.max_rows = 5;
  for (guint i = 0; results && i < results->len; i++)
    for (guint f = 0; f < TTV_ANALYSIS_N_FORMATS; f++)
      {
        const TtvAnalysis *a = g_ptr_array_index (results, i);
        GString *out = g_string_new (NULL);
        if (!ttv_analysis_write (a, f, &options, out, &error))
          g_clear_error (&error);
        g_string_free (out, TRUE);
      }
  if (results)
    {
      /* What the views ask: the calls and stacks of every thread. */
      TtvCallstack *cs = ttv_callstack_from_analysis (g_ptr_array_index (results, 0));
      for (guint t = 0; t < ttv_callstack_get_n_threads (cs); t++)
        {
          const TtvCallstackThread *th = ttv_callstack_get_thread (cs, t);
          guint64 span = th->first <= th->last ? ttv_time_span_ns (th->first, th->last) : 0;
          for (guint d = 0; d < th->n_depths; d++)
            g_array_unref (ttv_callstack_query_calls (cs, t, d, th->first, th->last, (TtvTime) (1 + span / 100)));
          g_array_unref (ttv_callstack_dup_stack_at (cs, t, th->first + (TtvTime) (span / 2)));
        }
      TtvMemory *m = ttv_memory_from_analysis (g_ptr_array_index (results, 1));
      for (guint p = 0; p < ttv_memory_get_n_processes (m); p++)
        {
          const TtvMemoryProcess *proc = ttv_memory_get_process (m, p);
          guint64 lo[50], hi[50];
          if (proc->last > proc->first)
            ttv_memory_query_usage (m, p, proc->first, proc->last, 50, lo, hi);
        }
      g_ptr_array_unref (results);
    }
  ttv_traceset_unref (ts);
  return 0;
}

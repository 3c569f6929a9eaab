/* fuzz-filter.c: libFuzzer target for the filter language: the bytes as an
 * expression (lexer, parser, compiler); when it parses, every event of a
 * small simulated trace is judged by the compiled programs and by the
 * reference evaluator, which must agree.  Errors must quote the input
 * escaped (valid UTF-8, no control character). */
#include "ttv-error.h"
#include "ttv-filter-private.h"
#include "ttv-ltt-sim.h"
#include "../fuzz-files.h"

#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static TtvTrace *trace;
static TtvHookGroups *groups;
static char *trace_dir;

static void
cleanup (void)
{
  ttv_trace_close (trace);
  ttv_hook_groups_free (groups);
  char *parent = g_path_get_dirname (trace_dir);
  fuzz_remove_tree (parent);
  g_free (parent);
  g_free (trace_dir);
}

/* 400 events of a simulated kernel on 2 CPUs, written once as LTT. */
static void
setup (void)
{
  GError *error = NULL;
  char *tmp = fuzz_make_tmp_dir ("ttv-fuzz-filter");
  trace_dir = g_build_filename (tmp, "trace", NULL);
  g_free (tmp);
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 3;
  so.n_cpus = 2;
  so.n_processes = 8;
  so.max_events = 400;
  TtvSim *sim = ttv_sim_new (&so, &error);
  g_assert_no_error (error);
  TtvLttWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .arch_size = TTV_LTT_ARCH_LP64,
                             .block_size = 4096, .start_time = ttv_sim_get_time (sim), .n_cpu_slots = 2 };
  g_assert (ttv_ltt_write_simulation (trace_dir, sim, &wo, NULL, NULL, NULL, &error));
  ttv_sim_free (sim);
  trace = ttv_trace_open (trace_dir, &error);
  g_assert_no_error (error);
  groups = ttv_hook_groups_new ();
  atexit (cleanup);
}

static void
check_message (const char *message)
{
  g_assert (g_utf8_validate (message, -1, NULL));
  for (const char *p = message; *p; p++)
    g_assert ((guchar) *p >= 0x20 && *p != 0x7f);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  if (trace == NULL)
    setup ();
  char *expr = g_strndup ((const char *) data, size);
  GError *error = NULL;
  TtvFilter *f = ttv_filter_new (expr, groups, &error);
  g_free (expr);
  if (f == NULL)
    {
      g_assert (error != NULL && error->domain == TTV_FILTER_ERROR);
      check_message (error->message);
      g_error_free (error);
      return 0;
    }
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      TtvCursor *c = ttv_cursor_new (g_ptr_array_index (trace->tracefiles, i), &error);
      TtvEvent ev;
      g_assert_no_error (error);
      while (ttv_cursor_next (c, &ev, NULL))
        {
          gboolean fast = ttv_filter_matches (f, &ev, NULL);
          gboolean reference = ttv_filter_matches_reference (f, &ev, NULL);
          if (fast != reference)
            g_error ("'%s': the compiled filter says %d, the reference %d, for a %s at %" G_GINT64_FORMAT,
                     ttv_filter_get_expression (f), fast, reference, ev.type->full_name, ev.time);
        }
      ttv_cursor_free (c);
    }
  ttv_filter_free (f);
  return 0;
}

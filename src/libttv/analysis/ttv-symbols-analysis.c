/* ttv-symbols-analysis.c: the traced processes' binaries and symbols (see
 * ttv-symbols-analysis.h): the statedump and dl events into a symbolizer,
 * and its report. */
#include "ttv-symbols-analysis.h"

#include "ttv-analysis-output.h"
#include "ttv-error.h"
#include "ttv-ust-model.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>

struct _TtvSymbols {
  TtvTraceset *traceset;        /* owned reference */
  TtvUstModel *model;           /* owned during the pass */
  TtvSymbolizer *symbolizer;    /* owned */
};

static void
symbols_free (gpointer self)
{
  TtvSymbols *s = self;
  ttv_ust_model_free (s->model);
  ttv_symbolizer_free (s->symbolizer);
  ttv_traceset_unref (s->traceset);
  g_free (s);
}

static gboolean
on_binary_event (gpointer data, gpointer call_data)
{
  TtvSymbols *s = data;
  const TtvHookCall *call = call_data;
  TtvUstEvent e;
  if (ttv_ust_model_read (s->model, call->trace, call->event, &e))
    ttv_symbolizer_apply (s->symbolizer, &e);
  return FALSE;
}

static gpointer
symbols_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  static const TtvUstAction actions[] = { TTV_UST_BIN_INFO, TTV_UST_LOAD, TTV_UST_UNLOAD, TTV_UST_BUILD_ID,
                                          TTV_UST_DEBUG_LINK };
  TtvTraceset *ts = ttv_analysis_pass_get_traceset (pass);
  TtvSymbols *s = g_new0 (TtvSymbols, 1);
  s->traceset = ttv_traceset_ref (ts);
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  s->model = ttv_ust_model_new (traces);
  s->symbolizer = ttv_symbolizer_new (options->debug_dirs, NULL, options->symbols_only_in_dirs);
  for (guint a = 0; a < G_N_ELEMENTS (actions); a++)
    {
      g_autoptr (GPtrArray) names = ttv_ust_model_dup_event_names (s->model, actions[a]);
      for (guint i = 0; i < names->len; i++)
        ttv_analysis_pass_add_hook (pass, g_ptr_array_index (names, i), on_binary_event, s, TTV_PRIO_DEFAULT);
    }
  return s;
}

static void
symbols_finish (gpointer self, TtvTime end)
{
  TtvSymbols *s = self;
  g_clear_pointer (&s->model, ttv_ust_model_free);
}

TtvSymbols *
ttv_symbols_from_analysis (const TtvAnalysis *analysis)
{
  g_return_val_if_fail (ttv_analysis_get_class (analysis) == &ttv_symbols_analysis, NULL);
  return ttv_analysis_get_data (analysis);
}

TtvSymbolizer *
ttv_symbols_get_symbolizer (const TtvSymbols *s)
{
  return s->symbolizer;
}

gboolean
ttv_symbols_has_binaries (const TtvSymbols *s)
{
  return ttv_symbolizer_has_binaries (s->symbolizer);
}

char *
ttv_symbols_dup_name (const TtvSymbols *s, guint trace, gint64 vpid, guint64 addr, TtvTime time,
                      gboolean return_address)
{
  TtvSymbol sym;
  ttv_symbolizer_resolve (s->symbolizer, trace, vpid, addr, time, return_address, &sym);
  GString *out = g_string_new (NULL);
  ttv_symbol_append (out, &sym, addr, TRUE);
  return g_string_free (out, FALSE);
}

/* --- The report: every binary of every process ---------------------------------- */

static char *
time_text (TtvTime t)
{
  if (t == TTV_TIME_MIN || t == TTV_TIME_MAX)
    return g_strdup (t == TTV_TIME_MIN ? _("(at start)") : "");
  char buf[32];
  return g_strdup (ttv_time_to_string (t, buf, sizeof buf));
}

static gint
compare_pairs (gconstpointer a, gconstpointer b)
{
  const gint64 *x = a, *y = b;
  if (x[0] != y[0])
    return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

static gboolean
symbols_write (gpointer self, TtvAnalysisFormat format, const TtvAnalysisOptions *o, GString *out, GError **error)
{
  TtvSymbols *s = self;
  if (o->one_thread)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("--analysis symbols reports per process: --tid does not apply"));
      return FALSE;
    }
  const TtvBinMap *map = ttv_symbolizer_get_bin_map (s->symbolizer);
  g_autoptr (GArray) processes = ttv_bin_map_dup_processes (map);
  /* Sorted by trace then vpid: (trace, vpid) pairs, two gint64 each. */
  qsort (processes->data, processes->len / 2, 2 * sizeof (gint64), compare_pairs);
  const char *headings[] = { _(">VPID"), _("BASE"), _(">SIZE"), _("BINARY"), _("BUILD ID"), _("LOADED"),
                             _("UNLOADED"), _("SYMBOLS FROM") };
  const char *keys[] = { "vpid", "base", "size", "path", "build_id", "loaded", "unloaded", "symbols" };
  /* With several machines, each process's machine first. */
  gboolean machines = ttv_traceset_get_n_machines (s->traceset) > 1;
  gboolean csv = format == TTV_ANALYSIS_FORMAT_CSV;
  g_autoptr (TtvTable) table = ttv_table_new_after (!machines ? NULL : csv ? TTV_ANALYSIS_MACHINE_COLUMN : _("MACHINE"),
                                                    G_N_ELEMENTS (headings), csv ? keys : headings);
  for (guint p = 0; p + 1 < processes->len; p += 2)
    {
      guint trace = (guint) g_array_index (processes, gint64, p);
      gint64 vpid = g_array_index (processes, gint64, p + 1);
      const char *machine = ttv_traceset_get_machine_name_if_several (s->traceset,
                                                                       ttv_traceset_get_trace_machine (s->traceset, trace));
      g_autoptr (GPtrArray) mappings = ttv_bin_map_list (map, trace, vpid);
      for (guint i = 0; i < mappings->len; i++)
        {
          const TtvBinMapping *m = g_ptr_array_index (mappings, i);
          char id[2 * TTV_UST_MAX_BUILD_ID + 1];
          ttv_ust_build_id_to_hex (m->build_id, m->build_id_len, id);
          const char *why = m->memsz ? ttv_symbolizer_describe (s->symbolizer, m) : "";
          if (format == TTV_ANALYSIS_FORMAT_JSONL)
            {
              g_string_append (out, "{\"type\":\"binary\"");
              ttv_json_append_member_int (out, "trace", trace);
              if (machine)
                ttv_json_append_member_string (out, TTV_ANALYSIS_MACHINE_COLUMN, machine);
              ttv_json_append_member_int (out, "vpid", vpid);
              ttv_json_append_member_int (out, "base", (gint64) m->baddr);
              ttv_json_append_member_int (out, "size", (gint64) m->memsz);
              ttv_json_append_member_string (out, "path", m->path);
              ttv_json_append_member_string (out, "build_id", m->build_id_len ? id : NULL);
              ttv_json_append_member_string (out, "debug_link", m->debug_link);
              g_string_append_printf (out, ",\"pic\":%s", m->is_pic ? "true" : "false");
              if (m->loaded != TTV_TIME_MIN)
                ttv_json_append_member_int (out, "loaded", m->loaded);
              if (m->unloaded != TTV_TIME_MAX)
                ttv_json_append_member_int (out, "unloaded", m->unloaded);
              ttv_json_append_member_string (out, "symbols", why);
              g_string_append (out, "}\n");
              continue;
            }
          GPtrArray *row = ttv_table_row_new (machine);
          g_ptr_array_add (row, vpid >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, vpid) : g_strdup ("?"));
          g_ptr_array_add (row, g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", m->baddr));
          g_ptr_array_add (row, g_strdup_printf ("%" G_GUINT64_FORMAT, m->memsz));
          g_ptr_array_add (row, g_strdup (m->path));
          g_ptr_array_add (row, g_strdup (id));
          g_ptr_array_add (row, time_text (m->loaded));
          g_ptr_array_add (row, time_text (m->unloaded));
          g_ptr_array_add (row, g_strdup (why));
          ttv_table_add_row_take (table, row);
        }
    }
  if (csv)
    ttv_table_append_csv (table, out);
  else if (format == TTV_ANALYSIS_FORMAT_TEXT && ttv_table_get_n_rows (table) == 0)
    g_string_append (out, _("The traces describe no binary: record the lttng_ust_statedump and lttng_ust_dl "
                            "events (LD_PRELOAD=liblttng-ust-dl.so) to name addresses.\n"));
  else if (format == TTV_ANALYSIS_FORMAT_TEXT)
    {
      g_string_append (out, _("Binaries of the traced processes, and where their symbols come from:\n"));
      ttv_table_append_text (table, out, "  ", o->max_rows);
    }
  return TRUE;
}

const TtvAnalysisClass ttv_symbols_analysis = {
  .name = "symbols",
  .title = N_("Binaries and symbols"),
  .description = N_("The binaries of the traced processes (lttng_ust_statedump and lttng_ust_dl events) and "
                    "where their symbols are on this machine (text, jsonl, csv)"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV),
  .attach = symbols_attach,
  .finish = symbols_finish,
  .free = symbols_free,
  .write = symbols_write,
};

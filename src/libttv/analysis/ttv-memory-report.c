/* ttv-memory-report.c: ttv-report --analysis memory: the processes'
 * allocations, bytes in use and peak, and the potential leaks by call site
 * (text), every process, leak group, leak and change of usage (JSON
 * lines), or the leaks as CSV. */
#include "ttv-memory-private.h"

#include "ttv-analysis-output.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>

static char *
count (guint64 n)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, n);
}

static const char *
machine_name (const TtvMemory *m, const TtvMemoryProcess *p)
{
  return ttv_traceset_get_machine_name_if_several (ttv_memory_get_traceset (m), p->machine);
}

/* The machine column's heading when the traces hold several machines. */
static const char *
machine_heading (const TtvMemory *m, const char *heading)
{
  return ttv_traceset_get_n_machines (ttv_memory_get_traceset (m)) > 1 ? heading : NULL;
}

static char *
process_label (const TtvMemoryProcess *p)
{
  if (p->pid == TTV_PID_NONE)
    return g_strdup (*p->name ? p->name : "?");
  return *p->name ? g_strdup_printf ("%s [%u]", p->name, p->pid) : g_strdup_printf ("[%u]", p->pid);
}

static void
text_processes (const TtvMemory *m, GString *out, guint max_rows)
{
  const char *headings[] = { _("PROCESS"), _(">ALLOCATIONS"), _(">FREES"), _(">FREES OF UNKNOWN BLOCKS"),
                             _(">FAILURES"), _(">BYTES ASKED"), _(">PEAK IN USE"), _(">IN USE AT END"),
                             _(">BLOCKS NEVER FREED") };
  g_autoptr (TtvTable) table = ttv_table_new_after (machine_heading (m, _("MACHINE")), G_N_ELEMENTS (headings),
                                                    headings);
  for (guint i = 0; i < ttv_memory_get_n_processes (m); i++)
    {
      const TtvMemoryProcess *p = ttv_memory_get_process (m, i);
      GPtrArray *row = ttv_table_row_new (machine_name (m, p));
      g_ptr_array_add (row, process_label (p));
      g_ptr_array_add (row, count (p->n_allocations + p->n_reallocations));
      g_ptr_array_add (row, count (p->n_frees));
      g_ptr_array_add (row, count (p->n_unknown_frees));
      g_ptr_array_add (row, count (p->n_failures));
      g_ptr_array_add (row, count (p->bytes_allocated));
      g_ptr_array_add (row, count (p->peak));
      g_ptr_array_add (row, count (p->in_use_at_end));
      g_ptr_array_add (row, count (p->n_leaks));
      ttv_table_add_row_take (table, row);
    }
  ttv_table_append_text (table, out, "  ", max_rows);
}

static void
text_leaks (const TtvMemory *m, GString *out, guint max_rows)
{
  g_autoptr (GArray) groups = ttv_memory_dup_leak_groups (m);
  guint64 kept_blocks = 0, kept_bytes = 0;
  const char *headings[] = { _("PROCESS"), _(">BLOCKS"), _(">BYTES"), _("ALLOCATED AT") };
  g_autoptr (TtvTable) table = ttv_table_new_after (machine_heading (m, _("MACHINE")), G_N_ELEMENTS (headings),
                                                    headings);
  for (guint i = 0; i < groups->len; i++)
    {
      const TtvMemoryLeakGroup *g = &g_array_index (groups, TtvMemoryLeakGroup, i);
      if (ttv_memory_get_site (m, g->site)->owner != TTV_MEMORY_OWNER_PROGRAM)
        {
          kept_blocks += g->count;
          kept_bytes += g->bytes;
          continue;
        }
      const TtvMemoryProcess *p = ttv_memory_get_process (m, g->process);
      GPtrArray *row = ttv_table_row_new (machine_name (m, p));
      g_ptr_array_add (row, process_label (p));
      g_ptr_array_add (row, count (g->count));
      g_ptr_array_add (row, count (g->bytes));
      g_ptr_array_add (row, g_strdup (ttv_memory_get_site (m, g->site)->name));
      ttv_table_add_row_take (table, row);
    }
  if (ttv_table_get_n_rows (table) == 0)
    g_string_append (out, _("\nNo potential leak: every block the program allocated in the trace was freed.\n"));
  else
    {
      g_string_append (out, _("\nPotential leaks (blocks still allocated when the trace ends), by call site:\n"));
      ttv_table_append_text (table, out, "  ", max_rows);
    }
  if (kept_blocks)
    g_string_append_printf (out, _("(The dynamic loader and the tracer's own libraries kept %" PRIu64
                                   " blocks, %" PRIu64 " bytes: not counted as leaks.)\n"),
                            kept_blocks, kept_bytes);
}

static void
write_text (const TtvMemory *m, const TtvAnalysisOptions *options, GString *out)
{
  if (ttv_memory_get_n_processes (m) == 0)
    {
      g_string_append (out, _("No lttng_ust_libc events: trace the program under "
                              "LD_PRELOAD=liblttng-ust-libc-wrapper.so.\n"));
      return;
    }
  g_string_append (out, _("Memory per process (bytes the program asked for):\n"));
  text_processes (m, out, options->max_rows);
  text_leaks (m, out, options->max_rows);
}

static void
json_site (const TtvMemory *m, guint32 site, GString *out)
{
  static const char *const kinds[] = { "unknown", "ip", "function" };
  const TtvMemorySite *s = ttv_memory_get_site (m, site);
  g_autofree char *addr = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", s->addr);
  ttv_json_append_member_string (out, "site", s->name);
  ttv_json_append_member_string (out, "site_kind", kinds[s->kind]);
  ttv_json_append_member_string (out, "site_address", s->kind == TTV_MEMORY_SITE_UNKNOWN ? NULL : addr);
  ttv_json_append_member_string (out, "function", s->function);
  ttv_json_append_member_string (out, "file", s->file);
  ttv_json_append_member_int (out, "line", s->line);
  ttv_json_append_member_string (out, "binary", s->binary);
  static const char *const owners[] = { "program", "loader", "tracer" };
  ttv_json_append_member_string (out, "owner", owners[s->owner]);
}

static void
json_process_id (const TtvMemory *m, const TtvMemoryProcess *p, GString *out)
{
  const char *machine = machine_name (m, p);
  if (machine)
    ttv_json_append_member_string (out, TTV_ANALYSIS_MACHINE_COLUMN, machine);
  ttv_json_append_member_int (out, "pid", p->pid == TTV_PID_NONE ? -1 : (gint64) p->pid);
  ttv_json_append_member_string (out, "process", p->name);
}

static void
write_jsonl (const TtvMemory *m, const TtvAnalysisOptions *options, GString *out)
{
  TtvTime t0, t1;
  ttv_analysis_options_get_range (options, ttv_memory_get_traceset (m), &t0, &t1);
  for (guint i = 0; i < ttv_memory_get_n_processes (m); i++)
    {
      const TtvMemoryProcess *p = ttv_memory_get_process (m, i);
      g_string_append (out, "{\"type\":\"process\"");
      json_process_id (m, p, out);
      ttv_json_append_member_int (out, "allocations", (gint64) p->n_allocations);
      ttv_json_append_member_int (out, "reallocations", (gint64) p->n_reallocations);
      ttv_json_append_member_int (out, "frees", (gint64) p->n_frees);
      ttv_json_append_member_int (out, "unknown_frees", (gint64) p->n_unknown_frees);
      ttv_json_append_member_int (out, "failures", (gint64) p->n_failures);
      ttv_json_append_member_int (out, "bytes_allocated", (gint64) p->bytes_allocated);
      ttv_json_append_member_int (out, "peak", (gint64) p->peak);
      ttv_json_append_member_int (out, "peak_time", p->peak_time);
      ttv_json_append_member_int (out, "in_use_at_end", (gint64) p->in_use_at_end);
      ttv_json_append_member_int (out, "leaks", (gint64) p->n_leaks);
      ttv_json_append_member_int (out, "kept_blocks", (gint64) p->n_kept_blocks);
      g_string_append (out, "}\n");
    }
  g_autoptr (GArray) groups = ttv_memory_dup_leak_groups (m);
  for (guint i = 0; i < groups->len; i++)
    {
      const TtvMemoryLeakGroup *g = &g_array_index (groups, TtvMemoryLeakGroup, i);
      g_string_append (out, "{\"type\":\"leak_site\"");
      json_process_id (m, ttv_memory_get_process (m, g->process), out);
      ttv_json_append_member_int (out, "blocks", (gint64) g->count);
      ttv_json_append_member_int (out, "bytes", (gint64) g->bytes);
      json_site (m, g->site, out);
      g_string_append (out, "}\n");
    }
  g_autoptr (GArray) leaks = ttv_memory_dup_leaks (m);
  for (guint i = 0; i < leaks->len; i++)
    {
      const TtvMemoryLeak *l = &g_array_index (leaks, TtvMemoryLeak, i);
      g_autofree char *ptr = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", l->ptr);
      g_string_append (out, "{\"type\":\"leak\"");
      json_process_id (m, ttv_memory_get_process (m, l->process), out);
      ttv_json_append_member_int (out, "tid", l->tid == TTV_PID_NONE ? -1 : (gint64) l->tid);
      ttv_json_append_member_string (out, "ptr", ptr);
      ttv_json_append_member_int (out, "size", (gint64) l->size);
      ttv_json_append_member_int (out, "time", l->time);
      json_site (m, l->site, out);
      g_string_append (out, "}\n");
    }
  for (guint i = 0; i < ttv_memory_get_n_processes (m); i++)
    {
      g_autoptr (GArray) usage = ttv_memory_dup_usage (m, i, t0, t1);
      /* The value at t0, then every change up to t1. */
      for (guint k = 0; k < usage->len; k++)
        {
          const TtvMemoryPoint *pt = &g_array_index (usage, TtvMemoryPoint, k);
          g_string_append (out, "{\"type\":\"usage\"");
          json_process_id (m, ttv_memory_get_process (m, i), out);
          ttv_json_append_member_int (out, "time", pt->time);
          ttv_json_append_member_int (out, "bytes", (gint64) pt->bytes);
          g_string_append (out, "}\n");
        }
    }
}

static void
write_csv (const TtvMemory *m, GString *out)
{
  const char *headings[] = { "pid", "process", "tid", "ptr", "size", "time", "site", "function", "file", "line",
                             "binary" };
  g_autoptr (TtvTable) table = ttv_table_new_after (machine_heading (m, TTV_ANALYSIS_MACHINE_COLUMN),
                                                    G_N_ELEMENTS (headings), headings);
  g_autoptr (GArray) leaks = ttv_memory_dup_leaks (m);
  for (guint i = 0; i < leaks->len; i++)
    {
      const TtvMemoryLeak *l = &g_array_index (leaks, TtvMemoryLeak, i);
      const TtvMemoryProcess *p = ttv_memory_get_process (m, l->process);
      const TtvMemorySite *s = ttv_memory_get_site (m, l->site);
      GPtrArray *row = ttv_table_row_new (machine_name (m, p));
      g_ptr_array_add (row, p->pid == TTV_PID_NONE ? g_strdup ("") : g_strdup_printf ("%u", p->pid));
      g_ptr_array_add (row, g_strdup (p->name));
      g_ptr_array_add (row, l->tid == TTV_PID_NONE ? g_strdup ("") : g_strdup_printf ("%u", l->tid));
      g_ptr_array_add (row, g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", l->ptr));
      g_ptr_array_add (row, count (l->size));
      g_ptr_array_add (row, g_strdup_printf ("%" G_GINT64_FORMAT, l->time));
      g_ptr_array_add (row, g_strdup (s->name));
      g_ptr_array_add (row, g_strdup (s->function ? s->function : ""));
      g_ptr_array_add (row, g_strdup (s->file ? s->file : ""));
      g_ptr_array_add (row, s->line ? g_strdup_printf ("%u", s->line) : g_strdup (""));
      g_ptr_array_add (row, g_strdup (s->binary ? s->binary : ""));
      ttv_table_add_row_take (table, row);
    }
  ttv_table_append_csv (table, out);
}

gboolean
ttv_memory_write (gpointer self, TtvAnalysisFormat format, const TtvAnalysisOptions *options, GString *out,
                  GError **error)
{
  const TtvMemory *m = self;
  if (options->one_thread)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("--analysis memory reports per process: --tid does not apply"));
      return FALSE;
    }
  if (format == TTV_ANALYSIS_FORMAT_TEXT)
    write_text (m, options, out);
  else if (format == TTV_ANALYSIS_FORMAT_JSONL)
    write_jsonl (m, options, out);
  else
    write_csv (m, out);
  return TRUE;
}

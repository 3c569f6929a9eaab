/* ttv-ltt-format.c: the LTT reader's TtvFormatClass: probe, open (system.xml,
 * eventdefs, control files, cpu block indexes), cursors, payload decoding. */
#include "ttv-ltt-private.h"
#include "ttv-regular-file.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static guint
ltt_probe (const char *path)
{
  g_autofree char *sys = g_build_filename (path, "info", "system.xml", NULL);
  g_autofree char *defs = g_build_filename (path, "eventdefs", NULL);
  if (!g_file_test (defs, G_FILE_TEST_IS_DIR))
    return 0;
  if (g_file_test (sys, G_FILE_TEST_IS_REGULAR))
    return 90;
  /* An LTT trace that lost its system.xml: claim it so that open() says so. */
  g_autofree char *cpu = g_build_filename (path, "cpu", NULL);
  g_autofree char *control = g_build_filename (path, "control", NULL);
  if (g_file_test (cpu, G_FILE_TEST_IS_DIR) || g_file_test (control, G_FILE_TEST_IS_DIR))
    return 30;
  return 0;
}

static void
ltt_free_priv (TtvTrace *trace)
{
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (trace->tracefiles, i);
      g_clear_pointer ((TtvLttFile **) &tf->priv, ttv_ltt_file_free);
    }
  TtvLttTrace *lt = trace->priv;
  if (lt == NULL)
    return;
  ttv_ltt_control_clear (lt);
  if (lt->facilities)
    g_ptr_array_unref (lt->facilities);
  g_free (lt);
  trace->priv = NULL;
}

typedef struct {
  guint64 cpu;
  char *name;
} CpuFile;

static int
compare_cpu (gconstpointer a, gconstpointer b)
{
  guint64 x = ((const CpuFile *) a)->cpu, y = ((const CpuFile *) b)->cpu;
  return x < y ? -1 : x > y;
}

/* A CPU's file that is not a regular file (a FIFO, a device, a folder, a
 * link loop) or is empty lost its events: said, and not read. */
static gboolean
cpu_file_is_readable (TtvTrace *trace, const char *path)
{
  guint64 size = 0;
  g_autofree char *problem = ttv_regular_file_dup_problem (path, &size);
  if (problem)
    ttv_trace_add_damage_warning (trace, _("%s; not read as a CPU's events"), problem);
  else if (size == 0)
    ttv_trace_add_damage_warning (trace, _("%s is empty: the CPU's events are missing"), path);
  return problem == NULL && size > 0;
}

/* Whether the first events of @f are the control events a control file
 * holds and a CPU's file does not (a control file copied over a CPU's). */
static gboolean
looks_like_control_file (TtvLttFile *f, const TtvLttTrace *lt)
{
  TtvLttCursor c = { 0 };
  TtvTracefile tf = { 0 };
  TtvEvent ev;
  gboolean control = TRUE;
  guint seen = 0;

  if (f->blocks->len == 0)
    return FALSE;
  c.parent.tracefile = &tf;
  ttv_ltt_cursor_init (&c, f, lt->codes, lt->n_codes);
  /* facility_load is not delivered: a cursor over a facilities file
   * delivers nothing at all. */
  g_autoptr (GError) error = NULL;
  while (control && seen < 16 && ttv_ltt_cursor_next (&c.parent, &ev, &error))
    {
      control = ev.type && (g_strcmp0 (ev.type->name, "process") == 0
                            || g_strcmp0 (ev.type->name, "interrupt") == 0);
      seen++;
    }
  ttv_ltt_cursor_clear (&c);
  /* Damage is for the reader to report where it is. */
  return control && error == NULL;
}

/* CPU files that system.xml says the trace has and that are not there.
 * Its cpu= is the number of CPU slots (ttv's writer: the highest CPU id +
 * 1, CPU files may be sparse below it; seed 000 leaves it open whether it
 * is rather the number of CPUs, ids sparse).  Under either reading, no
 * file at or above cpu= - 1 means that file is lost, and maybe those
 * between it and the highest one there; other gaps may be CPUs that do
 * not exist.  A tail warning: a trace still being written may not have a
 * CPU's file yet. */
static void
warn_missing_cpu_files (TtvTrace *trace, const char *dir, const GArray *files, guint n_cpu)
{
  gint64 highest = files->len ? (gint64) g_array_index (files, CpuFile, files->len - 1).cpu : -1;
  if (n_cpu == 0 || highest >= (gint64) n_cpu - 1)
    return;
  g_autofree char *last = g_strdup_printf ("%s/%u", dir, n_cpu - 1);
  g_autofree char *after = g_strdup_printf ("%s/%" G_GINT64_FORMAT, dir, highest + 1);
  if (highest + 1 == (gint64) n_cpu - 1)
    ttv_trace_add_tail_damage_warning (trace, _("%s is missing, but system.xml says the trace has %u CPUs "
                                                "(cpu=\"%u\"): the CPU's events are lost"), last, n_cpu, n_cpu);
  else
    ttv_trace_add_tail_damage_warning (trace, _("%s is missing, and maybe the CPU files from %s on, but "
                                                "system.xml says the trace has %u CPUs (cpu=\"%u\"): their "
                                                "events are lost"), last, after, n_cpu, n_cpu);
}

static gboolean
open_cpu_files (TtvTrace *trace, TtvLttTrace *lt, GError **error)
{
  g_autofree char *dir = g_build_filename (trace->path, "cpu", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GArray) files = g_array_new (FALSE, FALSE, sizeof (CpuFile));
  if (d == NULL)
    {
      if (lt->sys.n_cpu)
        warn_missing_cpu_files (trace, dir, files, lt->sys.n_cpu);
      else
        ttv_trace_add_warning (trace, _("%s: no cpu directory: the trace has no events"), dir);
      return TRUE;
    }
  const char *name;
  while ((name = g_dir_read_name (d)))
    {
      guint64 cpu;
      if (!g_ascii_string_to_unsigned (name, 10, 0, 1u << 20, &cpu, NULL))
        {
          ttv_trace_add_warning (trace, _("%s/%s: not a CPU number, ignored"), dir, name);
          continue;
        }
      CpuFile cf = { cpu, g_strdup (name) };
      g_array_append_val (files, cf);
    }
  g_array_sort (files, compare_cpu);
  warn_missing_cpu_files (trace, dir, files, lt->sys.n_cpu);
  gboolean ok = TRUE;
  for (guint i = 0; i < files->len; i++)
    {
      CpuFile *cf = &g_array_index (files, CpuFile, i);
      if (ok)
        {
          g_autofree char *path = g_build_filename (dir, cf->name, NULL);
          if (lt->sys.n_cpu && cf->cpu >= lt->sys.n_cpu)
            ttv_trace_add_warning (trace, _("%s: CPU %" PRIu64 " is beyond system.xml "
                                            "cpu=%u"), path, cf->cpu, lt->sys.n_cpu);
          if (!cpu_file_is_readable (trace, path))
            {
              g_free (cf->name);
              continue;
            }
          TtvLttFile *f = ttv_ltt_file_open (path, &lt->sys, trace, error);
          if (f == NULL)
            ok = FALSE;
          else if (looks_like_control_file (f, lt))
            {
              ttv_trace_add_damage_warning (trace, _("%s holds only control events (facility_load, process, "
                                                     "interrupt), as a control file does, and no event of "
                                                     "a CPU; not read"), path);
              ttv_ltt_file_free (f);
            }
          else
            {
              g_autofree char *tname = g_strdup_printf ("cpu/%" G_GUINT64_FORMAT, cf->cpu);
              ttv_ltt_tracefile_fill (ttv_trace_add_tracefile (trace, tname, (gint) cf->cpu), f);
              if (f->blocks->len && f->min_block_id != 0)
                {
                  trace->flags |= TTV_TRACE_FLAG_BEGINNING_MISSING;
                  ttv_trace_add_warning (trace, _("%s: the beginning of the trace is missing: blocks "
                                                  "0 to %u were overwritten (flight recorder)"),
                                         path, f->min_block_id - 1);
                }
            }
        }
      g_free (cf->name);
    }
  return ok;
}

static gboolean
ltt_open (TtvTrace *trace, GError **error)
{
  TtvLttTrace *lt = g_new0 (TtvLttTrace, 1);
  trace->priv = lt;
  lt->facilities = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_ltt_facility_free);
  g_autofree char *sys = g_build_filename (trace->path, "info", "system.xml", NULL);
  g_autofree char *defs = g_build_filename (trace->path, "eventdefs", NULL);
  if (!ttv_ltt_system_read (sys, trace, &lt->sys, error)
      || !ttv_ltt_eventdefs_read_dir (defs, &lt->sys, lt->facilities, error)
      || !ttv_ltt_control_load_facilities (trace, lt, error)
      || !open_cpu_files (trace, lt, error)
      || !ttv_ltt_control_load_state (trace, lt, error))
    {
      ltt_free_priv (trace);
      return FALSE;
    }
  return TRUE;
}

static void
ltt_close (TtvTrace *trace)
{
  ltt_free_priv (trace);
}

TtvCursor *
ttv_ltt_cursor_new (TtvTracefile *tf, GError **error)
{
  TtvLttTrace *lt = tf->trace->priv;
  TtvLttCursor *c = g_new0 (TtvLttCursor, 1);
  c->parent.tracefile = tf;
  ttv_ltt_cursor_init (c, tf->priv, lt->codes, lt->n_codes);
  return &c->parent;
}

void
ttv_ltt_cursor_free (TtvCursor *cursor)
{
  TtvLttCursor *c = (TtvLttCursor *) cursor;
  ttv_ltt_cursor_clear (c);
  g_free (c);
}

static gint32
ltt_decode_fields (const TtvEvent *ev, TtvDecoder *decoder, GError **error)
{
  guint64 bit = ev->payload_bit;
  g_autoptr (GError) local = NULL;
  gint32 root = ttv_decoder_decode (decoder, ev->type->fields, "event.fields", ev->data,
                                    ev->data_bits, &bit, &local);
  if (root < 0)
    {
      const TtvLttFile *f = ev->tracefile->priv;
      const TtvLttBlock *blk = &g_array_index (f->blocks, TtvLttBlock, ev->pos.block);
      g_set_error (error, local->domain, local->code,
                   _("%s: event at byte offset %" PRIu64 ": %s"), f->path,
                   blk->slot * f->block_size + ev->pos.offset, local->message);
    }
  return root;
}

static const GArray *
ltt_get_processes (const TtvTrace *trace)
{
  if (trace == NULL || trace->format != &ttv_ltt_format_class || trace->priv == NULL)
    return NULL;
  return ((TtvLttTrace *) trace->priv)->processes;
}

static const GArray *
ltt_get_interrupts (const TtvTrace *trace)
{
  if (trace == NULL || trace->format != &ttv_ltt_format_class || trace->priv == NULL)
    return NULL;
  return ((TtvLttTrace *) trace->priv)->interrupts;
}

static TtvTime
ltt_block_start (const TtvTracefile *tf, guint64 block)
{
  const TtvLttFile *f = tf->priv;
  return g_array_index (f->blocks, TtvLttBlock, block).start;
}

const TtvFormatClass ttv_ltt_format_class = {
  .name = "ltt",
  .description = N_("LTT trace (Linux Trace Toolkit; eventdefs, info/system.xml and cpu/N)"),
  .probe = ltt_probe,
  .open = ltt_open,
  .close = ltt_close,
  .cursor_new = ttv_ltt_cursor_new,
  .cursor_free = ttv_ltt_cursor_free,
  .cursor_next = ttv_ltt_cursor_next,
  .cursor_next_kept = ttv_ltt_cursor_next_kept,
  .cursor_seek_time = ttv_ltt_cursor_seek_time,
  .cursor_seek_position = ttv_ltt_cursor_seek_position,
  .cursor_skip_block = ttv_ltt_cursor_skip_block,
  .cycles_to_time = ttv_ltt_cycles_to_time,
  .decode_fields = ltt_decode_fields,
  .get_processes = ltt_get_processes,
  .get_interrupts = ltt_get_interrupts,
  .refresh = ttv_ltt_refresh,
  .block_start = ltt_block_start,
};

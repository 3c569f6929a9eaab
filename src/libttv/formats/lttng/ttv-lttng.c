/* ttv-lttng.c: the LTTng 0.x reader's format class: probe, open and close.
 * Passes: layout (bytes), index (blocks), facilities (event types), cursor. */
#include "ttv-lttng.h"
#include "ttv-lttng-private.h"
#include "ttv-regular-file.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "PREFIXN" with N decimal without leading zeros; returns N or -1. */
static gint
number_after (const char *name, const char *prefix)
{
  if (!g_str_has_prefix (name, prefix))
    return -1;
  const char *n = name + strlen (prefix);
  if (!g_ascii_isdigit (n[0]) || (n[0] == '0' && n[1] != '\0') || strlen (n) > 6)
    return -1;
  for (const char *p = n; *p; p++)
    if (!g_ascii_isdigit (*p))
      return -1;
  return atoi (n);
}

/* "cpu_N": N, else -1. */
static gint
cpu_number (const char *name)
{
  return number_after (name, "cpu_");
}

static gint
compare_int (gconstpointer a, gconstpointer b)
{
  gint x = *(const gint *) a, y = *(const gint *) b;
  return x < y ? -1 : x > y;
}

GArray *
ttv_lttng_list_cpus (const char *dir)
{
  GArray *cpus = g_array_new (FALSE, FALSE, sizeof (gint));
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      gint n = cpu_number (name);
      if (n < 0)
        continue;
      g_autofree char *path = g_build_filename (dir, name, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_array_append_val (cpus, n);
    }
  g_array_sort (cpus, compare_int);
  return cpus;
}

static gboolean
has_facilities (const char *dir)
{
  g_autofree char *control = g_build_filename (dir, "control", NULL);
  g_autoptr (GDir) d = g_dir_open (control, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, "facilities_"))
      return TRUE;
  return FALSE;
}

static guint
lttng_probe (const char *path)
{
  g_autoptr (GArray) cpus = ttv_lttng_list_cpus (path);
  if (cpus->len == 0 || !has_facilities (path))
    return 0;
  /* The layout is ours; a bad magic still picks us (score 50) so that
   * opening tells the user what is wrong with the file. */
  g_autofree char *name = g_strdup_printf ("cpu_%d", g_array_index (cpus, gint, 0));
  g_autofree char *file = g_build_filename (path, name, NULL);
  guint8 head[TTV_LTTNG_OFF_MAGIC + 4];
  FILE *fp = fopen (file, "rb");
  gboolean ok = fp && fread (head, 1, sizeof head, fp) == sizeof head;
  if (fp)
    fclose (fp);
  if (!ok)
    return 50;
  guint32 le = (guint32) ttv_read_bits (head, TTV_LTTNG_OFF_MAGIC * 8, 32, TTV_BYTE_ORDER_LITTLE);
  return le == TTV_LTTNG_MAGIC || GUINT32_SWAP_LE_BE (le) == TTV_LTTNG_MAGIC ? 90 : 50;
}

static void
lttng_trace_free (TtvLttngTrace *p)
{
  if (p == NULL)
    return;
  for (guint i = 0; i < 256; i++)
    g_free (p->by_id[i]);
  g_ptr_array_unref (p->files);
  if (p->processes)
    g_array_unref (p->processes);
  if (p->interrupts)
    g_array_unref (p->interrupts);
  g_free (p);
}

static void
lttng_close (TtvTrace *trace)
{
  lttng_trace_free (trace->priv);
  trace->priv = NULL;
  for (guint i = 0; i < trace->tracefiles->len; i++)
    ((TtvTracefile *) g_ptr_array_index (trace->tracefiles, i))->priv = NULL;
}

static void
set_info_uint (TtvTrace *trace, const char *key, guint64 value)
{
  g_autofree char *v = g_strdup_printf ("%" G_GUINT64_FORMAT, value);
  ttv_trace_set_info (trace, key, v);
}

static void
set_info (TtvTrace *trace, const TtvLttngHeader *h)
{
  ttv_trace_set_info (trace, "tracer", "LTTng 0.x");
  ttv_trace_set_info (trace, "byte_order", h->byte_order == TTV_BYTE_ORDER_LITTLE ? "little" : "big");
  set_info_uint (trace, "arch_type", h->arch_type);
  set_info_uint (trace, "arch_variant", h->arch_variant);
  set_info_uint (trace, "float_word_order", h->float_word_order);
  set_info_uint (trace, "arch_size", h->arch_size);
  g_autofree char *version = g_strdup_printf ("%u.%u", h->major_version, h->minor_version);
  ttv_trace_set_info (trace, "version", version);
  set_info_uint (trace, "flight_recorder", h->flight_recorder);
  set_info_uint (trace, "has_heartbeat", h->has_heartbeat);
  set_info_uint (trace, "alignment", h->alignment);
  set_info_uint (trace, "freq_scale", h->freq_scale);
  set_info_uint (trace, "start_freq", h->start_freq);
  set_info_uint (trace, "start_tsc", h->start_tsc);
  g_autofree char *start = g_strdup_printf ("%u.%09u", h->start_sec, h->start_nsec);
  ttv_trace_set_info (trace, "start_time", start);
}

void
ttv_lttng_tracefile_fill (TtvTracefile *tf, TtvLttngFile *f)
{
  tf->priv = f;
  tf->size = f->size;
  tf->n_blocks = f->blocks->len;
  tf->start = TTV_TIME_MAX;
  tf->end = TTV_TIME_MIN;
  if (f->blocks->len)
    {
      tf->start = g_array_index (f->blocks, TtvLttngBlock, 0).begin_time;
      tf->end = g_array_index (f->blocks, TtvLttngBlock, f->blocks->len - 1).end_time;
    }
}

/* The cpu_N entries that ttv_lttng_list_cpus leaves out because they are
 * not regular files (a FIFO, a device, a folder, a link loop): their
 * events are lost, which the trace says. */
static void
warn_unreadable_cpus (TtvTrace *trace)
{
  g_autoptr (GDir) d = g_dir_open (trace->path, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      if (cpu_number (name) < 0)
        continue;
      g_autofree char *path = g_build_filename (trace->path, name, NULL);
      g_autofree char *problem = ttv_regular_file_dup_problem (path, NULL);
      if (problem)
        ttv_trace_add_damage_warning (trace, _("%s; not read as a CPU's events"), problem);
    }
}

/* The CPU of control file @name ("<channel>_N" for the channels of
 * docs/lttng-format.md), else -1. */
static gint
control_cpu_number (const char *name)
{
  static const char *const channels[] = { "facilities_", "interrupts_", "modules_", "network_", "processes_" };
  for (guint i = 0; i < G_N_ELEMENTS (channels); i++)
    if (g_str_has_prefix (name, channels[i]))
      return number_after (name, channels[i]);
  return -1;
}

/* LTTng 0.x writes, for each CPU it traces, cpu_N and control/<channel>_N:
 * a CPU with control files and no cpu_N lost its events.  A tail
 * warning: a trace still being written may not have the file yet. */
static void
warn_missing_cpus (TtvTrace *trace)
{
  g_autofree char *control = g_build_filename (trace->path, "control", NULL);
  g_autoptr (GDir) d = g_dir_open (control, 0, NULL);
  g_autoptr (GArray) cpus = g_array_new (FALSE, FALSE, sizeof (gint));
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      gint n = control_cpu_number (name);
      if (n >= 0)
        g_array_append_val (cpus, n);
    }
  g_array_sort (cpus, compare_int);
  for (guint i = 0; i < cpus->len; i++)
    {
      gint n = g_array_index (cpus, gint, i);
      if (i > 0 && n == g_array_index (cpus, gint, i - 1))
        continue;
      g_autofree char *cpu_name = g_strdup_printf ("cpu_%d", n);
      g_autofree char *path = g_build_filename (trace->path, cpu_name, NULL);
      GStatBuf st;
      if (g_lstat (path, &st) != 0 && errno == ENOENT)
        ttv_trace_add_tail_damage_warning (trace, _("%s is missing, but %s holds files of CPU %d (LTTng 0.x "
                                                    "writes cpu_N for each CPU it traces): the CPU's events "
                                                    "are lost"), path, control, n);
    }
}

static gboolean
lttng_open (TtvTrace *trace, GError **error)
{
  warn_unreadable_cpus (trace);
  warn_missing_cpus (trace);
  g_autoptr (GArray) cpus = ttv_lttng_list_cpus (trace->path);
  if (cpus->len == 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_MISSING,
                   _("%s: no cpu_N tracefile"), trace->path);
      return FALSE;
    }
  TtvLttngTrace *priv = g_new0 (TtvLttngTrace, 1);
  priv->files = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_lttng_file_free);
  trace->priv = priv;
  gboolean flight = FALSE;
  for (guint i = 0; i < cpus->len; i++)
    {
      gint cpu = g_array_index (cpus, gint, i);
      g_autofree char *name = g_strdup_printf ("cpu_%d", cpu);
      g_autofree char *path = g_build_filename (trace->path, name, NULL);
      TtvLttngFile *f = ttv_lttng_file_open (path, error);
      if (f == NULL)
        goto fail;
      g_ptr_array_add (priv->files, f);
      if (i == 0)
        {
          priv->layout = f->layout;
          set_info (trace, &f->first);
        }
      else if (!ttv_lttng_layout_equal (&f->layout, &priv->layout))
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                       _("%s: the trace header at byte offset 0 differs from the one of cpu_%d "
                         "(byte order, arch_size, alignment, heartbeat or clock)"),
                       path, g_array_index (cpus, gint, 0));
          goto fail;
        }
      flight |= f->first.flight_recorder != 0;
    }
  if (!ttv_lttng_facilities_read (trace, priv, FALSE, NULL, error) || !ttv_lttng_control_read (trace, priv, error))
    goto fail;
  for (guint i = 0; i < cpus->len; i++)
    {
      gint cpu = g_array_index (cpus, gint, i);
      TtvLttngFile *f = g_ptr_array_index (priv->files, i);
      g_autofree char *name = g_strdup_printf ("cpu_%d", cpu);
      ttv_lttng_tracefile_fill (ttv_trace_add_tracefile (trace, name, cpu), f);
    }
  if (flight)
    {
      trace->flags |= TTV_TRACE_FLAG_BEGINNING_MISSING;
      ttv_trace_add_warning (trace, _("%s: recorded in flight recorder mode: the oldest blocks "
                                      "may have been overwritten, so the beginning of the trace "
                                      "may be missing"),
                             trace->path);
    }
  return TRUE;

fail:
  lttng_close (trace);
  return FALSE;
}

static TtvTime
lttng_block_start (const TtvTracefile *tf, guint64 block)
{
  const TtvLttngFile *f = tf->priv;
  return g_array_index (f->blocks, TtvLttngBlock, block).begin_time;
}

const TtvFormatClass ttv_lttng_format_class = {
  .name = "lttng",
  .description = N_("LTTng 0.x trace (2008; cpu_N and control/facilities_N)"),
  .probe = lttng_probe,
  .open = lttng_open,
  .close = lttng_close,
  .cursor_new = ttv_lttng_cursor_new,
  .cursor_free = ttv_lttng_cursor_free,
  .cursor_next = ttv_lttng_cursor_next,
  .cursor_seek_time = ttv_lttng_cursor_seek_time,
  .cursor_seek_position = ttv_lttng_cursor_seek_position,
  .cursor_skip_block = ttv_lttng_cursor_skip_block,
  .cycles_to_time = ttv_lttng_cycles_to_time_of_trace,
  .get_processes = ttv_lttng_control_get_processes,
  .get_interrupts = ttv_lttng_control_get_interrupts,
  .decode_fields = ttv_lttng_decode_fields,
  .refresh = ttv_lttng_refresh,
  .block_start = lttng_block_start,
};

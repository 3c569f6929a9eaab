/* ttv-ltt-refresh.c: the LTT reader's refresh for traces still being
 * written (ttv-report --follow): re-indexes cpu files that gained whole
 * blocks and adds cpu files that appeared.  Never called with live cursors. */
#include "ttv-ltt-private.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

static guint64
whole_blocks (const char *path, guint32 block_size)
{
  GStatBuf st;
  if (g_stat (path, &st) != 0 || st.st_size < 0)
    return 0;
  return (guint64) st.st_size / block_size;
}

gboolean
ttv_ltt_refresh (TtvTrace *trace, gboolean *changed, GError **error)
{
  TtvLttTrace *lt = trace->priv;
  *changed = FALSE;
  if (lt == NULL || lt->sys.block_size == 0)
    return TRUE;
  g_autoptr (GHashTable) known = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (trace->tracefiles, i);
      TtvLttFile *f = tf->priv;
      if (tf->cpu < 0 || f == NULL)
        continue;
      g_hash_table_add (known, GINT_TO_POINTER (tf->cpu));
      if (whole_blocks (f->path, f->block_size) <= f->blocks->len)
        continue;
      /* The warnings were given at open; a growing file is expected here. */
      TtvLttFile *nf = ttv_ltt_file_open (f->path, &lt->sys, NULL, error);
      if (nf == NULL)
        return FALSE;
      ttv_ltt_file_free (f);
      ttv_ltt_tracefile_fill (tf, nf);
      *changed = TRUE;
    }

  g_autofree char *dir = g_build_filename (trace->path, "cpu", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  g_autoptr (GArray) added = g_array_new (FALSE, FALSE, sizeof (guint64));
  while (d && (name = g_dir_read_name (d)))
    {
      guint64 cpu;
      if (g_ascii_string_to_unsigned (name, 10, 0, 1u << 20, &cpu, NULL)
          && !g_hash_table_contains (known, GINT_TO_POINTER ((gint) cpu)))
        g_array_append_val (added, cpu);
    }
  /* New CPUs in number order, after the existing tracefiles. */
  for (guint i = 0; i < added->len; i++)
    for (guint j = i + 1; j < added->len; j++)
      if (g_array_index (added, guint64, j) < g_array_index (added, guint64, i))
        {
          guint64 t = g_array_index (added, guint64, i);
          g_array_index (added, guint64, i) = g_array_index (added, guint64, j);
          g_array_index (added, guint64, j) = t;
        }
  for (guint i = 0; i < added->len; i++)
    {
      guint64 cpu = g_array_index (added, guint64, i);
      g_autofree char *cname = g_strdup_printf ("%" G_GUINT64_FORMAT, cpu);
      g_autofree char *path = g_build_filename (dir, cname, NULL);
      if (whole_blocks (path, lt->sys.block_size) == 0)
        continue;                       /* nothing to read yet */
      TtvLttFile *f = ttv_ltt_file_open (path, &lt->sys, NULL, error);
      if (f == NULL)
        return FALSE;
      g_autofree char *tname = g_strdup_printf ("cpu/%" G_GUINT64_FORMAT, cpu);
      ttv_ltt_tracefile_fill (ttv_trace_add_tracefile (trace, tname, (gint) cpu), f);
      *changed = TRUE;
    }
  return TRUE;
}

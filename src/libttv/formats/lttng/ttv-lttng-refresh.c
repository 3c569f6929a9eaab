/* ttv-lttng-refresh.c: the LTTng 0.x reader's refresh for traces still being written
 * (ttv-report --follow): cpu_N files that gained whole blocks, new cpu_N files, new markers. */
#include "ttv-lttng-private.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

/* Opens the whole blocks of @path and checks that they agree with the trace. */
static TtvLttngFile *
open_live (TtvLttngTrace *lt, const char *path, GError **error)
{
  g_autoptr (TtvLttngFile) f = ttv_lttng_file_open_full (path, TRUE, error);
  if (f == NULL)
    return NULL;
  if (f->n_file_blocks > 0 && !ttv_lttng_layout_equal (&f->layout, &lt->layout))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: the trace header at byte offset 0 differs from the other cpu files' "
                     "(byte order, arch_size, alignment, heartbeat or clock)"),
                   path);
      return NULL;
    }
  return g_steal_pointer (&f);
}

static guint64
whole_blocks (const char *path, guint32 buf_size)
{
  GStatBuf st;
  if (buf_size == 0 || g_stat (path, &st) != 0 || st.st_size < 0)
    return 0;
  return (guint64) st.st_size / buf_size;
}

/* A value that changes when a control/facilities_N file appears or grows. */
static guint64
facilities_stamp (const char *trace_path)
{
  g_autofree char *control = g_build_filename (trace_path, "control", NULL);
  g_autoptr (GDir) d = g_dir_open (control, 0, NULL);
  const char *name;
  guint64 stamp = 1;
  while (d && (name = g_dir_read_name (d)))
    {
      if (!g_str_has_prefix (name, "facilities_"))
        continue;
      g_autofree char *path = g_build_filename (control, name, NULL);
      GStatBuf st;
      if (g_stat (path, &st) == 0)
        stamp = stamp * 1000003u + (guint64) st.st_size + g_str_hash (name);
    }
  return stamp;
}

gboolean
ttv_lttng_refresh (TtvTrace *trace, gboolean *changed, GError **error)
{
  TtvLttngTrace *lt = trace->priv;
  *changed = FALSE;
  if (lt == NULL)
    return TRUE;

  /* Markers first: new blocks may hold events of markers registered since. */
  guint64 stamp = facilities_stamp (trace->path);
  if (stamp != lt->facilities_stamp)
    {
      if (!ttv_lttng_facilities_read (trace, lt, TRUE, changed, error))
        return FALSE;
      lt->facilities_stamp = stamp;
    }

  g_autoptr (GHashTable) known = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < trace->tracefiles->len; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (trace->tracefiles, i);
      TtvLttngFile *f = tf->priv;
      g_hash_table_add (known, GINT_TO_POINTER (tf->cpu));
      if (f == NULL || whole_blocks (f->path, f->layout.buf_size) <= f->n_file_blocks)
        continue;
      TtvLttngFile *nf = open_live (lt, f->path, error);
      if (nf == NULL)
        return FALSE;
      /* priv->files owns the file: swap it in place. */
      guint slot = 0;
      if (g_ptr_array_find (lt->files, f, &slot))
        {
          g_ptr_array_index (lt->files, slot) = nf;
          ttv_lttng_file_free (f);
        }
      else
        g_ptr_array_add (lt->files, nf);
      ttv_lttng_tracefile_fill (tf, nf);
      *changed = TRUE;
    }

  /* New CPUs in number order, after the existing tracefiles. */
  g_autoptr (GArray) cpus = ttv_lttng_list_cpus (trace->path);
  for (guint i = 0; i < cpus->len; i++)
    {
      gint cpu = g_array_index (cpus, gint, i);
      if (g_hash_table_contains (known, GINT_TO_POINTER (cpu)))
        continue;
      g_autofree char *cname = g_strdup_printf ("cpu_%d", cpu);
      g_autofree char *path = g_build_filename (trace->path, cname, NULL);
      TtvLttngFile *f = open_live (lt, path, error);
      if (f == NULL)
        return FALSE;
      if (f->n_file_blocks == 0)
        {
          ttv_lttng_file_free (f);      /* nothing to read yet */
          continue;
        }
      g_ptr_array_add (lt->files, f);
      ttv_lttng_tracefile_fill (ttv_trace_add_tracefile (trace, cname, cpu), f);
      *changed = TRUE;
    }
  return TRUE;
}

/* ttv-session.c: LTTng session directories opened as one traceset (see the
 * header); ttv_traceset_add_path calls it for a directory that is no trace. */
#include "ttv-session.h"

#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

gboolean
ttv_session_is_trace_dir (const char *dir)
{
  for (const TtvFormatClass * const *f = ttv_formats_list (); *f; f++)
    if ((*f)->probe (dir) > 0)
      return TRUE;
  return FALSE;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static void
find_below (const char *root, const char *rel, guint depth_left, GPtrArray *out)
{
  g_autofree char *dir = rel ? g_build_filename (root, rel, NULL) : g_strdup (root);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)))
    if (name[0] != '.')
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    {
      const char *n = g_ptr_array_index (names, i);
      g_autofree char *child = g_build_filename (dir, n, NULL);
      GStatBuf st;
      if (g_lstat (child, &st) != 0 || !S_ISDIR (st.st_mode))
        continue;
      g_autofree char *child_rel = rel ? g_build_filename (rel, n, NULL) : g_strdup (n);
      if (ttv_session_is_trace_dir (child))
        g_ptr_array_add (out, g_steal_pointer (&child_rel));
      else if (depth_left > 1)
        find_below (root, child_rel, depth_left - 1, out);
    }
}

GPtrArray *
ttv_session_find_traces (const char *dir, guint max_depth)
{
  g_return_val_if_fail (dir != NULL, NULL);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  if (max_depth > 0)
    find_below (dir, NULL, max_depth, out);
  g_ptr_array_sort (out, compare_strings);
  return out;
}

gboolean
ttv_session_add_traces (TtvTraceset *ts, const char *dir, const char *display_root, GError **error)
{
  g_return_val_if_fail (ts != NULL && dir != NULL, FALSE);
  g_autoptr (GPtrArray) rels = ttv_session_find_traces (dir, TTV_SESSION_MAX_DEPTH);
  if (rels->len == 0)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNKNOWN_FORMAT,
                   _("%s: not a trace that ttv can read (no LTT info/system.xml, LTTng 0.x "
                     "cpu_N files or CTF metadata found, nor traces in subdirectories)"),
                   display_root ? display_root : dir);
      return FALSE;
    }
  g_autoptr (GPtrArray) traces = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_trace_close);
  for (guint i = 0; i < rels->len; i++)
    {
      const char *rel = g_ptr_array_index (rels, i);
      g_autofree char *path = g_build_filename (dir, rel, NULL);
      TtvTrace *t = ttv_trace_open (path, error);
      if (t == NULL)
        return FALSE;
      g_free (t->display_path);
      t->display_path = g_build_filename (display_root ? display_root : dir, rel, NULL);
      g_free (t->name);
      t->name = g_strdup (rel);
      t->session_rel = g_strdup (rel);
      g_ptr_array_add (traces, t);
    }
  for (guint i = 0; i < traces->len; i++)
    ttv_traceset_add_trace (ts, g_ptr_array_index (traces, i));
  /* The traceset owns them now. */
  g_ptr_array_set_free_func (traces, NULL);
  return TRUE;
}

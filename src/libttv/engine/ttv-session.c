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

/* The format that reads @dir best, or NULL. */
static const TtvFormatClass *
format_of (const char *dir)
{
  const TtvFormatClass *best = NULL;
  guint best_score = 0;
  for (const TtvFormatClass * const *f = ttv_formats_list (); *f; f++)
    {
      guint score = (*f)->probe (dir);
      if (score > best_score)
        best = *f, best_score = score;
    }
  return best;
}

/* Directories (relative paths) holding one trace. */
typedef struct {
  char *key;                 /* format name and identity, or the path alone */
  GPtrArray *rels;           /* of char *, weak (into the found list) */
} Group;

static void
group_free (Group *g)
{
  g_free (g->key);
  g_ptr_array_unref (g->rels);
  g_free (g);
}

/* The rels in groups of one identity, in order of first appearance. */
static GPtrArray *
group_traces (const char *dir, GPtrArray *rels)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);
  g_autoptr (GHashTable) by_key = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < rels->len; i++)
    {
      char *rel = g_ptr_array_index (rels, i);
      g_autofree char *path = g_build_filename (dir, rel, NULL);
      const TtvFormatClass *f = format_of (path);
      g_autofree char *id = f && f->identity ? f->identity (path) : NULL;
      /* The chunks of one trace end alike (CHUNK/ust/uid/1000/64-bit,
       * CHUNK/kernel): two traces that only share an identity (ttv-gen's
       * are deterministic) stay apart. */
      g_autofree char *base = g_path_get_basename (rel);
      char *key = id ? g_strconcat (f->name, "|", id, "|", base, NULL) : g_strconcat ("path|", rel, NULL);
      Group *g = g_hash_table_lookup (by_key, key);
      if (g == NULL)
        {
          g = g_new0 (Group, 1);
          g->key = key;
          g->rels = g_ptr_array_new ();
          g_ptr_array_add (groups, g);
          g_hash_table_insert (by_key, g->key, g);
        }
      else
        g_free (key);
      g_ptr_array_add (g->rels, rel);
    }
  return groups;
}

/* The name of a trace of several directories: the path components their
 * relative paths end with in common (ust/uid/1000/64-bit), else the first. */
static char *
group_name (const GPtrArray *rels)
{
  g_auto (GStrv) first = g_strsplit (g_ptr_array_index (rels, 0), G_DIR_SEPARATOR_S, -1);
  guint n = g_strv_length (first), common = n;
  for (guint i = 1; i < rels->len; i++)
    {
      g_auto (GStrv) other = g_strsplit (g_ptr_array_index (rels, i), G_DIR_SEPARATOR_S, -1);
      guint m = g_strv_length (other), k = 0;
      while (k < common && k < m && strcmp (first[n - 1 - k], other[m - 1 - k]) == 0)
        k++;
      common = k;
    }
  if (common == 0 || common == n)
    return g_strdup (g_ptr_array_index (rels, 0));
  return g_strjoinv (G_DIR_SEPARATOR_S, first + (n - common));
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
  g_autoptr (GPtrArray) groups = group_traces (dir, rels);
  g_autoptr (GPtrArray) traces = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_trace_close);
  for (guint i = 0; i < groups->len; i++)
    {
      const Group *g = g_ptr_array_index (groups, i);
      g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
      for (guint k = 0; k < g->rels->len; k++)
        g_ptr_array_add (paths, g_build_filename (dir, g_ptr_array_index (g->rels, k), NULL));
      TtvTrace *t = ttv_trace_open_group ((const char *const *) paths->pdata, paths->len, error);
      if (t == NULL)
        return FALSE;
      g_autofree char *rel = group_name (g->rels);
      g_free (t->display_path);
      t->display_path = g_build_filename (display_root ? display_root : dir, rel, NULL);
      g_free (t->name);
      t->name = g_strdup (rel);
      if (g->rels->len == 1)
        t->session_rel = g_strdup (rel);
      g_ptr_array_add (traces, t);
    }
  for (guint i = 0; i < traces->len; i++)
    ttv_traceset_add_trace (ts, g_ptr_array_index (traces, i));
  /* The traceset owns them now. */
  g_ptr_array_set_free_func (traces, NULL);
  return TRUE;
}

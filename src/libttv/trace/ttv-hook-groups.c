/* ttv-hook-groups.c: the built-in hook groups and the groups file parser
 * (see ttv-hook-groups.h).  Matching is by name pattern, so one group works
 * for LTT (core.*), LTTng 0.x (kernel.*) and LTTng 2.x names. */
#include "ttv-hook-groups.h"
#include "ttv-error.h"
#include "ttv-glob.h"
#include "ttv-text.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct _TtvHookGroups {
  GHashTable *groups;         /* char * name -> GPtrArray of char * patterns, owned */
};

static const struct {
  const char *name;
  const char *patterns;
} builtin_groups[] = {
  { "sched", "sched_* kernel.sched_*" },
  { "syscalls", "syscall_* compat_syscall_* exit_syscall sys_*" },
  { "irq", "irq_* soft_irq_* softirq_* irq_handler_*" },
  { "trap", "trap_* page_fault_*" },
  { "process", "process process_* sched_process_* exec fs.exec lttng_statedump_process_state" },
  { "block", "block.* block_*" },
  { "net", "net.* net_* netif_*" },
};

static void
free_patterns (gpointer p)
{
  g_ptr_array_unref (p);
}

static GPtrArray *
ensure_group (TtvHookGroups *g, const char *name)
{
  GPtrArray *patterns = g_hash_table_lookup (g->groups, name);
  if (patterns == NULL)
    {
      patterns = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (g->groups, g_strdup (name), patterns);
    }
  return patterns;
}

TtvHookGroups *
ttv_hook_groups_new (void)
{
  TtvHookGroups *g = g_new0 (TtvHookGroups, 1);
  g->groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_patterns);
  for (guint i = 0; i < G_N_ELEMENTS (builtin_groups); i++)
    {
      GPtrArray *patterns = ensure_group (g, builtin_groups[i].name);
      g_auto (GStrv) words = g_strsplit (builtin_groups[i].patterns, " ", -1);
      for (guint j = 0; words[j]; j++)
        g_ptr_array_add (patterns, g_strdup (words[j]));
    }
  return g;
}

void
ttv_hook_groups_free (TtvHookGroups *g)
{
  if (g == NULL)
    return;
  g_hash_table_unref (g->groups);
  g_free (g);
}

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-';
}

gboolean
ttv_hook_groups_load_data (TtvHookGroups *g, const char *data, const char *origin, GError **error)
{
  g_return_val_if_fail (g != NULL && data != NULL, FALSE);
  g_auto (GStrv) lines = g_strsplit (data, "\n", -1);
  /* @references with where they are, checked once every line is in (a
   * group may be defined later). */
  typedef struct { char *ref; guint line, column; } Ref;
  g_autoptr (GArray) refs = g_array_new (FALSE, FALSE, sizeof (Ref));
  for (guint ln = 0; lines[ln]; ln++)
    {
      char *line = lines[ln];
      char *hash = strchr (line, '#');
      if (hash)
        *hash = '\0';
      const char *p = line;
      while (g_ascii_isspace (*p))
        p++;
      if (*p == '\0')
        continue;
      const char *name = p;
      while (is_name_char (*p))
        p++;
      gsize name_len = (gsize) (p - name);
      while (*p == ' ' || *p == '\t')
        p++;
      if (name_len == 0 || *p != ':')
        {
          g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                       _("%s:%u:%u: expected a group name followed by ':'"), origin, ln + 1,
                       (guint) (p - line) + 1);
          return FALSE;
        }
      g_autofree char *group = g_strndup (name, name_len);
      GPtrArray *patterns = ensure_group (g, group);
      for (const char *w = p + 1; *w;)
        {
          if (*w == ' ' || *w == '\t' || *w == '\r')
            {
              w++;
              continue;
            }
          const char *end = w + strcspn (w, " \t\r");
          char *pattern = g_strndup (w, (gsize) (end - w));
          g_ptr_array_add (patterns, pattern);
          if (pattern[0] == '@')
            {
              Ref r = { pattern, ln + 1, (guint) (w - line) + 1 };
              g_array_append_val (refs, r);
            }
          w = end;
        }
    }
  for (guint i = 0; i < refs->len; i++)
    {
      const Ref *r = &g_array_index (refs, Ref, i);
      if (!g_hash_table_contains (g->groups, r->ref + 1))
        {
          g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_UNKNOWN_NAME,
                       _("%s:%u:%u: unknown group %s"), origin, r->line, r->column, r->ref);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
ttv_hook_groups_load_file (TtvHookGroups *g, const char *path, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &data, NULL, &local))
    {
      g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_IO, "%s", local->message);
      return FALSE;
    }
  return ttv_hook_groups_load_data (g, data, path, error);
}

gboolean
ttv_hook_groups_has (const TtvHookGroups *g, const char *name)
{
  return g != NULL && name != NULL && g_hash_table_contains (g->groups, name);
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

GPtrArray *
ttv_hook_groups_list (const TtvHookGroups *g)
{
  GPtrArray *names = g_ptr_array_new ();
  GHashTableIter it;
  gpointer key;
  g_hash_table_iter_init (&it, g->groups);
  while (g_hash_table_iter_next (&it, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_names);
  return names;
}

char *
ttv_hook_groups_dup_patterns (const TtvHookGroups *g, const char *name)
{
  GPtrArray *patterns = g_hash_table_lookup (g->groups, name);
  GString *s = g_string_new (NULL);
  for (guint i = 0; patterns && i < patterns->len; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "", (const char *) g_ptr_array_index (patterns, i));
  return g_string_free (s, FALSE);
}

gboolean
ttv_event_id_parse (const char *text, guint64 *id)
{
  const char *digits = g_str_has_prefix (text, "0x") || g_str_has_prefix (text, "0X") ? text + 2 : text;
  if (*digits == '\0' || strlen (digits) > 16)
    return FALSE;
  for (const char *p = digits; *p; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  *id = g_ascii_strtoull (digits, NULL, 16);
  return TRUE;
}

const char *
ttv_event_type_format_id (const TtvEventType *type, char buf[TTV_EVENT_ID_LEN])
{
  /* "%03x" without printf: the column layout and format files write it
   * on every line. */
  gsize n = (gsize) (ttv_text_put_hex (buf, type->format_id, FALSE) - buf);
  if (n < 3)
    {
      memmove (buf + 3 - n, buf, n);
      memset (buf, '0', 3 - n);
      n = 3;
    }
  buf[n] = '\0';
  return buf;
}

gboolean
ttv_event_type_matches_pattern (const TtvEventType *type, const char *pattern)
{
  guint64 id;
  if (ttv_event_id_parse (pattern, &id) && type->format_id == id)
    return TRUE;
  if (strpbrk (pattern, "*?") == NULL)
    return g_strcmp0 (type->full_name, pattern) == 0 || g_strcmp0 (type->name, pattern) == 0;
  return (type->full_name && ttv_glob_match (pattern, type->full_name))
         || (type->name && ttv_glob_match (pattern, type->name));
}

static gboolean
match_depth (const TtvHookGroups *g, const char *name, const TtvEventType *type, guint depth)
{
  GPtrArray *patterns = g_hash_table_lookup (g->groups, name);
  if (patterns == NULL || depth > 16)   /* cycles between groups end here */
    return FALSE;
  for (guint i = 0; i < patterns->len; i++)
    {
      const char *pat = g_ptr_array_index (patterns, i);
      if (pat[0] == '@' ? match_depth (g, pat + 1, type, depth + 1)
                        : ttv_event_type_matches_pattern (type, pat))
        return TRUE;
    }
  return FALSE;
}

gboolean
ttv_hook_groups_match (const TtvHookGroups *g, const char *name, const TtvEventType *type)
{
  g_return_val_if_fail (g != NULL && type != NULL, FALSE);
  return match_depth (g, name, type, 0);
}

/* ttv-stats-csv.c: the statistics CSV of the viewer's statistics view and
 * of ttv-report --stats --format=csv, read back and checked (see
 * ttv-stats-csv.h). */
#include "ttv-stats-csv.h"

#include "ttv-stats-oracle.h"

#include <string.h>

/* The fields of a CSV line ("" quoted, "" inside for "). */
static GStrv
csv_split (const char *line)
{
  g_autoptr (GPtrArray) fields = g_ptr_array_new ();
  g_autoptr (GString) cur = g_string_new (NULL);
  gboolean quoted = FALSE;

  for (const char *p = line;; p++)
    {
      if (quoted && *p == '"' && p[1] == '"')
        g_string_append_c (cur, *p++);
      else if (*p == '"')
        quoted = !quoted;
      else if ((*p == ',' && !quoted) || !*p)
        {
          g_ptr_array_add (fields, g_strdup (cur->str));
          g_string_truncate (cur, 0);
          if (!*p)
            break;
        }
      else
        g_string_append_c (cur, *p);
    }
  g_ptr_array_add (fields, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&fields), FALSE);
}

static void
csv_row_free (TtvStatsCsvRow *r)
{
  g_free (r->name);
  g_free (r);
}

static gint64
csv_seconds (const char *field)
{
  return *field ? ttv_stats_oracle_parse_seconds (field) : -1;
}

GHashTable *
ttv_stats_csv_parse (const char *text, GPtrArray *order)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GHashTable *rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) csv_row_free);

  g_assert_cmpstr (lines[0], ==, "key,name,count,total_s,min_s,max_s,average_s");
  for (guint i = 1; lines[i]; i++)
    {
      g_auto (GStrv) field = NULL;
      TtvStatsCsvRow *r;

      if (!lines[i][0])
        continue;
      field = csv_split (lines[i]);
      g_assert_cmpuint (g_strv_length (field), ==, 7);
      r = g_new0 (TtvStatsCsvRow, 1);
      r->name = g_strdup (field[1]);
      r->count = g_ascii_strtoull (field[2], NULL, 10);
      r->total = csv_seconds (field[3]);
      r->min = csv_seconds (field[4]);
      r->max = csv_seconds (field[5]);
      r->average = csv_seconds (field[6]);
      g_assert_false (g_hash_table_contains (rows, field[0]));
      if (order)
        g_ptr_array_add (order, g_strdup (field[0]));
      g_hash_table_insert (rows, g_strdup (field[0]), r);
    }
  return rows;
}

GHashTable *
ttv_stats_csv_to_oracle (GHashTable *csv)
{
  static const char *const families[] = { "type/", "cpu/", "process/", "syscall/", "irq/", "softirq/" };
  GHashTable *rows = ttv_stats_oracle_rows_new ();
  GHashTableIter it;
  gpointer key, value;

  g_hash_table_iter_init (&it, csv);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      const TtvStatsCsvRow *c = value;
      g_autofree char *k = g_strdup (key);
      gboolean keep = strcmp (k, "traceset") == 0;
      TtvOracleRow *r;

      for (guint i = 0; i < G_N_ELEMENTS (families); i++)
        keep |= g_str_has_prefix (k, families[i]);
      if (!keep)
        continue;
      if ((g_str_has_prefix (k, "cpu/") || g_str_has_prefix (k, "process/"))
          && (g_str_has_suffix (k, "/user") || g_str_has_suffix (k, "/unknown")))
        strcpy (strrchr (k, '/'), "/base");
      r = ttv_stats_oracle_row (rows, k);
      r->count += c->count;
      r->total += MAX (c->total, 0);
      r->min = c->min;
      r->max = c->max;
      if ((g_str_has_prefix (k, "irq/") || g_str_has_prefix (k, "softirq/")) && !r->name)
        {
          /* "IRQ 27 arch_timer", "Soft IRQ 1 TIMER": the name after the number. */
          const char *number = strchr (k, '/') + 1;
          const char *at = strstr (c->name, number);
          if (at && at[strlen (number)] == ' ')
            r->name = g_strdup (at + strlen (number) + 1);
        }
    }
  return rows;
}

void
ttv_stats_csv_assert_group_sums (GHashTable *csv)
{
  static const char *const groups[] = { "cpu", "process", "syscall", "irq", "softirq", "type" };

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      const TtvStatsCsvRow *group = g_hash_table_lookup (csv, groups[g]);
      g_autofree char *prefix = g_strdup_printf ("%s/", groups[g]);
      guint64 count = 0;
      gint64 total = 0;
      GHashTableIter it;
      gpointer key, value;

      g_assert_nonnull (group);
      g_hash_table_iter_init (&it, csv);
      while (g_hash_table_iter_next (&it, &key, &value))
        if (g_str_has_prefix (key, prefix) && !strchr ((char *) key + strlen (prefix), '/'))
          {
            count += ((TtvStatsCsvRow *) value)->count;
            total += MAX (((TtvStatsCsvRow *) value)->total, 0);
          }
      g_assert_cmpuint (group->count, ==, count);
      if (group->total >= 0)
        g_assert_cmpint (group->total, ==, total);
    }
  g_assert_cmpuint (((TtvStatsCsvRow *) g_hash_table_lookup (csv, "type"))->count, ==,
                    ((TtvStatsCsvRow *) g_hash_table_lookup (csv, "traceset"))->count);
  /* The processes' CPU time is the CPUs' busy time. */
  g_assert_cmpint (((TtvStatsCsvRow *) g_hash_table_lookup (csv, "cpu"))->total, ==,
                   ((TtvStatsCsvRow *) g_hash_table_lookup (csv, "process"))->total);
}

void
ttv_stats_csv_check (GHashTable *csv, GHashTable *want, const char *what)
{
  g_autoptr (GHashTable) got = ttv_stats_csv_to_oracle (csv);

  ttv_stats_oracle_assert_same (got, want, what);
  ttv_stats_oracle_assert_sums (got);
  ttv_stats_csv_assert_group_sums (csv);
}


/* ttv-stats-print.c: the statistics tree and the density as ttv-report
 * prints them (see ttv-stats-print.h). */
#include "ttv-stats-print.h"
#include "ttv-analysis-output.h"

#include <string.h>

/* --- Pieces of text ------------------------------------------------------------ */

/* Seconds to the nanosecond; nothing for -1 (not applicable). */
static void
append_seconds (GString *out, TtvTime ns)
{
  char buf[32];

  if (ns >= 0)
    g_string_append (out, ttv_time_to_string (ns, buf, sizeof buf));
}

/* A JSON number, or null for -1 (not applicable). */
static void
append_json_ns (GString *out, const char *name, TtvTime ns)
{
  if (ns >= 0)
    g_string_append_printf (out, ",\"%s\":%" G_GINT64_FORMAT, name, ns);
  else
    g_string_append_printf (out, ",\"%s\":null", name);
}

/* --- The statistics tree ---------------------------------------------------------- */

/* The widest indented name of the tree (in characters). */
static glong
name_width (const TtvStatsNode *node, guint depth)
{
  glong width = 2 * (glong) depth + g_utf8_strlen (node->name, -1);

  for (guint i = 0; i < node->children->len; i++)
    width = MAX (width, name_width (node->children->pdata[i], depth + 1));
  return width;
}

static void
append_text_cell (GString *out, TtvTime ns)
{
  char buf[32] = "";

  if (ns >= 0)
    ttv_time_to_string (ns, buf, sizeof buf);
  g_string_append_printf (out, " %20s", buf);
}

static void
append_node (GString *out, const TtvStatsNode *node, const TtvStatsNode *parent, guint depth,
             TtvAnalysisFormat format, glong width)
{
  TtvTime average = ttv_stats_node_get_average (node);

  switch (format)
    {
    case TTV_ANALYSIS_FORMAT_TEXT:
      {
        glong pad = width - 2 * (glong) depth - g_utf8_strlen (node->name, -1);
        g_autofree char *count = node->count ? g_strdup_printf ("%" G_GUINT64_FORMAT, node->count) : g_strdup ("");

        g_string_append_printf (out, "%*s%s%*s %12s", 2 * (int) depth, "", node->name, (int) pad, "", count);
        append_text_cell (out, node->total);
        append_text_cell (out, average);
        append_text_cell (out, node->min);
        append_text_cell (out, node->max);
        /* No blanks at the end of a line. */
        while (out->len && out->str[out->len - 1] == ' ')
          g_string_truncate (out, out->len - 1);
        g_string_append_c (out, '\n');
      }
      break;
    case TTV_ANALYSIS_FORMAT_JSONL:
      g_string_append (out, "{\"key\":");
      ttv_json_append_string (out, node->key ? node->key : "", -1);
      g_string_append (out, ",\"parent\":");
      if (parent)
        ttv_json_append_string (out, parent->key ? parent->key : "", -1);
      else
        g_string_append (out, "null");
      g_string_append (out, ",\"name\":");
      ttv_json_append_string (out, node->name, -1);
      g_string_append_printf (out, ",\"count\":%" G_GUINT64_FORMAT, node->count);
      append_json_ns (out, "total_ns", node->total);
      append_json_ns (out, "min_ns", node->min);
      append_json_ns (out, "max_ns", node->max);
      append_json_ns (out, "average_ns", average);
      g_string_append (out, "}\n");
      break;
    case TTV_ANALYSIS_FORMAT_CSV:
      ttv_csv_append_field (out, node->key ? node->key : "");
      g_string_append_c (out, ',');
      ttv_csv_append_field (out, node->name);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",", node->count);
      append_seconds (out, node->total);
      g_string_append_c (out, ',');
      append_seconds (out, node->min);
      g_string_append_c (out, ',');
      append_seconds (out, node->max);
      g_string_append_c (out, ',');
      append_seconds (out, average);
      g_string_append_c (out, '\n');
      break;
    default:  /* not in TTV_STATS_PRINT_FORMATS */
      g_return_if_reached ();
    }
  for (guint i = 0; i < node->children->len; i++)
    append_node (out, node->children->pdata[i], node, depth + 1, format, width);
}

void
ttv_stats_tree_append (const TtvStatsNode *root, TtvAnalysisFormat format, GString *out)
{
  glong width = 0;

  g_return_if_fail (root != NULL);
  if (format == TTV_ANALYSIS_FORMAT_TEXT)
    {
      width = MAX (name_width (root, 0), (glong) strlen ("NAME"));
      g_string_append_printf (out, "%-*s %12s %20s %20s %20s %20s\n", (int) width, "NAME", "COUNT", "TOTAL_S",
                              "AVERAGE_S", "MIN_S", "MAX_S");
    }
  else if (format == TTV_ANALYSIS_FORMAT_CSV)
    g_string_append (out, "key,name,count,total_s,min_s,max_s,average_s\n");
  append_node (out, root, NULL, 0, format, width);
}

/* --- The density -------------------------------------------------------------------- */

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static void
append_density_bin (GString *out, const TtvIndexResult *density, guint i, GPtrArray *names, GPtrArray *bins,
                    gboolean by_type, TtvAnalysisFormat format)
{
  guint n = density->density->len;
  TtvTime from = ttv_index_result_get_bin_start (density, i);
  TtvTime to = i + 1 < n ? ttv_index_result_get_bin_start (density, i + 1) : density->end;
  guint32 events = g_array_index (density->density, guint32, i);
  char a[32], b[32];
  gboolean first = TRUE;

  ttv_time_to_string (from, a, sizeof a);
  ttv_time_to_string (to, b, sizeof b);
  switch (format)
    {
    case TTV_ANALYSIS_FORMAT_TEXT:
      g_string_append_printf (out, "%-20s %-20s %10u", a, b, events);
      for (guint t = 0; t < names->len; t++)
        {
          guint32 k = g_array_index ((GArray *) bins->pdata[t], guint32, i);

          if (k)
            g_string_append_printf (out, " %s=%u", (const char *) names->pdata[t], k);
        }
      break;
    case TTV_ANALYSIS_FORMAT_JSONL:
      g_string_append_printf (out, "{\"bin\":%u,\"start_ns\":%" G_GINT64_FORMAT ",\"end_ns\":%" G_GINT64_FORMAT
                              ",\"events\":%u", i, from, to, events);
      if (by_type)
        {
          g_string_append (out, ",\"types\":{");
          for (guint t = 0; t < names->len; t++)
            {
              guint32 k = g_array_index ((GArray *) bins->pdata[t], guint32, i);

              if (!k)
                continue;
              if (!first)
                g_string_append_c (out, ',');
              first = FALSE;
              ttv_json_append_string (out, names->pdata[t], -1);
              g_string_append_printf (out, ":%u", k);
            }
          g_string_append_c (out, '}');
        }
      g_string_append_c (out, '}');
      break;
    case TTV_ANALYSIS_FORMAT_CSV:
      g_string_append_printf (out, "%u,%s,%s,%u", i, a, b, events);
      for (guint t = 0; t < names->len; t++)
        g_string_append_printf (out, ",%u", g_array_index ((GArray *) bins->pdata[t], guint32, i));
      break;
    default:  /* not in TTV_STATS_PRINT_FORMATS */
      g_return_if_reached ();
    }
  g_string_append_c (out, '\n');
}

void
ttv_density_append (const TtvIndexResult *density, gboolean by_type, TtvAnalysisFormat format, GString *out)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) bins = g_ptr_array_new ();

  /* The event types by name, with their bins. */
  if (by_type && density->type_density)
    {
      GHashTableIter it;
      gpointer key;

      g_hash_table_iter_init (&it, density->type_density);
      while (g_hash_table_iter_next (&it, &key, NULL))
        g_ptr_array_add (names, key);
      g_ptr_array_sort (names, compare_names);
      for (guint t = 0; t < names->len; t++)
        g_ptr_array_add (bins, g_hash_table_lookup (density->type_density, names->pdata[t]));
    }
  if (format == TTV_ANALYSIS_FORMAT_TEXT)
    g_string_append_printf (out, "%-20s %-20s %10s%s\n", "START", "END", "EVENTS", by_type ? " TYPES" : "");
  else if (format == TTV_ANALYSIS_FORMAT_CSV)
    {
      g_string_append (out, "bin,start_s,end_s,events");
      for (guint t = 0; t < names->len; t++)
        {
          g_string_append_c (out, ',');
          ttv_csv_append_field (out, names->pdata[t]);
        }
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; i < density->density->len; i++)
    append_density_bin (out, density, i, names, bins, by_type, format);
}

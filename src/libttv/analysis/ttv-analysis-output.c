/* ttv-analysis-output.c: tables and JSON for the analyses' reports (see
 * ttv-analysis-output.h). */
#include "ttv-analysis-output.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* A JSON string, or null for NULL. */
static void
append_string_or_null (GString *out, const char *s)
{
  if (s == NULL)
    g_string_append (out, "null");
  else
    ttv_json_append_string (out, s, -1);
}

static void
append_key (GString *out, const char *key)
{
  g_string_append_c (out, ',');
  append_string_or_null (out, key);
  g_string_append_c (out, ':');
}

void
ttv_json_append_member_string (GString *out, const char *key, const char *value)
{
  append_key (out, key);
  append_string_or_null (out, value);
}

void
ttv_json_append_member_int (GString *out, const char *key, gint64 value)
{
  append_key (out, key);
  g_string_append_printf (out, "%" G_GINT64_FORMAT, value);
}

void
ttv_json_append_member_double (GString *out, const char *key, double value)
{
  append_key (out, key);
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.3f", value));
}

struct _TtvTable {
  guint n_columns;
  GPtrArray *headings;          /* of char *, owned, without the '>' */
  GArray *right;                /* of gboolean */
  GPtrArray *rows;              /* of GStrv, owned */
};

TtvTable *
ttv_table_new (guint n_columns, const char *const *headings)
{
  TtvTable *t = g_new0 (TtvTable, 1);
  t->n_columns = n_columns;
  t->headings = g_ptr_array_new_with_free_func (g_free);
  t->right = g_array_new (FALSE, TRUE, sizeof (gboolean));
  t->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint i = 0; i < n_columns; i++)
    {
      gboolean right = headings[i][0] == '>';
      g_ptr_array_add (t->headings, g_strdup (headings[i] + right));
      g_array_append_val (t->right, right);
    }
  return t;
}

TtvTable *
ttv_table_new_after (const char *first, guint n_columns, const char *const *headings)
{
  if (first == NULL)
    return ttv_table_new (n_columns, headings);
  g_autofree const char **all = g_new (const char *, n_columns + 1);
  all[0] = first;
  memcpy (all + 1, headings, n_columns * sizeof *headings);
  return ttv_table_new (n_columns + 1, all);
}

GPtrArray *
ttv_table_row_new (const char *first)
{
  GPtrArray *row = g_ptr_array_new ();
  if (first)
    g_ptr_array_add (row, g_strdup (first));
  return row;
}

void
ttv_table_free (TtvTable *t)
{
  if (t == NULL)
    return;
  g_ptr_array_unref (t->headings);
  g_array_unref (t->right);
  g_ptr_array_unref (t->rows);
  g_free (t);
}

void
ttv_table_add_row (TtvTable *t, const char *const *cells)
{
  char **row = g_new0 (char *, t->n_columns + 1);
  for (guint i = 0; i < t->n_columns; i++)
    row[i] = g_strdup (cells[i] ? cells[i] : "");
  g_ptr_array_add (t->rows, row);
}

void
ttv_table_add_row_take (TtvTable *t, GPtrArray *cells)
{
  g_return_if_fail (cells->len == t->n_columns);
  ttv_table_add_row (t, (const char *const *) cells->pdata);
  g_ptr_array_set_free_func (cells, g_free);
  g_ptr_array_unref (cells);
}

guint
ttv_table_get_n_rows (const TtvTable *t)
{
  return t->rows->len;
}

static void
append_cell (GString *out, const char *text, guint width, gboolean right, gboolean last)
{
  guint n = (guint) g_utf8_strlen (text, -1);
  if (right)
    for (guint k = n; k < width; k++)
      g_string_append_c (out, ' ');
  g_string_append (out, text);
  if (!right && !last)
    for (guint k = n; k < width; k++)
      g_string_append_c (out, ' ');
}

static void
append_line (const TtvTable *t, GString *out, const char *indent, const char *const *cells, const guint *widths)
{
  gsize start = out->len;
  g_string_append (out, indent);
  for (guint i = 0; i < t->n_columns; i++)
    {
      if (i > 0)
        g_string_append (out, "  ");
      append_cell (out, cells[i], widths[i], g_array_index (t->right, gboolean, i), i + 1 == t->n_columns);
    }
  while (out->len > start && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  g_string_append_c (out, '\n');
}

void
ttv_table_append_text (const TtvTable *t, GString *out, const char *indent, guint max_rows)
{
  guint n = max_rows && max_rows < t->rows->len ? max_rows : t->rows->len;
  g_autofree guint *widths = g_new0 (guint, t->n_columns);
  for (guint i = 0; i < t->n_columns; i++)
    widths[i] = (guint) g_utf8_strlen (g_ptr_array_index (t->headings, i), -1);
  for (guint r = 0; r < n; r++)
    {
      char **row = g_ptr_array_index (t->rows, r);
      for (guint i = 0; i < t->n_columns; i++)
        widths[i] = MAX (widths[i], (guint) g_utf8_strlen (row[i], -1));
    }
  append_line (t, out, indent, (const char *const *) t->headings->pdata, widths);
  for (guint r = 0; r < n; r++)
    append_line (t, out, indent, g_ptr_array_index (t->rows, r), widths);
  if (n < t->rows->len)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s… %u more row\n", "%s… %u more rows\n",
                                              t->rows->len - n),
                            indent, t->rows->len - n);
}

void
ttv_csv_append_field (GString *out, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (; *text; text++)
    {
      if (*text == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *text);
    }
  g_string_append_c (out, '"');
}

static void
append_csv_line (const TtvTable *t, GString *out, char *const *cells)
{
  for (guint i = 0; i < t->n_columns; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      ttv_csv_append_field (out, cells[i]);
    }
  g_string_append (out, "\r\n");
}

void
ttv_table_append_csv (const TtvTable *t, GString *out)
{
  append_csv_line (t, out, (char *const *) t->headings->pdata);
  for (guint r = 0; r < t->rows->len; r++)
    append_csv_line (t, out, g_ptr_array_index (t->rows, r));
}

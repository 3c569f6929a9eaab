/* ttv-format-file-parser.c: reads a format file line by line into
 * templates (see ttv-format-file.h); errors name FILE:LINE:COLUMN. */
#include "ttv-format-file-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

typedef struct {
  const char *origin;
  guint line;
  const char *start;     /* the line, for columns */
  const char *p;
  GError **error;
} Cursor;

static const char *const variables[] = {
  "$name", "$fields", "$facility", "$id", "$cpu", "$pid", "$tid", "$exec", "$svc", "$mode", NULL
};

void
ttv_format_pieces_free (GArray *pieces)
{
  if (pieces == NULL)
    return;
  for (guint i = 0; i < pieces->len; i++)
    {
      TtvFormatPiece *piece = &g_array_index (pieces, TtvFormatPiece, i);
      g_free (piece->text);
      if (piece->cases)
        g_ptr_array_unref (piece->cases);
    }
  g_array_unref (pieces);
}

static void
case_free (gpointer p)
{
  TtvFormatCase *c = p;
  g_free (c->pattern);
  ttv_format_pieces_free (c->pieces);
  g_free (c);
}

void
ttv_format_template_free (TtvFormatTemplate *t)
{
  if (t == NULL)
    return;
  if (t->patterns)
    g_ptr_array_unref (t->patterns);
  ttv_format_pieces_free (t->pieces);
  g_free (t);
}

static gboolean
fail (Cursor *c, const char *expected)
{
  char found[16];
  if (*c->p == '\0')
    g_strlcpy (found, _("end of line"), sizeof found);
  else
    g_snprintf (found, sizeof found, "'%c'", *c->p);
  g_set_error (c->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX, _("%s:%u:%u: expected %s, found %s"),
               c->origin, c->line, (guint) (c->p - c->start) + 1, expected, found);
  return FALSE;
}

static void
add_text (GArray *pieces, GString *text)
{
  if (text->len == 0)
    return;
  TtvFormatPiece piece = { PIECE_TEXT, g_strdup (text->str), FALSE, NULL };
  g_array_append_val (pieces, piece);
  g_string_truncate (text, 0);
}

static GArray *parse_pieces (Cursor *c, const char *stops);

/* Length of the valid start of a field path "a.b[2].c" (all of it when
 * valid): names of letters, digits and '_' joined by '.', each name
 * followed by any number of [INDEX]. */
static gsize
valid_path_len (const char *path, gsize len)
{
  gsize i = 0;
  for (;;)
    {
      gsize start = i;
      while (i < len && (g_ascii_isalnum (path[i]) || path[i] == '_'))
        i++;
      if (i == start)
        return start;
      while (i < len && path[i] == '[')
        {
          gsize d = i + 1;
          while (d < len && g_ascii_isdigit (path[d]))
            d++;
          if (d == i + 1 || d >= len || path[d] != ']')
            return d < len ? d : i;
          i = d + 1;
        }
      if (i == len)
        return len;
      if (path[i] != '.')
        return i;
      i++;
    }
}

static gboolean
parse_placeholder (Cursor *c, GArray *pieces)
{
  c->p++;   /* '{' */
  const char *name = c->p;
  if (*c->p == '$')
    c->p++;
  while (*c->p && (g_ascii_isalnum (*c->p) || strchr ("_.[]", *c->p)))
    c->p++;
  if (c->p == name || (name[0] == '$' && c->p == name + 1))
    return fail (c, _("a field name or $variable after '{'"));
  gsize len = (gsize) (c->p - name);
  if (name[0] != '$')
    {
      gsize ok = valid_path_len (name, len);
      if (ok < len || name[len - 1] == '.')
        {
          c->p = name + MIN (ok, len - 1);
          return fail (c, _("a field path such as a, a.b or list[2]"));
        }
    }
  TtvFormatPiece piece = { PIECE_FIELD, g_strndup (name, len), FALSE, NULL };
  if (piece.text[0] == '$')
    {
      piece.kind = PIECE_VAR;
      if (!g_strv_contains (variables, piece.text))
        {
          c->p = name;
          g_free (piece.text);
          return fail (c, _("one of $name $fields $facility $id $cpu $pid $tid $exec $svc $mode"));
        }
    }
  if (*c->p == '#' && piece.kind == PIECE_FIELD)
    {
      c->p++;
      if (*c->p != 'x')
        {
          g_free (piece.text);
          return fail (c, _("'x' (hexadecimal) after '#'"));
        }
      c->p++;
      piece.hex = TRUE;
    }
  else if (*c->p == '?' && piece.kind == PIECE_FIELD)
    {
      piece.kind = PIECE_COND;
      piece.cases = g_ptr_array_new_with_free_func (case_free);
      c->p++;
      for (;;)
        {
          GString *pat = g_string_new (NULL);
          while (*c->p && !strchr (":|}", *c->p))
            {
              if (*c->p == '\\' && c->p[1])
                c->p++;
              g_string_append_c (pat, *c->p++);
            }
          if (*c->p != ':')
            {
              g_string_free (pat, TRUE);
              g_free (piece.text);
              g_ptr_array_unref (piece.cases);
              return fail (c, _("':' after a value in a {field?value:text} condition"));
            }
          c->p++;
          TtvFormatCase *fc = g_new0 (TtvFormatCase, 1);
          fc->pattern = g_str_equal (pat->str, "*") ? NULL : g_strdup (pat->str);
          g_string_free (pat, TRUE);
          g_ptr_array_add (piece.cases, fc);
          fc->pieces = parse_pieces (c, "|}");
          if (fc->pieces == NULL)
            {
              g_free (piece.text);
              g_ptr_array_unref (piece.cases);
              return FALSE;
            }
          if (*c->p == '}')
            break;
          c->p++;   /* '|' */
        }
    }
  if (*c->p != '}')
    {
      g_free (piece.text);
      if (piece.cases)
        g_ptr_array_unref (piece.cases);
      return fail (c, _("'}'"));
    }
  c->p++;
  g_array_append_val (pieces, piece);
  return TRUE;
}

/* Text and placeholders up to one of @stops (not consumed). */
static GArray *
parse_pieces (Cursor *c, const char *stops)
{
  GArray *pieces = g_array_new (FALSE, FALSE, sizeof (TtvFormatPiece));
  g_autoptr (GString) text = g_string_new (NULL);
  while (*c->p && !strchr (stops, *c->p))
    {
      if (*c->p == '\\')
        {
          c->p++;
          if (*c->p == '\0')
            break;
          g_string_append_c (text, *c->p == 'n' ? '\n' : *c->p == 't' ? '\t' : *c->p);
          c->p++;
        }
      else if (*c->p == '{')
        {
          add_text (pieces, text);
          if (!parse_placeholder (c, pieces))
            {
              ttv_format_pieces_free (pieces);
              return NULL;
            }
        }
      else
        g_string_append_c (text, *c->p++);
    }
  if (*c->p == '\0')
    {
      ttv_format_pieces_free (pieces);
      fail (c, strchr (stops, '"') ? _("a closing '\"'") : _("'|' or '}'"));
      return NULL;
    }
  add_text (pieces, text);
  return pieces;
}

static void
skip_space (Cursor *c)
{
  while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')
    c->p++;
}

static char *
read_word (Cursor *c)
{
  skip_space (c);
  const char *s = c->p;
  while (*c->p && !g_ascii_isspace (*c->p) && *c->p != '"')
    c->p++;
  return c->p > s ? g_strndup (s, (gsize) (c->p - s)) : NULL;
}

static GArray *
parse_template_string (Cursor *c)
{
  skip_space (c);
  if (*c->p != '"')
    {
      fail (c, _("a template in double quotes"));
      return NULL;
    }
  c->p++;
  GArray *pieces = parse_pieces (c, "\"");
  if (pieces == NULL)
    return NULL;
  c->p++;   /* '"' */
  skip_space (c);
  if (*c->p != '\0' && *c->p != '#')
    {
      ttv_format_pieces_free (pieces);
      fail (c, _("the end of the line after the template"));
      return NULL;
    }
  return pieces;
}

TtvFormatFile *
ttv_format_file_parse (const char *data, const char *origin, GError **error)
{
  g_autoptr (TtvFormatFile) ff = g_new0 (TtvFormatFile, 1);
  ff->templates = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_format_template_free);
  ff->timers = g_ptr_array_new_with_free_func (g_free);
  ff->cache = g_hash_table_new (g_direct_hash, g_direct_equal);
  ff->scratch = g_string_new (NULL);
  g_auto (GStrv) lines = g_strsplit (data, "\n", -1);
  for (guint ln = 0; lines[ln]; ln++)
    {
      Cursor c = { origin, ln + 1, lines[ln], lines[ln], error };
      skip_space (&c);
      if (*c.p == '\0' || *c.p == '#')
        continue;
      const char *kw_at = c.p;
      g_autofree char *kw = read_word (&c);
      if (g_strcmp0 (kw, "default") == 0)
        {
          if (ff->default_template)
            {
              c.p = kw_at;
              fail (&c, _("one default template only"));
              return NULL;
            }
          GArray *pieces = parse_template_string (&c);
          if (pieces == NULL)
            return NULL;
          ff->default_template = g_new0 (TtvFormatTemplate, 1);
          ff->default_template->pieces = pieces;
          ff->default_template->line = ln + 1;
        }
      else if (g_strcmp0 (kw, "event") == 0)
        {
          TtvFormatTemplate *t = g_new0 (TtvFormatTemplate, 1);
          t->patterns = g_ptr_array_new_with_free_func (g_free);
          t->line = ln + 1;
          char *w;
          while ((w = read_word (&c)) != NULL)
            g_ptr_array_add (t->patterns, w);
          if (t->patterns->len == 0)
            {
              ttv_format_template_free (t);
              fail (&c, _("an event name, glob or id after 'event'"));
              return NULL;
            }
          t->pieces = parse_template_string (&c);
          if (t->pieces == NULL)
            {
              ttv_format_template_free (t);
              return NULL;
            }
          g_ptr_array_add (ff->templates, t);
        }
      else if (g_strcmp0 (kw, "timer") == 0)
        {
          char *start = read_word (&c);
          char *end = read_word (&c);
          skip_space (&c);
          if (start == NULL || end == NULL || (*c.p != '\0' && *c.p != '#'))
            {
              g_free (start);
              g_free (end);
              fail (&c, _("'timer START END' (two event names, globs or ids)"));
              return NULL;
            }
          g_ptr_array_add (ff->timers, start);
          g_ptr_array_add (ff->timers, end);
        }
      else
        {
          c.p = kw_at;
          fail (&c, _("'event', 'default', 'timer' or a '#' comment"));
          return NULL;
        }
    }
  return g_steal_pointer (&ff);
}

TtvFormatFile *
ttv_format_file_load (const char *path, GError **error)
{
  g_autofree char *data = NULL;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &data, NULL, &local))
    {
      g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_IO, "%s", local->message);
      return NULL;
    }
  return ttv_format_file_parse (data, path, error);
}

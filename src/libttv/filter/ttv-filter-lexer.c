/* ttv-filter-lexer.c: splits a filter expression into tokens with their
 * columns, so that the parser's errors can point at them. */
#include "ttv-filter-private.h"
#include "ttv-error.h"
#include "ttv-escape.h"

#include <glib/gi18n-lib.h>
#include <string.h>


const char *
ttv_filter_token_describe (TtvFilterTokenKind kind)
{
  switch (kind)
    {
    case TOK_END: return _("the end of the expression");
    case TOK_WORD: return _("a name or value");
    case TOK_STRING: return _("a quoted string");
    case TOK_EQ: return "'='";
    case TOK_NE: return "'!='";
    case TOK_LT: return "'<'";
    case TOK_LE: return "'<='";
    case TOK_GT: return "'>'";
    case TOK_GE: return "'>='";
    case TOK_AND: return "'&'";
    case TOK_OR: return "'|'";
    case TOK_NOT: return "'!'";
    case TOK_LPAREN: return "'('";
    case TOK_RPAREN: return "')'";
    case TOK_ERROR: break;
    }
  return "?";
}

void
ttv_filter_tokens_free (GArray *tokens)
{
  if (tokens == NULL)
    return;
  for (guint i = 0; i < tokens->len; i++)
    g_free (g_array_index (tokens, TtvFilterToken, i).text);
  g_array_unref (tokens);
}

/* Columns of tokens, counted as the lexer moves forward: in characters
 * (what an editor shows), or in bytes once the text before is not UTF-8.
 * Counting from the start for each token made lexing quadratic. */
typedef struct {
  const char *expr;
  gsize offset;                 /* counted up to here */
  guint column;                 /* of @offset, 1-based */
  gboolean utf8;                /* the text up to @offset is UTF-8 */
} Columns;

static guint
column_of (Columns *c, gsize offset)
{
  if (offset < c->offset)
    {
      /* Never happens as tokens come in order; exact anyway. */
      Columns from_start = { c->expr, 0, 1, TRUE };
      return column_of (&from_start, offset);
    }
  gsize n = offset - c->offset;
  const char *seg = c->expr + c->offset;
  if (c->utf8 && g_utf8_validate (seg, (gssize) n, NULL))
    c->column += (guint) g_utf8_strlen (seg, (gssize) n);
  else
    {
      if (c->utf8)
        c->column = (guint) c->offset + 1;   /* from now on, bytes */
      c->utf8 = FALSE;
      c->column += (guint) n;
    }
  c->offset = offset;
  return c->column;
}

static void
push (GArray *tokens, Columns *c, TtvFilterTokenKind kind, gsize offset, char *text)
{
  TtvFilterToken t = { kind, column_of (c, offset), text };
  g_array_append_val (tokens, t);
}

/* Bytes of the non-ASCII character at @p that may be part of a word (a
 * letter of a process name: "café"), 0 if none. */
static gsize
word_char_len (const char *p)
{
  if (*p == '\0')
    return 0;
  if ((guchar) *p < 0x80)
    return g_ascii_isalnum (*p) || strchr ("_.*?[]/-+:@$%~,", *p) ? 1 : 0;
  gunichar c = g_utf8_get_char_validated (p, -1);
  if (c == (gunichar) -1 || c == (gunichar) -2 || !g_unichar_isgraph (c))
    return 0;
  return (gsize) (g_utf8_next_char (p) - p);
}

GArray *
ttv_filter_lex (const char *expr, GError **error)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (TtvFilterToken));
  Columns columns = { expr, 0, 1, TRUE };
  const char *p = expr;
  while (*p)
    {
      gsize at = (gsize) (p - expr);
      char c = *p;
      if (g_ascii_isspace (c))
        {
          p++;
          continue;
        }
      if (c == '"')
        {
          GString *s = g_string_new (NULL);
          p++;
          while (*p && *p != '"')
            {
              if (*p == '\\' && p[1])
                p++;
              g_string_append_c (s, *p++);
            }
          if (*p != '"')
            {
              g_string_free (s, TRUE);
              g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                           _("column %u: unterminated string: expected a closing '\"'"), column_of (&columns, at));
              ttv_filter_tokens_free (tokens);
              return NULL;
            }
          p++;
          push (tokens, &columns, TOK_STRING, at, g_string_free (s, FALSE));
          continue;
        }
      if (word_char_len (p) > 0)
        {
          const char *start = p;
          gsize n;
          while ((n = word_char_len (p)) > 0)
            p += n;
          push (tokens, &columns, TOK_WORD, at, g_strndup (start, (gsize) (p - start)));
          continue;
        }
      TtvFilterTokenKind kind = TOK_ERROR;
      gsize len = 1;
      switch (c)
        {
        case '=': kind = TOK_EQ; len = p[1] == '=' ? 2 : 1; break;
        case '!': kind = p[1] == '=' ? TOK_NE : TOK_NOT; len = p[1] == '=' ? 2 : 1; break;
        case '<': kind = p[1] == '=' ? TOK_LE : TOK_LT; len = p[1] == '=' ? 2 : 1; break;
        case '>': kind = p[1] == '=' ? TOK_GE : TOK_GT; len = p[1] == '=' ? 2 : 1; break;
        case '&': kind = TOK_AND; len = p[1] == '&' ? 2 : 1; break;
        case '|': kind = TOK_OR; len = p[1] == '|' ? 2 : 1; break;
        case '(': kind = TOK_LPAREN; break;
        case ')': kind = TOK_RPAREN; break;
        default: break;
        }
      if (kind == TOK_ERROR)
        {
          gunichar u = g_utf8_get_char_validated (p, -1);
          if ((guchar) c >= 0x80 && (u == (gunichar) -1 || u == (gunichar) -2))
            g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                         _("column %u: unexpected byte 0x%02x (the expression is not UTF-8)"),
                         column_of (&columns, at), (guchar) c);
          else
            {
              char one[8] = { 0 };
              g_unichar_to_utf8 ((guchar) c < 0x80 ? (gunichar) c : u, one);
              g_autofree char *shown = ttv_escape_for_display (one, -1);
              g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                           _("column %u: unexpected character '%s'"), column_of (&columns, at), shown);
            }
          ttv_filter_tokens_free (tokens);
          return NULL;
        }
      push (tokens, &columns, kind, at, NULL);
      p += len;
    }
  push (tokens, &columns, TOK_END, (gsize) (p - expr), NULL);
  /* The words "and", "or", "not" are operators too. */
  for (guint i = 0; i < tokens->len; i++)
    {
      TtvFilterToken *t = &g_array_index (tokens, TtvFilterToken, i);
      if (t->kind != TOK_WORD)
        continue;
      TtvFilterTokenKind k = g_str_equal (t->text, "and") ? TOK_AND
                             : g_str_equal (t->text, "or") ? TOK_OR
                             : g_str_equal (t->text, "not") ? TOK_NOT : TOK_WORD;
      if (k != TOK_WORD)
        {
          t->kind = k;
          g_clear_pointer (&t->text, g_free);
        }
    }
  return tokens;
}

/* ttv-filter-lexer.c: splits a filter expression into tokens with their
 * columns, so that the parser's errors can point at them. */
#include "ttv-filter-private.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static gboolean
is_word_char (char c)
{
  return c != '\0' && (g_ascii_isalnum (c) || strchr ("_.*?[]/-+:@$%~,", c) != NULL);
}

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

static void
push (GArray *tokens, TtvFilterTokenKind kind, gsize offset, char *text)
{
  TtvFilterToken t = { kind, (guint) offset + 1, text };
  g_array_append_val (tokens, t);
}

GArray *
ttv_filter_lex (const char *expr, GError **error)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (TtvFilterToken));
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
                           _("column %u: unterminated string: expected a closing '\"'"), (guint) at + 1);
              ttv_filter_tokens_free (tokens);
              return NULL;
            }
          p++;
          push (tokens, TOK_STRING, at, g_string_free (s, FALSE));
          continue;
        }
      if (is_word_char (c))
        {
          const char *start = p;
          while (is_word_char (*p))
            p++;
          push (tokens, TOK_WORD, at, g_strndup (start, (gsize) (p - start)));
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
          g_set_error (error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                       _("column %u: unexpected character '%c'"), (guint) at + 1, c);
          ttv_filter_tokens_free (tokens);
          return NULL;
        }
      push (tokens, kind, at, NULL);
      p += len;
    }
  push (tokens, TOK_END, (gsize) (p - expr), NULL);
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

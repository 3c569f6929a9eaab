/* ttv-ctf-lexer.c: TSDL tokens (identifiers, integers, strings, punctuation)
 * with line and column, for the CTF metadata parser (ttv-ctf-parser.c). */
#include "ttv-ctf-private.h"

#include <string.h>

void
ttv_ctf_lexer_init (CtfLexer *lx, const char *src, gsize len)
{
  lx->src = src;
  lx->len = len;
  lx->pos = 0;
  lx->line = 1;
  lx->column = 1;
}

static char
peek (const CtfLexer *lx, gsize ahead)
{
  return lx->pos + ahead < lx->len ? lx->src[lx->pos + ahead] : '\0';
}

static void
advance (CtfLexer *lx, gsize n)
{
  for (gsize i = 0; i < n && lx->pos < lx->len; i++)
    {
      if (lx->src[lx->pos] == '\n')
        {
          lx->line++;
          lx->column = 1;
        }
      else
        lx->column++;
      lx->pos++;
    }
}

static void
set_error (CtfToken *t, const char *message)
{
  t->kind = CTF_TOK_ERROR;
  t->text = message;
  t->len = (guint) strlen (message);
}

/* Skips blanks and comments; FALSE on an unterminated comment. */
static gboolean
skip_space (CtfLexer *lx, guint *err_line, guint *err_col)
{
  for (;;)
    {
      char c = peek (lx, 0);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        advance (lx, 1);
      else if (c == '/' && peek (lx, 1) == '*')
        {
          *err_line = lx->line;
          *err_col = lx->column;
          advance (lx, 2);
          while (lx->pos < lx->len && !(peek (lx, 0) == '*' && peek (lx, 1) == '/'))
            advance (lx, 1);
          if (lx->pos >= lx->len)
            return FALSE;
          advance (lx, 2);
        }
      else if (c == '/' && peek (lx, 1) == '/')
        {
          while (lx->pos < lx->len && peek (lx, 0) != '\n')
            advance (lx, 1);
        }
      else
        return TRUE;
    }
}

static int
digit_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

void
ttv_ctf_lexer_next (CtfLexer *lx, CtfToken *t)
{
  memset (t, 0, sizeof *t);
  guint el = 0, ec = 0;
  gboolean closed = skip_space (lx, &el, &ec);
  t->line = lx->line;
  t->column = lx->column;
  t->text = lx->src + lx->pos;
  if (!closed)
    {
      t->line = el;
      t->column = ec;
      set_error (t, "unterminated comment");
      return;
    }
  char c = peek (lx, 0);
  if (lx->pos >= lx->len || c == '\0')
    {
      t->kind = CTF_TOK_EOF;
      return;
    }
  if (g_ascii_isalpha (c) || c == '_')
    {
      gsize n = 0;
      while (g_ascii_isalnum (peek (lx, n)) || peek (lx, n) == '_')
        n++;
      t->kind = CTF_TOK_IDENT;
      t->len = (guint) n;
      advance (lx, n);
      return;
    }
  if (g_ascii_isdigit (c))
    {
      guint base = 10;
      gsize n = 0;
      if (c == '0' && (peek (lx, 1) == 'x' || peek (lx, 1) == 'X'))
        {
          base = 16;
          n = 2;
        }
      else if (c == '0' && peek (lx, 1) == 'b' && g_ascii_isdigit (peek (lx, 2)))
        {
          base = 2;
          n = 2;
        }
      else if (c == '0')
        base = 8;
      guint64 v = 0;
      gboolean overflow = FALSE, any = base != 16 && base != 2;
      for (;; n++)
        {
          int d = digit_value (peek (lx, n));
          if (d >= (int) base)
            break;
          any = TRUE;
          if (v > (G_MAXUINT64 - (guint64) d) / base)
            overflow = TRUE;
          v = v * base + (guint64) d;
        }
      /* Integer suffixes: u, l, ul, ull, ... */
      while (peek (lx, n) == 'u' || peek (lx, n) == 'U' || peek (lx, n) == 'l' || peek (lx, n) == 'L')
        n++;
      advance (lx, n);
      if (!any)
        set_error (t, "malformed integer");
      else if (overflow)
        set_error (t, "integer too large");
      else if (g_ascii_isalnum (peek (lx, 0)))
        set_error (t, "malformed integer");
      else
        {
          t->kind = CTF_TOK_INTEGER;
          t->value = v;
          t->len = (guint) n;
        }
      return;
    }
  if (c == '"' || c == '\'')
    {
      gsize n = 1;
      while (lx->pos + n < lx->len && peek (lx, n) != c && peek (lx, n) != '\n')
        n += peek (lx, n) == '\\' && lx->pos + n + 1 < lx->len ? 2 : 1;
      if (peek (lx, n) != c)
        {
          advance (lx, n);
          set_error (t, c == '"' ? "unterminated string" : "unterminated character constant");
          return;
        }
      t->kind = c == '"' ? CTF_TOK_STRING : CTF_TOK_CHAR;
      t->text = lx->src + lx->pos + 1;
      t->len = (guint) (n - 1);
      advance (lx, n + 1);
      return;
    }
  if (c == ':' && peek (lx, 1) == '=')
    {
      t->kind = CTF_TOK_ASSIGN_TYPE;
      t->len = 2;
      advance (lx, 2);
      return;
    }
  if (c == '.' && peek (lx, 1) == '.' && peek (lx, 2) == '.')
    {
      t->kind = CTF_TOK_ELLIPSIS;
      t->len = 3;
      advance (lx, 3);
      return;
    }
  if (c == '-' && peek (lx, 1) == '>')
    {
      t->kind = CTF_TOK_ARROW;
      t->len = 2;
      advance (lx, 2);
      return;
    }
  if (strchr ("{}()[];:,=.<>*+-", c))
    {
      t->kind = CTF_TOK_PUNCT;
      t->len = 1;
      advance (lx, 1);
      return;
    }
  advance (lx, 1);
  set_error (t, "unexpected character");
}

gboolean
ttv_ctf_token_is (const CtfToken *t, const char *text)
{
  gsize n = strlen (text);
  return (t->kind == CTF_TOK_IDENT || t->kind == CTF_TOK_PUNCT || t->kind == CTF_TOK_ASSIGN_TYPE
          || t->kind == CTF_TOK_ELLIPSIS || t->kind == CTF_TOK_ARROW)
         && t->len == n && memcmp (t->text, text, n) == 0;
}

char *
ttv_ctf_token_dup (const CtfToken *t)
{
  return g_strndup (t->text, t->len);
}

char *
ttv_ctf_string_unescape (const char *text, gsize len)
{
  GString *s = g_string_sized_new (len);
  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];
      if (c != '\\' || i + 1 >= len)
        {
          g_string_append_c (s, c);
          continue;
        }
      c = text[++i];
      switch (c)
        {
        case 'n': g_string_append_c (s, '\n'); break;
        case 't': g_string_append_c (s, '\t'); break;
        case 'r': g_string_append_c (s, '\r'); break;
        case 'a': g_string_append_c (s, '\a'); break;
        case 'b': g_string_append_c (s, '\b'); break;
        case 'f': g_string_append_c (s, '\f'); break;
        case 'v': g_string_append_c (s, '\v'); break;
        case '0': g_string_append_c (s, ' '); break;  /* no NUL inside our strings */
        default: g_string_append_c (s, c); break;
        }
    }
  return g_string_free (s, FALSE);
}

/* ttv-filter-parser.c: recursive descent from tokens to the syntax tree of
 * a filter: or := and ('|' and)*, and := unary ('&' unary)*,
 * unary := '!' unary | '(' or ')' | NAME [OP VALUE]. */
#include "ttv-filter-private.h"
#include "ttv-error.h"
#include "ttv-escape.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  GArray *tokens;
  guint i;
  const TtvHookGroups *groups;
  GError **error;
  guint nesting;            /* parentheses and '!' open around the current token */
} Parser;

/* Parentheses and '!' nested deeper than this are refused: the parser and
 * every pass over the tree recurse once per level.  Chains of '&' or '|'
 * do not nest: they become balanced trees. */
#define MAX_NESTING 256

static const struct {
  const char *name;
  TtvFilterVar var;
} variables[] = {
  { "event.name", VAR_EVENT_NAME },
  { "event.facility", VAR_EVENT_FACILITY },
  { "event.id", VAR_EVENT_ID },
  { "event.group", VAR_EVENT_GROUP },
  { "event.time", VAR_EVENT_TIME },
  { "trace.name", VAR_TRACE_NAME },
  { "trace.host", VAR_TRACE_HOST },
  { "tracefile.name", VAR_TRACEFILE_NAME },
  { "cpu", VAR_CPU },
  { "state.pid", VAR_STATE_PID },
  { "state.tid", VAR_STATE_TID },
  { "state.ppid", VAR_STATE_PPID },
  { "state.process_name", VAR_STATE_PROCESS_NAME },
  { "state.exec_mode", VAR_STATE_EXEC_MODE },
  { "state.syscall", VAR_STATE_SYSCALL },
};

void
ttv_filter_node_free (TtvFilterNode *n)
{
  if (n == NULL)
    return;
  ttv_filter_node_free (n->a);
  ttv_filter_node_free (n->b);
  if (n->path)
    {
      for (guint i = 0; i < n->path->len; i++)
        g_free (g_array_index (n->path, TtvFilterPathStep, i).name);
      g_array_unref (n->path);
    }
  g_free (n->lit.text);
  if (n->lit.glob)
    g_pattern_spec_free (n->lit.glob);
  g_free (n);
}

gboolean
ttv_filter_node_uses_state (const TtvFilterNode *n)
{
  if (n == NULL)
    return FALSE;
  if (n->kind == NODE_CMP || n->kind == NODE_TEST)
    return n->var >= VAR_STATE_PID;
  return ttv_filter_node_uses_state (n->a) || ttv_filter_node_uses_state (n->b);
}

static const TtvFilterToken *
peek (Parser *p)
{
  return &g_array_index (p->tokens, TtvFilterToken, p->i);
}

static const TtvFilterToken *
take (Parser *p)
{
  const TtvFilterToken *t = peek (p);
  if (t->kind != TOK_END)
    p->i++;
  return t;
}

static TtvFilterNode *
expected (Parser *p, const char *what)
{
  const TtvFilterToken *t = peek (p);
  if (t->kind == TOK_WORD || t->kind == TOK_STRING)
    {
      g_autofree char *shown = ttv_escape_for_display (t->text, -1);
      g_set_error (p->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                   _("column %u: expected %s, found '%s'"), t->column, what, shown);
    }
  else
    g_set_error (p->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                 _("column %u: expected %s, found %s"), t->column, what, ttv_filter_token_describe (t->kind));
  return NULL;
}

static TtvFilterNode *parse_or (Parser *p);

/* "a.b[2].c" -> steps; FALSE on a malformed path. */
static gboolean
parse_path (const char *text, GArray *steps)
{
  const char *s = text;
  while (*s)
    {
      if (*s == '[')
        {
          char *end;
          guint64 idx = g_ascii_strtoull (s + 1, &end, 10);
          if (end == s + 1 || *end != ']')
            return FALSE;
          TtvFilterPathStep step = { NULL, idx };
          g_array_append_val (steps, step);
          s = end + 1;
          if (*s == '.')
            s++;
          continue;
        }
      const char *start = s;
      while (*s && *s != '.' && *s != '[')
        {
          if (!(g_ascii_isalnum (*s) || *s == '_'))
            return FALSE;
          s++;
        }
      if (s == start)
        return FALSE;
      TtvFilterPathStep step = { g_strndup (start, (gsize) (s - start)), 0 };
      g_array_append_val (steps, step);
      if (*s == '.')
        {
          s++;
          if (*s == '\0')
            return FALSE;
        }
    }
  return steps->len > 0 && g_array_index (steps, TtvFilterPathStep, 0).name != NULL;
}

static gboolean
resolve_variable (Parser *p, const TtvFilterToken *t, TtvFilterNode *n)
{
  n->column = t->column;
  const char *field = NULL;
  n->var = VAR_EVENT_FIELD;
  if (g_str_has_prefix (t->text, "event.field."))
    field = t->text + strlen ("event.field.");
  else if (g_str_has_prefix (t->text, "event.fields."))
    field = t->text + strlen ("event.fields.");
  else if (g_str_has_prefix (t->text, "event.context."))
    {
      field = t->text + strlen ("event.context.");
      n->var = VAR_EVENT_CONTEXT;
    }
  if (field)
    {
      n->path = g_array_new (FALSE, FALSE, sizeof (TtvFilterPathStep));
      if (!parse_path (field, n->path))
        {
          g_autofree char *shown = ttv_escape_for_display (t->text, -1);
          g_set_error (p->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
                       _("column %u: expected a field path such as event.field.name, "
                         "event.field.a.b, event.field.list[2] or event.context.name, found '%s'"),
                       t->column, shown);
          return FALSE;
        }
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    if (g_str_equal (t->text, variables[i].name))
      {
        n->var = variables[i].var;
        return TRUE;
      }
  g_autofree char *shown = ttv_escape_for_display (t->text, -1);
  g_set_error (p->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_UNKNOWN_NAME,
               _("column %u: unknown name '%s': expected event.name, event.facility, event.id, "
                 "event.group, event.time, event.field.NAME, event.context.NAME, trace.name, trace.host, tracefile.name, cpu, "
                 "state.pid, state.tid, state.ppid, state.process_name, state.exec_mode or state.syscall"),
               t->column, shown);
  return FALSE;
}

/* Fills the numeric views of a literal that reads as a number or a time. */
static void
classify_literal (TtvFilterLiteral *lit, gboolean quoted)
{
  const char *s = lit->text;
  if (quoted || *s == '\0')
    return;
  char *end;
  gboolean neg = s[0] == '-';
  const char *digits = neg || s[0] == '+' ? s + 1 : s;
  if (g_str_has_prefix (digits, "0x") || g_str_has_prefix (digits, "0X"))
    {
      guint64 v = g_ascii_strtoull (digits + 2, &end, 16);
      if (end != digits + 2 && *end == '\0' && v <= G_MAXINT64)
        {
          lit->has_int = TRUE;
          lit->ival = neg ? -(gint64) v : (gint64) v;
          lit->has_double = TRUE;
          lit->dval = (double) lit->ival;
        }
      return;
    }
  if (!g_ascii_isdigit (digits[0]))
    return;
  gint64 v = g_ascii_strtoll (s, &end, 10);
  if (*end == '\0')
    {
      lit->has_int = TRUE;
      lit->ival = v;
    }
  double d = g_ascii_strtod (s, &end);
  if (*end == '\0')
    {
      lit->has_double = TRUE;
      lit->dval = d;
    }
  TtvTime t;
  if (ttv_time_parse (digits, &t, NULL))
    {
      lit->has_time = TRUE;
      lit->time_relative = s[0] == '+';
      lit->tval = neg ? -t : t;
    }
}

static TtvFilterNode *
parse_comparison (Parser *p)
{
  const TtvFilterToken *t = peek (p);
  if (t->kind != TOK_WORD)
    return expected (p, _("a name such as event.name, '(' or '!'"));
  take (p);
  TtvFilterNode *n = g_new0 (TtvFilterNode, 1);
  n->kind = NODE_TEST;
  if (!resolve_variable (p, t, n))
    {
      ttv_filter_node_free (n);
      return NULL;
    }
  TtvFilterTokenKind k = peek (p)->kind;
  if (k < TOK_EQ || k > TOK_GE)
    {
      if (n->var == VAR_EVENT_GROUP)
        {
          ttv_filter_node_free (n);
          return expected (p, _("'=' or '!=' after event.group"));
        }
      return n;   /* a bare name: true when present and not 0 or empty */
    }
  const TtvFilterToken *op = take (p);
  n->kind = NODE_CMP;
  n->op = (TtvFilterOp) (op->kind - TOK_EQ);
  const TtvFilterToken *v = peek (p);
  if (v->kind != TOK_WORD && v->kind != TOK_STRING)
    {
      g_autofree char *what = g_strdup_printf (_("a value after %s"), ttv_filter_token_describe (op->kind));
      ttv_filter_node_free (n);
      return expected (p, what);
    }
  take (p);
  n->lit.text = g_strdup (v->text);
  classify_literal (&n->lit, v->kind == TOK_STRING);
  if ((n->op == OP_EQ || n->op == OP_NE) && strpbrk (n->lit.text, "*?"))
    {
      n->lit.is_glob = TRUE;
      /* GPatternSpec needs UTF-8 (GLib aborts otherwise); a pattern of
       * other bytes (a quoted string) is matched byte by byte. */
      if (g_utf8_validate (n->lit.text, -1, NULL))
        n->lit.glob = g_pattern_spec_new (n->lit.text);
    }
  const char *bad = NULL;
  /* "0x" with no hex digits after it is a typo, not a word to compare. */
  const char *digits = v->kind == TOK_WORD && (v->text[0] == '-' || v->text[0] == '+') ? v->text + 1 : v->text;
  if (v->kind == TOK_WORD && (g_str_has_prefix (digits, "0x") || g_str_has_prefix (digits, "0X")) && !n->lit.has_int)
    bad = _("a hexadecimal number (0x followed by hex digits)");
  switch (bad ? VAR_TRACE_NAME : n->var)
    {
    case VAR_EVENT_TIME:
      if (!n->lit.has_time)
        bad = _("a time in seconds (S, S.N, or +S.N from the trace start)");
      break;
    case VAR_EVENT_ID:
    case VAR_CPU:
    case VAR_STATE_PID:
    case VAR_STATE_TID:
    case VAR_STATE_PPID:
      if (!n->lit.has_int)
        bad = _("an integer (decimal or 0x hex)");
      break;
    case VAR_STATE_EXEC_MODE:
      {
        /* An enumerated value: a misspelt mode would silently match nothing. */
        gboolean any = FALSE;
        for (guint m = 0; m < TTV_MODE_N && !any; m++)
          any = ttv_filter_string_compare (&n->lit, OP_EQ, ttv_exec_mode_name ((TtvExecMode) m));
        if (!any)
          bad = n->lit.is_glob ? _("a pattern matching an execution mode (user, syscall, trap, irq, softirq "
                                   "or unknown)")
                               : _("an execution mode: user, syscall, trap, irq, softirq or unknown");
        break;
      }
    case VAR_EVENT_GROUP:
      if (n->op != OP_EQ && n->op != OP_NE)
        {
          /* The operator is what is wrong: point there. */
          g_set_error (p->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_BAD_VALUE,
                       _("column %u: expected '=' or '!=' with event.group, found %s"), op->column,
                       ttv_filter_token_describe (op->kind));
          ttv_filter_node_free (n);
          return NULL;
        }
      else if (!ttv_hook_groups_has (p->groups, n->lit.text))
        {
          g_autofree char *shown = ttv_escape_for_display (n->lit.text, -1);
          g_set_error (p->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_UNKNOWN_NAME,
                       _("column %u: unknown hook group '%s'"), v->column, shown);
          ttv_filter_node_free (n);
          return NULL;
        }
      break;
    default:
      break;
    }
  if (bad)
    {
      g_autofree char *shown = ttv_escape_for_display (v->text, -1);
      g_set_error (p->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_BAD_VALUE,
                   _("column %u: expected %s, found '%s'"), v->column, bad, shown);
      ttv_filter_node_free (n);
      return NULL;
    }
  return n;
}

/* One more level of parentheses or '!' at token @t; FALSE (with the
 * error) past MAX_NESTING. */
static gboolean
enter (Parser *p, const TtvFilterToken *t)
{
  if (++p->nesting <= MAX_NESTING)
    return TRUE;
  g_set_error (p->error, TTV_FILTER_ERROR, TTV_FILTER_ERROR_SYNTAX,
               _("column %u: the expression nests parentheses and '!' more than %u deep"), t->column,
               MAX_NESTING);
  return FALSE;
}

static TtvFilterNode *
parse_unary (Parser *p)
{
  const TtvFilterToken *t = peek (p);
  if (t->kind == TOK_NOT)
    {
      if (!enter (p, t))
        return NULL;
      take (p);
      TtvFilterNode *a = parse_unary (p);
      p->nesting--;
      if (a == NULL)
        return NULL;
      TtvFilterNode *n = g_new0 (TtvFilterNode, 1);
      n->kind = NODE_NOT;
      n->a = a;
      n->column = t->column;
      return n;
    }
  if (t->kind == TOK_LPAREN)
    {
      if (!enter (p, t))
        return NULL;
      take (p);
      TtvFilterNode *n = parse_or (p);
      p->nesting--;
      if (n == NULL)
        return NULL;
      if (peek (p)->kind != TOK_RPAREN)
        {
          ttv_filter_node_free (n);
          return expected (p, _("')', '&' or '|'"));
        }
      take (p);
      return n;
    }
  return parse_comparison (p);
}

/* The operands @items[lo..hi) joined by @kind as a balanced tree, so that
 * a chain of n terms is log2(n) deep (AND and OR are associative: the
 * order of the operands is kept). */
static TtvFilterNode *
balanced (TtvFilterNode **items, guint *columns, guint lo, guint hi, TtvFilterNodeKind kind)
{
  if (hi - lo == 1)
    return items[lo];
  guint mid = lo + (hi - lo) / 2;
  TtvFilterNode *n = g_new0 (TtvFilterNode, 1);
  n->kind = kind;
  n->a = balanced (items, columns, lo, mid, kind);
  n->b = balanced (items, columns, mid, hi, kind);
  n->column = columns[mid];     /* the operator between the two halves */
  return n;
}

static TtvFilterNode *
parse_binary (Parser *p, TtvFilterTokenKind tok, TtvFilterNodeKind kind)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  g_autoptr (GArray) columns = g_array_new (FALSE, FALSE, sizeof (guint));
  TtvFilterNode *first = tok == TOK_OR ? parse_binary (p, TOK_AND, NODE_AND) : parse_unary (p);
  guint no_column = 0;
  if (first == NULL)
    return NULL;
  g_ptr_array_add (items, first);
  g_array_append_val (columns, no_column);
  while (peek (p)->kind == tok)
    {
      guint column = take (p)->column;
      TtvFilterNode *right = tok == TOK_OR ? parse_binary (p, TOK_AND, NODE_AND) : parse_unary (p);
      if (right == NULL)
        {
          g_ptr_array_set_free_func (items, (GDestroyNotify) ttv_filter_node_free);
          return NULL;
        }
      g_ptr_array_add (items, right);
      g_array_append_val (columns, column);
    }
  return balanced ((TtvFilterNode **) items->pdata, (guint *) columns->data, 0, items->len, kind);
}

static TtvFilterNode *
parse_or (Parser *p)
{
  return parse_binary (p, TOK_OR, NODE_OR);
}

TtvFilterNode *
ttv_filter_parse (GArray *tokens, const TtvHookGroups *groups, GError **error)
{
  Parser p = { tokens, 0, groups, error, 0 };
  if (peek (&p)->kind == TOK_END)
    return expected (&p, _("an expression"));
  TtvFilterNode *n = parse_or (&p);
  if (n && peek (&p)->kind != TOK_END)
    {
      ttv_filter_node_free (n);
      return expected (&p, _("'&', '|' or the end of the expression"));
    }
  return n;
}

/* ttv-filter-compile.c: specialises a filter's syntax tree for one event
 * type: names, ids and groups are decided here once (constant folding),
 * payload fields become accessors resolved once; what is left runs per event. */
#include "ttv-filter-private.h"

#include <string.h>

gboolean
ttv_filter_string_compare (const TtvFilterLiteral *lit, TtvFilterOp op, const char *s)
{
  if (s == NULL)
    return FALSE;
  if (lit->is_glob)
    {
      gboolean m = g_pattern_spec_match_string (lit->glob, s);
      return op == OP_EQ ? m : !m;
    }
  int c = strcmp (s, lit->text);
  switch (op)
    {
    case OP_EQ: return c == 0;
    case OP_NE: return c != 0;
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    case OP_GE: return c >= 0;
    }
  return FALSE;
}

gboolean
ttv_filter_int_compare (TtvFilterOp op, gint64 v, gint64 lit)
{
  switch (op)
    {
    case OP_EQ: return v == lit;
    case OP_NE: return v != lit;
    case OP_LT: return v < lit;
    case OP_LE: return v <= lit;
    case OP_GT: return v > lit;
    case OP_GE: return v >= lit;
    }
  return FALSE;
}

static guint32
add (GArray *nodes, const TtvFilterProgNode *n)
{
  g_array_append_val (nodes, *n);
  return nodes->len - 1;
}

static guint32
add_const (GArray *nodes, gboolean value)
{
  TtvFilterProgNode n = { .kind = PROG_CONST, .value = (guint8) value };
  return add (nodes, &n);
}

static gboolean
is_const (GArray *nodes, guint32 i, gboolean *value)
{
  const TtvFilterProgNode *n = &g_array_index (nodes, TtvFilterProgNode, i);
  if (n->kind != PROG_CONST)
    return FALSE;
  *value = n->value;
  return TRUE;
}

/* A payload field read: an accessor when the path is one top-level member
 * of a simple type, else a decode; constant FALSE when the type lacks it. */
static guint32
compile_field (GArray *nodes, const TtvFilterNode *src, const TtvEventType *type, TtvFilterProgKind kind)
{
  const TtvFilterPathStep *first = &g_array_index (src->path, TtvFilterPathStep, 0);
  gint idx = type->fields ? ttv_type_find_field (type->fields, first->name) : -1;
  if (idx < 0)
    return add_const (nodes, FALSE);
  const TtvField *field = g_ptr_array_index (type->fields->fields, idx);
  TtvFilterProgNode n = { .kind = (guint8) kind, .node = src, .fetch = FETCH_FIELD_DECODE };
  if (src->path->len == 1)
    {
      TtvTypeKind k = field->type->kind;
      gboolean wants_string = kind == PROG_TEST ? FALSE
                              : (!src->lit.has_int && !src->lit.has_double) || src->lit.is_glob;
      if (k == TTV_TYPE_INTEGER || (k == TTV_TYPE_ENUM && !wants_string))
        {
          if (wants_string)
            return add_const (nodes, FALSE);   /* a plain integer never equals a word */
          n.fetch = FETCH_FIELD_INT;
        }
      else if (k == TTV_TYPE_STRING || k == TTV_TYPE_ENUM
               || (k == TTV_TYPE_ARRAY && field->type->element->kind == TTV_TYPE_INTEGER
                   && field->type->element->size_bits == 8))
        n.fetch = FETCH_FIELD_STRING;
      if (n.fetch != FETCH_FIELD_DECODE)
        {
          ttv_field_accessor_init (&n.acc, type, first->name);
          if (!ttv_field_accessor_is_valid (&n.acc))
            n.fetch = FETCH_FIELD_DECODE;
        }
    }
  return add (nodes, &n);
}

/* A term about the tracefile itself, when it is known, is a constant. */
static guint32
fold_value (GArray *nodes, const TtvFilterNode *src, const TtvFilterVal *v)
{
  return add_const (nodes, src->kind == NODE_TEST ? ttv_filter_value_test (v)
                                                  : ttv_filter_value_compare (src, v));
}

static guint32
compile (GArray *nodes, const TtvFilterNode *src, const TtvHookGroups *groups, const TtvTrace *trace,
         const TtvTracefile *tf, const TtvEventType *type)
{
  gboolean va, vb;
  switch (src->kind)
    {
    case NODE_AND:
    case NODE_OR:
      {
        gboolean is_and = src->kind == NODE_AND;
        guint32 a = compile (nodes, src->a, groups, trace, tf, type);
        if (is_const (nodes, a, &va) && va != is_and)
          return a;                     /* FALSE & x, TRUE | x */
        guint32 b = compile (nodes, src->b, groups, trace, tf, type);
        if (is_const (nodes, a, &va))
          return b;                     /* TRUE & x, FALSE | x */
        if (is_const (nodes, b, &vb))
          return vb != is_and ? b : a;
        TtvFilterProgNode n = { .kind = is_and ? PROG_AND : PROG_OR, .a = a, .b = b };
        return add (nodes, &n);
      }
    case NODE_NOT:
      {
        guint32 a = compile (nodes, src->a, groups, trace, tf, type);
        if (is_const (nodes, a, &va))
          return add_const (nodes, !va);
        TtvFilterProgNode n = { .kind = PROG_NOT, .a = a };
        return add (nodes, &n);
      }
    case NODE_CMP:
    case NODE_TEST:
      break;
    }

  gboolean test = src->kind == NODE_TEST;
  const TtvFilterLiteral *lit = &src->lit;
  TtvFilterProgKind kind = test ? PROG_TEST : PROG_CMP;
  TtvFilterProgNode n = { .kind = (guint8) kind, .node = src };
  switch (src->var)
    {
    case VAR_EVENT_NAME:
      if (test)
        return add_const (nodes, TRUE);
      /* Either spelling selects the type: "core.sched_switch" or "sched_switch". */
      if (src->op == OP_NE)
        {
          TtvFilterLiteral eq = *lit;
          return add_const (nodes, !ttv_filter_string_compare (&eq, OP_EQ, type->full_name)
                                   && !ttv_filter_string_compare (&eq, OP_EQ, type->name));
        }
      return add_const (nodes, ttv_filter_string_compare (lit, src->op, type->full_name)
                               || (src->op == OP_EQ && ttv_filter_string_compare (lit, src->op, type->name)));
    case VAR_EVENT_FACILITY:
      return add_const (nodes, test ? type->facility != NULL : ttv_filter_string_compare (lit, src->op, type->facility));
    case VAR_EVENT_ID:
      return add_const (nodes, test ? TRUE : ttv_filter_int_compare (src->op, (gint64) type->format_id, lit->ival));
    case VAR_EVENT_GROUP:
      {
        gboolean m = ttv_hook_groups_match (groups, lit->text, type);
        return add_const (nodes, src->op == OP_EQ ? m : !m);
      }
    case VAR_EVENT_FIELD:
      return compile_field (nodes, src, type, kind);
    case VAR_EVENT_TIME: n.fetch = FETCH_TIME; break;
    case VAR_TRACE_NAME:
      /* Programs are per (trace, type): the trace is known here. */
      return add_const (nodes, test ? TRUE : ttv_filter_string_compare (lit, src->op, trace->name));
    case VAR_TRACEFILE_NAME:
      if (tf)
        {
          TtvFilterVal v = { .kind = TTV_FILTER_VAL_STRING, .s = tf->name };
          return fold_value (nodes, src, &v);
        }
      n.fetch = FETCH_TRACEFILE_NAME;
      break;
    case VAR_CPU:
      if (tf)
        {
          TtvFilterVal v = { .kind = tf->cpu >= 0 ? TTV_FILTER_VAL_INT : TTV_FILTER_VAL_NONE, .i = tf->cpu };
          return fold_value (nodes, src, &v);
        }
      n.fetch = FETCH_CPU;
      break;
    case VAR_STATE_PID: n.fetch = FETCH_STATE_PID; break;
    case VAR_STATE_TID: n.fetch = FETCH_STATE_TID; break;
    case VAR_STATE_PPID: n.fetch = FETCH_STATE_PPID; break;
    case VAR_STATE_PROCESS_NAME: n.fetch = FETCH_STATE_NAME; break;
    case VAR_STATE_EXEC_MODE: n.fetch = FETCH_STATE_MODE; break;
    case VAR_STATE_SYSCALL: n.fetch = FETCH_STATE_SYSCALL; break;
    }
  return add (nodes, &n);
}

TtvFilterProgram *
ttv_filter_program_new (const TtvFilterNode *root, const TtvHookGroups *groups, const TtvTrace *trace,
                        const TtvTracefile *tracefile, const TtvEventType *type)
{
  TtvFilterProgram *prog = g_new0 (TtvFilterProgram, 1);
  GArray *nodes = g_array_new (FALSE, FALSE, sizeof (TtvFilterProgNode));
  prog->root = compile (nodes, root, groups, trace, tracefile, type);
  gboolean v;
  if (is_const (nodes, prog->root, &v))
    {
      prog->verdict = v ? TTV_FILTER_ALWAYS : TTV_FILTER_NEVER;
      g_array_unref (nodes);
    }
  else
    {
      prog->verdict = TTV_FILTER_DEPENDS;
      prog->nodes = nodes;
    }
  return prog;
}

void
ttv_filter_program_free (TtvFilterProgram *prog)
{
  if (prog == NULL)
    return;
  if (prog->nodes)
    g_array_unref (prog->nodes);
  g_free (prog);
}

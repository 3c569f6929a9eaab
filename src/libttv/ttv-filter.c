/* ttv-filter.c: the public filter object: parse once, keep one program per
 * (trace, event type) built on first sight, evaluate without allocating. */
#include "ttv-filter-private.h"
#include "ttv-error.h"

#include <string.h>

typedef struct {
  const TtvTrace *trace;     /* weak: the key */
  /* Of TtvFilterProgram *, owned: slot (tracefile index + 1) * n_types + type
   * id, slot row 0 for check_type, which has no tracefile. */
  GPtrArray *programs;
  guint n_types;
} TraceCache;

struct _TtvFilter {
  char *expression;
  TtvFilterNode *root;             /* owned */
  TtvHookGroups *own_groups;       /* owned when none was given */
  const TtvHookGroups *groups;     /* weak */
  gboolean needs_state;
  GArray *caches;                  /* of TraceCache */
  TraceCache *last;                /* the cache used last (usually the only one) */
  TtvDecoder *decoder;             /* owned: decode-path reads */
  TtvDecoder *scratch;             /* owned: accessor reads */
  const TtvEvent *decoded;         /* weak: event whose fields @decoder holds */
  gint32 decoded_root;
  GString *text;                   /* owned: NUL-terminated copies for globs */
};

TtvFilter *
ttv_filter_new (const char *expression, const TtvHookGroups *groups, GError **error)
{
  g_return_val_if_fail (expression != NULL, NULL);
  g_autoptr (TtvHookGroups) own = groups ? NULL : ttv_hook_groups_new ();
  GArray *tokens = ttv_filter_lex (expression, error);
  if (tokens == NULL)
    return NULL;
  TtvFilterNode *root = ttv_filter_parse (tokens, groups ? groups : own, error);
  ttv_filter_tokens_free (tokens);
  if (root == NULL)
    return NULL;
  TtvFilter *f = g_new0 (TtvFilter, 1);
  f->expression = g_strdup (expression);
  f->root = root;
  f->own_groups = g_steal_pointer (&own);
  f->groups = groups ? groups : f->own_groups;
  f->needs_state = ttv_filter_node_uses_state (root);
  f->caches = g_array_new (FALSE, FALSE, sizeof (TraceCache));
  f->decoder = ttv_decoder_new ();
  f->scratch = ttv_decoder_new ();
  f->text = g_string_sized_new (256);
  return f;
}

void
ttv_filter_free (TtvFilter *f)
{
  if (f == NULL)
    return;
  for (guint i = 0; i < f->caches->len; i++)
    g_ptr_array_unref (g_array_index (f->caches, TraceCache, i).programs);
  g_array_unref (f->caches);
  ttv_filter_node_free (f->root);
  ttv_hook_groups_free (f->own_groups);
  ttv_decoder_free (f->decoder);
  ttv_decoder_free (f->scratch);
  g_string_free (f->text, TRUE);
  g_free (f->expression);
  g_free (f);
}

const char *
ttv_filter_get_expression (const TtvFilter *f)
{
  return f->expression;
}

gboolean
ttv_filter_needs_state (const TtvFilter *f)
{
  return f->needs_state;
}

/* Programs are specialised per (tracefile, event type), so that terms that
 * only depend on them (name, group, trace, CPU) fold away; check_type,
 * which has no tracefile, has a row of its own.  Called for every event:
 * one pointer test and an array index in the common case. */
static TtvFilterProgram *
get_program (TtvFilter *f, const TtvTrace *trace, const TtvTracefile *tracefile, const TtvEventType *type)
{
  TraceCache *c = f->last;
  if (G_UNLIKELY (c == NULL || c->trace != trace))
    {
      c = NULL;
      for (guint i = 0; i < f->caches->len && c == NULL; i++)
        if (g_array_index (f->caches, TraceCache, i).trace == trace)
          c = &g_array_index (f->caches, TraceCache, i);
      if (c == NULL)
        {
          TraceCache nc = { trace, g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_filter_program_free),
                            MAX (trace->event_types->len, 1) };
          g_array_append_val (f->caches, nc);
          c = &g_array_index (f->caches, TraceCache, f->caches->len - 1);
        }
      f->last = c;
    }
  guint row = tracefile ? tracefile->index + 1 : 0;
  guint slot = row * c->n_types + type->id;
  if (G_UNLIKELY (type->id >= c->n_types))
    {
      /* Types added after the cache was made (a refreshed trace): rebuild. */
      g_ptr_array_set_size (c->programs, 0);
      c->n_types = trace->event_types->len;
      slot = row * c->n_types + type->id;
    }
  if (G_UNLIKELY (slot >= c->programs->len))
    g_ptr_array_set_size (c->programs, (gint) slot + 1);
  TtvFilterProgram *prog = g_ptr_array_index (c->programs, slot);
  if (G_UNLIKELY (prog == NULL))
    {
      prog = ttv_filter_program_new (f->root, f->groups, trace, tracefile, type);
      g_ptr_array_index (c->programs, slot) = prog;
    }
  return prog;
}

TtvFilterVerdict
ttv_filter_check_type (TtvFilter *f, const TtvTrace *trace, const TtvEventType *type)
{
  g_return_val_if_fail (f != NULL && trace != NULL && type != NULL, TTV_FILTER_DEPENDS);
  return get_program (f, trace, NULL, type)->verdict;
}

static const TtvProcessState *
running (const TtvEvent *ev, const TtvState *state)
{
  return state ? ttv_state_get_running (state, ev->tracefile->cpu) : NULL;
}

static void
set_string (TtvFilter *f, TtvFilterVal *v, const char *s, gsize len)
{
  /* Trace data strings are not always terminated: copy (no allocation once
   * the buffer has grown). */
  g_string_truncate (f->text, 0);
  g_string_append_len (f->text, s, (gssize) strnlen (s, len));
  v->kind = TTV_FILTER_VAL_STRING;
  v->s = f->text->str;
}

static void
fetch_decoded (TtvFilter *f, const TtvFilterNode *src, const TtvEvent *ev, gboolean want_string, TtvFilterVal *v)
{
  if (f->decoded != ev)
    {
      ttv_decoder_reset (f->decoder);
      f->decoded_root = ttv_event_decode_fields (ev, f->decoder, NULL);
      f->decoded = ev;
    }
  if (f->decoded_root < 0)
    return;
  const TtvValue *cur = ttv_decoder_get (f->decoder, (guint32) f->decoded_root);
  for (guint i = 0; cur && i < src->path->len; i++)
    {
      const TtvFilterPathStep *step = &g_array_index (src->path, TtvFilterPathStep, i);
      if (step->name)
        cur = cur->type->kind == TTV_TYPE_STRUCT || cur->type->kind == TTV_TYPE_VARIANT
              ? ttv_decoder_get_field (f->decoder, cur, step->name) : NULL;
      else if ((cur->type->kind == TTV_TYPE_ARRAY || cur->type->kind == TTV_TYPE_SEQUENCE)
               && step->index < cur->n_children)
        cur = ttv_decoder_get (f->decoder, cur->first_child + (guint32) step->index);
      else
        cur = NULL;
    }
  if (cur == NULL)
    return;
  switch (cur->type->kind)
    {
    case TTV_TYPE_STRING:
      v->kind = TTV_FILTER_VAL_STRING;
      v->s = cur->v.string.str;
      break;
    case TTV_TYPE_ENUM:
      if (want_string)
        {
          const char *label = ttv_type_enum_label (cur->type, cur->v.u);
          if (label)
            {
              v->kind = TTV_FILTER_VAL_STRING;
              v->s = label;
            }
          break;
        }
      G_GNUC_FALLTHROUGH;
    case TTV_TYPE_INTEGER:
      if (ttv_value_get_int (cur, &v->i))
        v->kind = TTV_FILTER_VAL_INT;
      break;
    case TTV_TYPE_FLOAT:
      v->kind = TTV_FILTER_VAL_DOUBLE;
      v->d = cur->v.f;
      break;
    default:
      break;
    }
}

static void
fetch (TtvFilter *f, const TtvFilterProgNode *n, const TtvEvent *ev, const TtvState *state, TtvFilterVal *v)
{
  const TtvProcessState *proc;
  const TtvFilterLiteral *lit = &n->node->lit;
  v->kind = TTV_FILTER_VAL_NONE;
  switch ((TtvFilterFetch) n->fetch)
    {
    case FETCH_TIME:
      v->kind = TTV_FILTER_VAL_INT;
      v->i = lit->time_relative ? ev->time - ev->tracefile->trace->start : ev->time;
      break;
    case FETCH_CPU:
      if (ev->tracefile->cpu >= 0)
        {
          v->kind = TTV_FILTER_VAL_INT;
          v->i = ev->tracefile->cpu;
        }
      break;
    case FETCH_TRACEFILE_NAME:
      v->kind = TTV_FILTER_VAL_STRING;
      v->s = ev->tracefile->name;
      break;
    case FETCH_STATE_PID:
    case FETCH_STATE_TID:
    case FETCH_STATE_PPID:
      if ((proc = running (ev, state)) != NULL)
        {
          v->kind = TTV_FILTER_VAL_INT;
          v->i = n->fetch == FETCH_STATE_TID ? proc->pid
                 : n->fetch == FETCH_STATE_PPID ? proc->ppid
                 : proc->tgid ? proc->tgid : proc->pid;
        }
      break;
    case FETCH_STATE_NAME:
      if ((proc = running (ev, state)) != NULL && proc->name)
        {
          v->kind = TTV_FILTER_VAL_STRING;
          v->s = g_quark_to_string (proc->name);
        }
      break;
    case FETCH_STATE_MODE:
      if ((proc = running (ev, state)) != NULL)
        {
          v->kind = TTV_FILTER_VAL_STRING;
          v->s = ttv_exec_mode_name (ttv_process_state_get_mode (proc));
        }
      break;
    case FETCH_STATE_SYSCALL:
      if ((proc = running (ev, state)) != NULL && (v->s = ttv_process_state_get_syscall (proc)) != NULL)
        v->kind = TTV_FILTER_VAL_STRING;
      break;
    case FETCH_FIELD_INT:
      if (ttv_field_accessor_get_int (&n->acc, ev, f->scratch, &v->i))
        v->kind = TTV_FILTER_VAL_INT;
      break;
    case FETCH_FIELD_STRING:
      {
        gsize len;
        const char *s = ttv_field_accessor_get_string (&n->acc, ev, f->scratch, &len);
        if (s)
          set_string (f, v, s, len);
        break;
      }
    case FETCH_FIELD_DECODE:
      fetch_decoded (f, n->node, ev, n->kind == PROG_CMP && !lit->has_int && !lit->has_double, v);
      break;
    }
}

gboolean
ttv_filter_value_test (const TtvFilterVal *v)
{
  return (v->kind == TTV_FILTER_VAL_INT && v->i != 0) || (v->kind == TTV_FILTER_VAL_DOUBLE && v->d != 0)
         || (v->kind == TTV_FILTER_VAL_STRING && v->s[0] != '\0');
}

gboolean
ttv_filter_value_compare (const TtvFilterNode *src, const TtvFilterVal *v)
{
  const TtvFilterLiteral *lit = &src->lit;
  switch (v->kind)
    {
    case TTV_FILTER_VAL_NONE:
      return FALSE;
    case TTV_FILTER_VAL_INT:
      if (src->var == VAR_EVENT_TIME)
        return ttv_filter_int_compare (src->op, v->i, lit->tval);
      if (lit->has_int)
        return ttv_filter_int_compare (src->op, v->i, lit->ival);
      if (lit->has_double)
        return ttv_filter_int_compare (src->op, v->i < lit->dval ? -1 : v->i > lit->dval, 0);
      return FALSE;
    case TTV_FILTER_VAL_DOUBLE:
      if (!lit->has_double)
        return FALSE;
      return ttv_filter_int_compare (src->op, v->d < lit->dval ? -1 : v->d > lit->dval, 0);
    case TTV_FILTER_VAL_STRING:
      return ttv_filter_string_compare (lit, src->op, v->s);
    }
  return FALSE;
}

static gboolean
eval (TtvFilter *f, const TtvFilterProgNode *nodes, guint32 i, const TtvEvent *ev, const TtvState *state)
{
  const TtvFilterProgNode *n = &nodes[i];
  TtvFilterVal v;
  switch ((TtvFilterProgKind) n->kind)
    {
    case PROG_CONST:
      return n->value;
    case PROG_AND:
      return eval (f, nodes, n->a, ev, state) && eval (f, nodes, n->b, ev, state);
    case PROG_OR:
      return eval (f, nodes, n->a, ev, state) || eval (f, nodes, n->b, ev, state);
    case PROG_NOT:
      return !eval (f, nodes, n->a, ev, state);
    case PROG_CMP:
      fetch (f, n, ev, state, &v);
      return ttv_filter_value_compare (n->node, &v);
    case PROG_TEST:
      fetch (f, n, ev, state, &v);
      return ttv_filter_value_test (&v);
    }
  return FALSE;
}

gboolean
ttv_filter_matches (TtvFilter *f, const TtvEvent *ev, const TtvState *state)
{
  TtvFilterProgram *prog = get_program (f, ev->tracefile->trace, ev->tracefile, ev->type);
  if (prog->verdict != TTV_FILTER_DEPENDS)
    return prog->verdict == TTV_FILTER_ALWAYS;
  f->decoded = NULL;
  return eval (f, (const TtvFilterProgNode *) prog->nodes->data, prog->root, ev, state);
}

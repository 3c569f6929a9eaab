/* ttv-filter-compile.c: specialises a filter's syntax tree for one event
 * type: names, ids and groups are decided here once (constant folding);
 * what is left is flattened into instructions (ttv-filter.c runs them),
 * each reading a field at a fixed offset, the time or a string directly. */
#include "ttv-filter-private.h"
#include "ttv-glob.h"

#include <string.h>

gboolean
ttv_filter_string_compare (const TtvFilterLiteral *lit, TtvFilterOp op, const char *s)
{
  if (s == NULL)
    return FALSE;
  if (lit->is_glob)
    {
      gboolean m = ttv_filter_glob_match (lit, s, strlen (s));
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

gint
ttv_filter_enum_mapping (const TtvType *t, guint64 raw)
{
  /* The same search as ttv_type_enum_label(), direct slot first. */
  if (raw < t->mappings->len)
    {
      const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, raw);
      if (m->start == raw && m->end == raw)
        return (gint) raw;
    }
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
      gboolean hit = t->is_signed ? ((gint64) raw >= (gint64) m->start && (gint64) raw <= (gint64) m->end)
                                  : (raw >= m->start && raw <= m->end);
      if (hit)
        return (gint) i;
    }
  return -1;
}

gboolean
ttv_filter_glob_match (const TtvFilterLiteral *lit, const char *s, gsize len)
{
  /* GPatternSpec steps over UTF-8 sequences and would read past the end
   * of text that is not valid UTF-8: such text (trace data), or such a
   * pattern (which has no GPatternSpec), matches bytes. */
  if (lit->glob == NULL || !g_utf8_validate (s, (gssize) len, NULL))
    return ttv_glob_match_bytes (lit->text, s, len);
  return g_pattern_spec_match (lit->glob, len, s, NULL);
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
compile_field (GArray *nodes, const TtvFilterNode *src, const TtvTrace *trace, const TtvEventType *type,
               TtvFilterProgKind kind)
{
  const TtvFilterPathStep *first = &g_array_index (src->path, TtvFilterPathStep, 0);
  gint idx = src->var == VAR_EVENT_FIELD && type->fields ? ttv_type_find_field (type->fields, first->name) : -1;
  if (idx < 0)
    {
      /* event.context.NAME, or a field the payload lacks: the CTF contexts
       * (CTF's procname, vtid...), decided per type like payload fields. */
      if (!ttv_event_type_has_context (trace, type, first->name))
        return add_const (nodes, FALSE);
      TtvFilterProgNode n = { .kind = (guint8) kind, .node = src, .fetch = FETCH_CONTEXT };
      return add (nodes, &n);
    }
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
         const TtvTracefile *tf, const TtvEventType *type, const TtvFilterTimeWindow *win)
{
  gboolean va, vb;
  switch (src->kind)
    {
    case NODE_AND:
    case NODE_OR:
      {
        gboolean is_and = src->kind == NODE_AND;
        guint32 a = compile (nodes, src->a, groups, trace, tf, type, win);
        if (is_const (nodes, a, &va) && va != is_and)
          return a;                     /* FALSE & x, TRUE | x */
        guint32 b = compile (nodes, src->b, groups, trace, tf, type, win);
        if (is_const (nodes, a, &va))
          return b;                     /* TRUE & x, FALSE | x */
        if (is_const (nodes, b, &vb))
          return vb != is_and ? b : a;
        TtvFilterProgNode n = { .kind = is_and ? PROG_AND : PROG_OR, .a = a, .b = b };
        return add (nodes, &n);
      }
    case NODE_NOT:
      {
        guint32 a = compile (nodes, src->a, groups, trace, tf, type, win);
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
    case VAR_EVENT_CONTEXT:
      return compile_field (nodes, src, trace, type, kind);
    case VAR_EVENT_TIME:
      if (win)
        {
          /* Any time of the window gives the verdict of all of them. */
          TtvTime t = win->lo != TTV_TIME_MIN ? win->lo : win->hi;
          TtvFilterVal v = { .kind = TTV_FILTER_VAL_INT, .i = t };
          if (lit->time_relative && __builtin_sub_overflow (t, trace->start, &v.i))
            v.i = t < 0 ? G_MININT64 : G_MAXINT64;
          return fold_value (nodes, src, &v);
        }
      n.fetch = FETCH_TIME;
      break;
    case VAR_TRACE_NAME:
      /* Programs are per (trace, type): the trace is known here. */
      return add_const (nodes, test ? TRUE : ttv_filter_string_compare (lit, src->op, trace->name));
    case VAR_TRACE_HOST:
      {
        const char *host = ttv_trace_get_host (trace);
        return add_const (nodes, test ? host != NULL : ttv_filter_string_compare (lit, src->op, host));
      }
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

/* --- flattening ------------------------------------------------------ */

/* The range of an integer comparison with @k; FALSE when nothing passes. */
static gboolean
set_range (TtvFilterInsn *in, TtvFilterOp op, gint64 k)
{
  gint64 lo = k, hi = k;
  switch (op)
    {
    case OP_EQ: break;
    case OP_NE: in->invert = TRUE; break;
    case OP_LT:
      if (k == G_MININT64)
        return FALSE;
      lo = G_MININT64, hi = k - 1;
      break;
    case OP_LE: lo = G_MININT64; break;
    case OP_GT:
      if (k == G_MAXINT64)
        return FALSE;
      lo = k + 1, hi = G_MAXINT64;
      break;
    case OP_GE: hi = G_MAXINT64; break;
    }
  in->lo = lo;
  in->span = (guint64) hi - (guint64) lo;
  return TRUE;
}

static gboolean
is_ascii (const char *s)
{
  for (; *s; s++)
    if ((guchar) *s >= 0x80)
      return FALSE;
  return TRUE;
}

/* How a string term reads its text (CMP with a word, or a bare test). */
static gboolean
set_string_match (TtvFilterInsn *in, const TtvFilterNode *src, gboolean test)
{
  const TtvFilterLiteral *lit = &src->lit;
  in->node = src;
  if (test)
    {
      in->str_match = STR_LENGTH;
      in->invert = TRUE;           /* length != 0 */
      return TRUE;
    }
  if (!lit->is_glob)
    {
      in->str_match = STR_ORDER;
      in->text = lit->text;
      in->text_len = (guint32) strlen (lit->text);
      return set_range (in, src->op, 0);
    }
  /* A glob: the value is 1 when it matches. */
  in->lo = 1;
  in->span = 0;
  in->invert = src->op == OP_NE;
  const char *t = lit->text;
  gsize n = strlen (t);
  gsize lead = strspn (t, "*"), trail = 0;
  while (trail < n && t[n - 1 - trail] == '*')
    trail++;
  const char *w = strpbrk (t + lead, "*?");
  gboolean one_run = lead < n && (w ? w : t + n) == t + n - trail;   /* X*, *X */
  if (!is_ascii (t))
    in->str_match = STR_PATTERN;
  else if (lead == 0 && trail > 0 && one_run)
    {
      in->str_match = STR_PREFIX;
      in->text = t;
      in->text_len = (guint32) (n - trail);
    }
  else if (trail == 0 && lead > 0 && one_run)
    {
      in->str_match = STR_SUFFIX;
      in->text = t + lead;
      in->text_len = (guint32) (n - lead);
    }
  else
    in->str_match = STR_BYTES;
  return TRUE;
}

typedef struct {
  GArray *code;
  const TtvEventType *type;
  GArray *tree;   /* of TtvFilterProgNode */
} Emitter;

static guint32
emit_insn (Emitter *e, TtvFilterInsn *in, guint32 t, guint32 f)
{
  in->on_true = t;
  in->on_false = f;
  g_array_append_val (e->code, *in);
  return e->code->len - 1;
}

/* A payload field term with a direct read when the layout allows; FALSE
 * when it must stay GENERIC.  *never: no event can pass. */
static gboolean
specialise_field (Emitter *e, const TtvFilterProgNode *n, TtvFilterInsn *in, gboolean *never)
{
  const TtvFilterNode *src = n->node;
  const TtvFilterLiteral *lit = &src->lit;
  gboolean test = n->kind == PROG_TEST;
  const TtvType *st = e->type->fields;
  if (src->path->len != 1 || st == NULL || st->kind != TTV_TYPE_STRUCT)
    return FALSE;
  gint idx = ttv_type_find_field (st, g_array_index (src->path, TtvFilterPathStep, 0).name);
  if (idx < 0)
    return FALSE;
  const TtvType *t = ((const TtvField *) g_ptr_array_index (st->fields, idx))->type;
  gint64 off = ttv_field_fixed_offset (st, idx);
  if (off < 0)
    return FALSE;
  in->payload_align = st->align_bits;
  in->offset_bits = (guint64) off;
  gboolean byte_aligned = off % 8 == 0 && st->align_bits >= 8 && st->align_bits % 8 == 0;
  gboolean wants_string = !test && !lit->has_int && !lit->has_double;

  if ((t->kind == TTV_TYPE_INTEGER || t->kind == TTV_TYPE_ENUM) && !wants_string)
    {
      if (n->fetch != FETCH_FIELD_INT || t->size_bits == 0 || t->size_bits > 64 || (!test && !lit->has_int))
        return FALSE;     /* a fraction against an integer: GENERIC */
      if (test)
        {
          in->lo = 0, in->span = 0, in->invert = TRUE;
        }
      else if (!set_range (in, src->op, lit->ival))
        {
          *never = TRUE;
          return TRUE;
        }
      in->size_bits = t->size_bits;
      in->end_bits = in->offset_bits + t->size_bits;
      in->order = (guint8) t->byte_order;
      in->swap = t->byte_order != TTV_BYTE_ORDER_NATIVE;
      in->shift = t->is_signed && t->size_bits < 64 ? (guint8) (64 - t->size_bits) : 0;
      in->code = INS_INT_BITS;
      if (byte_aligned)
        switch (t->size_bits)
          {
          case 8: in->code = INS_INT8; break;
          case 16: in->code = INS_INT16; break;
          case 32: in->code = INS_INT32; break;
          case 64: in->code = INS_INT64; break;
          default: break;
          }
      return TRUE;
    }
  if (t->kind == TTV_TYPE_ENUM)
    {
      /* By label: decide each mapping now. */
      if (n->fetch != FETCH_FIELD_STRING || t->size_bits == 0 || t->size_bits > 64)
        return FALSE;
      in->code = INS_ENUM_LABEL;
      in->type = t;
      in->size_bits = t->size_bits;
      in->end_bits = in->offset_bits + t->size_bits;
      in->order = (guint8) t->byte_order;
      in->shift = t->is_signed && t->size_bits < 64 ? (guint8) (64 - t->size_bits) : 0;
      in->label_ok = g_new0 (guint8, MAX (t->mappings->len, 1));
      for (guint i = 0; i < t->mappings->len; i++)
        in->label_ok[i] = (guint8) ttv_filter_string_compare (lit, src->op,
                                                              g_array_index (t->mappings, TtvEnumMapping, i).label);
      in->lo = 1, in->span = 0;
      /* Small values (most enums number their labels from 0) by table. */
      if (byte_aligned && (t->size_bits == 8 || t->size_bits == 16 || t->size_bits == 32 || t->size_bits == 64))
        {
          in->bytes = (guint8) (t->size_bits / 8);
          in->swap = t->byte_order != TTV_BYTE_ORDER_NATIVE;
          in->dense_len = t->size_bits == 8 ? 256 : 1024;
          in->dense = g_new (guint8, in->dense_len);
          for (guint32 raw = 0; raw < in->dense_len; raw++)
            {
              gint m = ttv_filter_enum_mapping (t, raw);
              in->dense[raw] = m < 0 ? 0 : 1 + in->label_ok[m];
            }
        }
      return TRUE;
    }
  if (t->kind == TTV_TYPE_STRING)
    {
      if (n->fetch != FETCH_FIELD_STRING)
        return FALSE;
      in->code = INS_STRING;
      in->align_bits = 8;
      *never = !set_string_match (in, src, test);
      return TRUE;
    }
  if (t->kind == TTV_TYPE_ARRAY && t->element->kind == TTV_TYPE_INTEGER && t->element->size_bits == 8
      && t->align_bits % 8 == 0 && t->element->align_bits % 8 == 0 && t->length <= G_MAXUINT32)
    {
      in->code = INS_CHARS;
      in->align_bits = t->align_bits;
      in->size_bits = (guint32) t->length;
      *never = !set_string_match (in, src, test);
      return TRUE;
    }
  if (t->kind == TTV_TYPE_FLOAT && byte_aligned && (t->size_bits == 32 || t->size_bits == 64)
      && (test || lit->has_double))
    {
      in->code = t->size_bits == 32 ? INS_FLOAT32 : INS_FLOAT64;
      in->swap = t->byte_order != TTV_BYTE_ORDER_NATIVE;
      in->end_bits = in->offset_bits + t->size_bits;
      in->is_test = (guint8) test;
      if (test)
        {
          /* d != 0 (NaN passes) */
          in->lo = 1, in->span = 0;
        }
      else
        {
          /* -1, 0, 1 as the reference orders them (NaN compares as equal) */
          in->k = lit->dval;
          set_range (in, src->op, 0);
        }
      return TRUE;
    }
  return FALSE;
}

/* Emits the code of tree node @i so that it continues at @t when true and
 * at @f when false; returns its entry (possibly @t or @f themselves). */
static guint32
emit (Emitter *e, guint32 i, guint32 t, guint32 f)
{
  const TtvFilterProgNode n = g_array_index (e->tree, TtvFilterProgNode, i);
  switch ((TtvFilterProgKind) n.kind)
    {
    case PROG_CONST:
      return n.value ? t : f;
    case PROG_AND:
      return emit (e, n.a, emit (e, n.b, t, f), f);
    case PROG_OR:
      return emit (e, n.a, t, emit (e, n.b, t, f));
    case PROG_NOT:
      return emit (e, n.a, f, t);
    case PROG_CMP:
    case PROG_TEST:
      break;
    }
  const TtvFilterNode *src = n.node;
  TtvFilterInsn in = { 0 };
  gboolean never = FALSE;
  gboolean test = n.kind == PROG_TEST;
  if (n.fetch == FETCH_TIME)
    {
      in.code = src->lit.time_relative ? INS_TIME_REL : INS_TIME;
      if (test)
        in.lo = 0, in.span = 0, in.invert = TRUE;
      else if (!set_range (&in, src->op, src->lit.tval))
        never = TRUE;
    }
  else if (n.fetch == FETCH_STATE_PID || n.fetch == FETCH_STATE_TID || n.fetch == FETCH_STATE_PPID)
    {
      in.code = INS_STATE_INT;
      in.fetch = n.fetch;
      if (test)
        in.lo = 0, in.span = 0, in.invert = TRUE;
      else if (!src->lit.has_int || !set_range (&in, src->op, src->lit.ival))
        never = TRUE;   /* the parser only lets integers through */
    }
  else if (n.fetch == FETCH_STATE_NAME)
    {
      in.code = INS_STATE_NAME;
      in.node = src;
      in.is_test = (guint8) test;
      in.lo = 2, in.span = 0;
    }
  else if (n.fetch == FETCH_STATE_MODE)
    {
      /* Few modes: decide each now, as the reference would by name. */
      in.code = INS_STATE_MODE;
      in.node = src;
      in.memo_len = TTV_MODE_N;
      in.memo = g_new (guint8, TTV_MODE_N);
      for (guint m = 0; m < TTV_MODE_N; m++)
        {
          TtvFilterVal v = { .kind = TTV_FILTER_VAL_STRING, .s = ttv_exec_mode_name ((TtvExecMode) m) };
          in.memo[m] = 1 + (test ? ttv_filter_value_test (&v) : ttv_filter_value_compare (src, &v));
        }
      in.lo = 2, in.span = 0;
    }
  else if (n.fetch != FETCH_FIELD_INT && n.fetch != FETCH_FIELD_STRING && n.fetch != FETCH_FIELD_DECODE)
    in.code = INS_GENERIC;
  else if (!specialise_field (e, &n, &in, &never))
    {
      g_free (in.label_ok);
      g_free (in.dense);
      memset (&in, 0, sizeof in);
      in.code = INS_GENERIC;
    }
  if (never)
    {
      g_free (in.label_ok);
      g_free (in.dense);
      g_free (in.memo);
      return f;
    }
  if (in.code == INS_GENERIC)
    {
      in.lo = 1;   /* the verdict, 0 or 1, is the value */
      in.span = 0;
      in.fetch = n.fetch;
      in.node = src;
      in.acc = n.acc;
      in.is_test = (guint8) test;
      /* A char array the accessor cannot read as text is decoded. */
      if (n.fetch == FETCH_FIELD_STRING && n.acc.type && n.acc.type->kind == TTV_TYPE_ARRAY
          && n.acc.fixed_offset_bits < 0)
        in.fetch = FETCH_FIELD_DECODE;
    }
  return emit_insn (e, &in, t, f);
}

TtvFilterProgram *
ttv_filter_program_new (const TtvFilterNode *root, const TtvHookGroups *groups, const TtvTrace *trace,
                        const TtvTracefile *tracefile, const TtvEventType *type,
                        const TtvFilterTimeWindow *window)
{
  TtvFilterProgram *prog = g_new0 (TtvFilterProgram, 1);
  g_autoptr (GArray) nodes = g_array_new (FALSE, FALSE, sizeof (TtvFilterProgNode));
  guint32 root_node = compile (nodes, root, groups, trace, tracefile, type, window);
  gboolean v;
  if (is_const (nodes, root_node, &v))
    {
      prog->verdict = v ? TTV_FILTER_ALWAYS : TTV_FILTER_NEVER;
      return prog;
    }
  Emitter e = { g_array_new (FALSE, FALSE, sizeof (TtvFilterInsn)), type, nodes };
  prog->entry = emit (&e, root_node, TTV_FILTER_PC_ACCEPT, TTV_FILTER_PC_REJECT);
  if (prog->entry >= TTV_FILTER_PC_REJECT)
    {
      /* Every path reads something that cannot pass (or always passes). */
      prog->verdict = prog->entry == TTV_FILTER_PC_ACCEPT ? TTV_FILTER_ALWAYS : TTV_FILTER_NEVER;
      ttv_filter_program_free_code (e.code);
      return prog;
    }
  prog->verdict = TTV_FILTER_DEPENDS;
  prog->code = e.code;
  prog->insns = (const TtvFilterInsn *) (gpointer) e.code->data;
  for (guint i = 0; i < e.code->len; i++)
    {
      const TtvFilterInsn *in = &prog->insns[i];
      prog->decodes |= in->code == INS_GENERIC && (in->fetch == FETCH_FIELD_DECODE || in->fetch == FETCH_CONTEXT);
    }
  return prog;
}

void
ttv_filter_program_free_code (GArray *code)
{
  if (code == NULL)
    return;
  for (guint i = 0; i < code->len; i++)
    {
      g_free (g_array_index (code, TtvFilterInsn, i).label_ok);
      g_free (g_array_index (code, TtvFilterInsn, i).dense);
      g_free (g_array_index (code, TtvFilterInsn, i).memo);
    }
  g_array_unref (code);
}

void
ttv_filter_program_free (TtvFilterProgram *prog)
{
  if (prog == NULL)
    return;
  ttv_filter_program_free_code (prog->code);
  g_free (prog);
}

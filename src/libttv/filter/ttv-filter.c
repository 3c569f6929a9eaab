/* ttv-filter.c: the public filter object: parse once, keep one program per
 * (trace, event type) built on first sight, evaluate without allocating. */
#include "ttv-filter-private.h"
#include "ttv-glob.h"
#include "ttv-error.h"
#include "ttv-event-owner.h"

#include <string.h>

/* The programs of one trace: slot ((tracefile index + 1) << shift) + type
 * id; row 0 is for check_type, which has no tracefile.  A filter with
 * event.time terms has one per window between its time literals, where
 * those terms fold to constants. */
typedef struct {
  const TtvTrace *trace;     /* weak: the key */
  gboolean timed;            /* time terms folded for the times in [lo, hi] */
  TtvTime lo, hi;
  TtvTime start;             /* the trace start the window was computed with */
  guint shift;               /* row length: 1 << shift >= the number of types */
  guint64 n_slots;
  guint8 *verdicts;          /* owned: per slot, a TtvFilterVerdict or UNSEEN */
  TtvFilterFast *fast;       /* owned: per slot, the straight-line form (slow until seen) */
  TtvFilterProgram **programs;  /* owned, per slot; NULL until seen */
} TraceCache;

#define UNSEEN 3

struct _TtvFilter {
  TtvFilterHot hot;                /* first: what ttv_filter_matches() reads inline */
  TtvFilterProgram **hot_programs; /* weak: the programs of the cache used last, by hot slot */
  char *expression;
  TtvFilterNode *root;             /* owned */
  TtvHookGroups *own_groups;       /* owned when none was given */
  const TtvHookGroups *groups;     /* weak */
  gboolean needs_state;
  GPtrArray *caches;               /* of TraceCache *, owned */
  GArray *times;                   /* of TtvFilterTimeWindow: each time literal as {value, relative} */
  TtvDecoder *decoder;             /* owned: decode-path reads */
  TtvDecoder *scratch;             /* owned: accessor reads */
  const TtvEvent *decoded;         /* weak: event whose fields @decoder holds */
  gint32 decoded_root;
  TtvDecoder *ctx_decoder;         /* owned: CTF contexts */
  TtvDecoder *proc_decoder;        /* owned: the process contexts (state.* without kernel state) */
  char proc_name[64];              /* a context's process name, for GENERIC reads */
  const TtvEvent *ctx_decoded;     /* weak: event whose contexts @ctx_decoder holds */
  gboolean ctx_ok;
  gint32 ctx_nodes[TTV_EVENT_N_CONTEXTS];             /* stream event context, event context, packet context */
  GString *text;                   /* owned: NUL-terminated copies for globs */
  TtvValue element;                /* an element of a text array (ttv_decoder_get_element) */
};

static void
trace_cache_clear (TraceCache *c)
{
  for (guint64 i = 0; i < c->n_slots; i++)
    ttv_filter_program_free (c->programs[i]);
  g_clear_pointer (&c->programs, g_free);
  g_clear_pointer (&c->verdicts, g_free);
  g_clear_pointer (&c->fast, g_free);
  c->n_slots = 0;
}

static void
trace_cache_free (TraceCache *c)
{
  trace_cache_clear (c);
  g_free (c);
}

/* The time literals of the tree ({value, 1 if +S.N}); a bare event.time
 * test is "time != 0". */
static void
collect_times (const TtvFilterNode *n, GArray *times)
{
  if (n == NULL)
    return;
  if ((n->kind == NODE_CMP || n->kind == NODE_TEST) && n->var == VAR_EVENT_TIME)
    {
      TtvFilterTimeWindow t = { n->kind == NODE_CMP ? n->lit.tval : 0,
                                n->kind == NODE_CMP && n->lit.time_relative };
      g_array_append_val (times, t);
    }
  collect_times (n->a, times);
  collect_times (n->b, times);
}

static TtvTime
saturating_add (TtvTime a, TtvTime b)
{
  TtvTime r;
  return __builtin_add_overflow (a, b, &r) ? (b < 0 ? TTV_TIME_MIN : TTV_TIME_MAX) : r;
}

static gint
compare_time (gconstpointer a, gconstpointer b)
{
  TtvTime x = *(const TtvTime *) a, y = *(const TtvTime *) b;
  return x < y ? -1 : x > y;
}

/* The window of @time: between the two time literals of the filter (made
 * absolute for @trace) around it; where each literal k splits the time
 * line at k and k + 1, which every comparison operator respects. */
static TtvFilterTimeWindow
window_for (const TtvFilter *f, const TtvTrace *trace, TtvTime time)
{
  g_autoptr (GArray) bounds = g_array_new (FALSE, FALSE, sizeof (TtvTime));
  for (guint i = 0; i < f->times->len; i++)
    {
      const TtvFilterTimeWindow *t = &g_array_index (f->times, TtvFilterTimeWindow, i);
      TtvTime k = t->hi ? saturating_add (trace->start, t->lo) : t->lo;
      TtvTime k1 = saturating_add (k, 1);
      g_array_append_val (bounds, k);
      g_array_append_val (bounds, k1);
    }
  g_array_sort (bounds, compare_time);
  TtvFilterTimeWindow w = { TTV_TIME_MIN, TTV_TIME_MAX };
  for (guint i = 0; i < bounds->len; i++)
    {
      TtvTime b = g_array_index (bounds, TtvTime, i);
      if (b <= time)
        w.lo = MAX (w.lo, b);
      else
        w.hi = MIN (w.hi, b - 1);
    }
  return w;
}

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
  f->caches = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_cache_free);
  f->times = g_array_new (FALSE, FALSE, sizeof (TtvFilterTimeWindow));
  collect_times (root, f->times);
  f->decoder = ttv_decoder_new ();
  f->scratch = ttv_decoder_new ();
  f->ctx_decoder = ttv_decoder_new ();
  f->proc_decoder = ttv_decoder_new ();
  f->text = g_string_sized_new (256);
  return f;
}

void
ttv_filter_free (TtvFilter *f)
{
  if (f == NULL)
    return;
  g_ptr_array_unref (f->caches);
  g_array_unref (f->times);
  ttv_filter_node_free (f->root);
  ttv_hook_groups_free (f->own_groups);
  ttv_decoder_free (f->decoder);
  ttv_decoder_free (f->scratch);
  ttv_decoder_free (f->ctx_decoder);
  ttv_decoder_free (f->proc_decoder);
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

/* A test before scaling: a field read as the evaluator reads it, within
 * [lo, hi], != invert. */
typedef struct {
  guint64 offset_bits;
  guint bits;               /* the field's size */
  gboolean is_signed;
  guint32 align_mask;
  gint64 lo, hi;
  gboolean invert;
} ValueTest;

/* The raw values of an enum whose label passes, when they form one range
 * that no other mapping overlaps: then the label test is a range test. */
static gboolean
enum_label_range (const TtvFilterInsn *in, gint64 *lo, gint64 *hi)
{
  const TtvType *t = in->type;
  gboolean any = FALSE;
  gint64 a = 0, b = -1;      /* empty when nothing passes */
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
      if (!t->is_signed && (m->start > G_MAXINT64 || m->end > G_MAXINT64))
        return FALSE;
      gint64 s = (gint64) m->start, e = (gint64) m->end;
      /* Overlapping mappings: the first wins, which ranges cannot say. */
      for (guint j = 0; j < i; j++)
        {
          const TtvEnumMapping *o = &g_array_index (t->mappings, TtvEnumMapping, j);
          if (!((gint64) o->end < s || (gint64) o->start > e))
            return FALSE;
        }
      if (!in->label_ok[i])
        continue;
      if (any && s != b + 1 && e + 1 != a)
        return FALSE;       /* several ranges (or listed out of order) */
      a = any ? MIN (a, s) : s;
      b = any ? MAX (b, e) : e;
      any = TRUE;
    }
  *lo = a;
  *hi = b;
  return TRUE;
}

/* The value test of one instruction; FALSE when it has none. */
static gboolean
value_test_from_insn (ValueTest *v, const TtvFilterInsn *in)
{
  *v = (ValueTest) { .lo = in->lo, .hi = (gint64) ((guint64) in->lo + in->span), .invert = in->invert };
  guint bytes = 0;
  switch ((TtvFilterOpcode) in->code)
    {
    case INS_INT8: bytes = 1; break;
    case INS_INT16: bytes = 2; break;
    case INS_INT32: bytes = 4; break;
    case INS_INT64: bytes = 8; break;
    case INS_ENUM_LABEL:
      if (in->bytes == 0 || in->invert || !enum_label_range (in, &v->lo, &v->hi))
        return FALSE;
      bytes = in->bytes;
      break;
    default:
      return FALSE;
    }
  guint64 align = MAX (in->payload_align, 1);
  if (in->swap || (align & (align - 1)) != 0 || align > G_MAXUINT32 || in->offset_bits % 8 != 0
      || in->offset_bits > G_MAXUINT32 - 64)
    return FALSE;
  v->offset_bits = in->offset_bits;
  v->bits = 8 * bytes;
  v->is_signed = in->shift != 0 || (in->code == INS_ENUM_LABEL && in->type->is_signed) || bytes == 8;
  v->align_mask = (guint32) (align - 1);
  return TRUE;
}

/* A constant: the first payload word against everything, or nothing (the
 * shifted word is even, the range holds 1 alone). */
static void
fast_const (TtvFilterFast *t, gboolean value)
{
  *t = (TtvFilterFast) { .lo = !value, .span = value ? G_MAXUINT64 : 0, .end_bits = 64, .shift = 1 };
}

/* Scales a value test to the word the fast path reads. */
static void
fast_from_value (TtvFilterFast *t, const ValueTest *v)
{
  gint64 lo = v->lo, hi = v->hi;
  guint sh = 64 - v->bits;
  if (sh > 0)
    {
      /* What the field can hold: outside it nothing passes. */
      gint64 dmin = v->is_signed ? -(G_GINT64_CONSTANT (1) << (v->bits - 1)) : 0;
      gint64 dmax = v->is_signed ? (G_GINT64_CONSTANT (1) << (v->bits - 1)) - 1
                                 : (gint64) ((G_GUINT64_CONSTANT (1) << v->bits) - 1);
      lo = MAX (lo, dmin);
      hi = MIN (hi, dmax);
      if (lo > hi)
        {
          fast_const (t, v->invert);
          return;
        }
    }
  guint64 end = v->offset_bits + v->bits;
  /* A field ending in the first 8 bytes: read those and shift. */
  guint64 word_end = MAX (end, 64);
  guint64 before = word_end - end;      /* bits of the word after the field */
  *t = (TtvFilterFast) { .end_bits = word_end, .align_mask = v->align_mask };
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
  t->shift = (guint8) before;
#else
  t->shift = (guint8) (sh - before);
#endif
  t->lo = (guint64) lo << sh;
  t->span = (((guint64) hi - (guint64) lo) << sh) | ((G_GUINT64_CONSTANT (1) << sh) - 1);
  if (v->invert)
    {
      /* The rest of the circle: what follows the range up to its start. */
      if (t->span == G_MAXUINT64)
        fast_const (t, FALSE);
      else
        {
          t->lo += t->span + 1;
          t->span = ~t->span - 1;
        }
    }
}

/* Whether instruction @in ends at the program's verdict; *neg when its
 * result is the verdict negated. */
static gboolean
ends_program (const TtvFilterInsn *in, gboolean *neg)
{
  if (in->on_true == TTV_FILTER_PC_ACCEPT && in->on_false == TTV_FILTER_PC_REJECT)
    *neg = FALSE;
  else if (in->on_true == TTV_FILTER_PC_REJECT && in->on_false == TTV_FILTER_PC_ACCEPT)
    *neg = TRUE;
  else
    return FALSE;
  return TRUE;
}

/* The straight-line form of a program: a constant, one integer test, or
 * two ranges of one field joined by & (their intersection); anything else
 * stays slow (the program runs). */
static void
fast_init (TtvFilterFast *fx, const TtvFilterProgram *prog)
{
  *fx = (TtvFilterFast) { .end_bits = TTV_FILTER_FAST_SLOW };
  if (prog->verdict != TTV_FILTER_DEPENDS)
    {
      fast_const (fx, prog->verdict == TTV_FILTER_ALWAYS);
      return;
    }
  const TtvFilterInsn *a = &prog->insns[prog->entry];
  ValueTest va, vb;
  gboolean neg_a, neg_b;
  if (prog->code->len == 1)
    {
      if (ends_program (a, &neg_a) && value_test_from_insn (&va, a))
        {
          va.invert ^= neg_a;
          fast_from_value (fx, &va);
        }
      return;
    }
  if (prog->code->len != 2)
    return;
  /* a true -> b, a false -> REJECT, b to the verdicts: a & b. */
  const TtvFilterInsn *b = a->on_true < TTV_FILTER_PC_REJECT ? &prog->insns[a->on_true] : NULL;
  if (b == NULL || b == a || a->on_false != TTV_FILTER_PC_REJECT || !ends_program (b, &neg_b) || neg_b
      || !value_test_from_insn (&va, a) || !value_test_from_insn (&vb, b) || va.invert || vb.invert
      || va.offset_bits != vb.offset_bits || va.bits != vb.bits || va.is_signed != vb.is_signed)
    return;
  va.lo = MAX (va.lo, vb.lo);
  va.hi = MIN (va.hi, vb.hi);
  if (va.lo > va.hi)
    fast_const (fx, FALSE);
  else
    fast_from_value (fx, &va);
}

/* The hot forms are about to be freed or moved: nothing is hot until the
 * next event's program is found (check_type can rebuild the cache of the
 * trace being read). */
static void
forget_hot (TtvFilter *f)
{
  f->hot = (TtvFilterHot) { NULL };
  f->hot_programs = NULL;
}

/* The cache of programs for @trace (and the window of @time when the
 * filter has time terms and @timed), made on first use. */
static TraceCache *
get_cache (TtvFilter *f, const TtvTrace *trace, gboolean timed, TtvTime time)
{
  timed = timed && f->times->len > 0;
  TtvFilterTimeWindow w = timed ? window_for (f, trace, time) : (TtvFilterTimeWindow) { TTV_TIME_MIN, TTV_TIME_MAX };
  for (guint i = 0; i < f->caches->len; i++)
    {
      TraceCache *c = g_ptr_array_index (f->caches, i);
      if (c->trace != trace || c->timed != timed)
        continue;
      if (c->start != trace->start && timed)
        {
          /* A live trace whose start moved: its windows moved too. */
          forget_hot (f);
          g_ptr_array_remove_index_fast (f->caches, i--);
          continue;
        }
      if (c->lo == w.lo && c->hi == w.hi)
        return c;
    }
  TraceCache *c = g_new0 (TraceCache, 1);
  c->trace = trace;
  c->timed = timed;
  c->lo = w.lo;
  c->hi = w.hi;
  c->start = trace->start;
  g_ptr_array_add (f->caches, c);
  return c;
}

/* Programs are specialised per (tracefile, event type), so that terms that
 * only depend on them (name, group, trace, CPU) fold away, and per time
 * window.  This is the slow path of ttv_filter_matches: a new trace,
 * tracefile, type or window.  @tracefile NULL: for check_type. */
static TtvFilterProgram *
get_program (TtvFilter *f, const TtvTrace *trace, const TtvTracefile *tracefile, const TtvEventType *type,
             TtvTime time)
{
  TraceCache *c = get_cache (f, trace, tracefile != NULL, time);
  guint64 row = tracefile ? (guint64) tracefile->index + 1 : 0;
  if (c->programs == NULL || ((guint64) type->id >> c->shift) != 0)
    {
      /* New, or types added after the cache was made (a refreshed trace): rebuild. */
      forget_hot (f);
      trace_cache_clear (c);
      guint n_types = MAX (MAX (trace->event_types->len, 1), type->id + 1);
      for (c->shift = 0; (G_GUINT64_CONSTANT (1) << c->shift) < n_types; c->shift++)
        ;
    }
  guint64 slot = (row << c->shift) + type->id;
  if (slot >= c->n_slots)
    {
      guint64 rows = MAX ((guint64) trace->tracefiles->len + 1, row + 1);
      guint64 n = rows << c->shift;
      forget_hot (f);
      c->programs = g_renew (TtvFilterProgram *, c->programs, n);
      c->verdicts = g_renew (guint8, c->verdicts, n);
      c->fast = g_renew (TtvFilterFast, c->fast, n);
      for (guint64 i = c->n_slots; i < n; i++)
        {
          c->programs[i] = NULL;
          c->verdicts[i] = UNSEEN;
          c->fast[i] = (TtvFilterFast) { .end_bits = TTV_FILTER_FAST_SLOW };
        }
      c->n_slots = n;
    }
  TtvFilterProgram *prog = c->programs[slot];
  if (prog == NULL)
    {
      TtvFilterTimeWindow w = { c->lo, c->hi };
      prog = ttv_filter_program_new (f->root, f->groups, trace, tracefile, type, c->timed ? &w : NULL);
      c->programs[slot] = prog;
      c->verdicts[slot] = (guint8) prog->verdict;
      fast_init (&c->fast[slot], prog);
    }
  if (tracefile)
    {
      /* Without row 0 (check_type's): the slot of a tracefile starts at 0. */
      guint64 row0 = G_GUINT64_CONSTANT (1) << c->shift;
      f->hot = (TtvFilterHot) { c->trace, c->shift, row0, c->n_slots - row0, c->fast + row0, c->timed,
                                c->lo, (guint64) c->hi - (guint64) c->lo, c->start };
      f->hot_programs = c->programs + row0;
    }
  return prog;
}

TtvFilterVerdict
ttv_filter_check_type (TtvFilter *f, const TtvTrace *trace, const TtvEventType *type)
{
  g_return_val_if_fail (f != NULL && trace != NULL && type != NULL, TTV_FILTER_DEPENDS);
  return get_program (f, trace, NULL, type, 0)->verdict;
}

static const TtvProcessState *
running (const TtvEvent *ev, const TtvState *state)
{
  return state ? ttv_state_get_event_process (state, ev->tracefile->cpu) : NULL;
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

/* Walks @src's path from @root and reads the value there. */
static void
value_at (TtvFilter *f, TtvDecoder *dec, const TtvValue *cur, const TtvFilterNode *src, gboolean want_string,
          TtvFilterVal *v)
{
  for (guint i = 0; cur && i < src->path->len; i++)
    {
      const TtvFilterPathStep *step = &g_array_index (src->path, TtvFilterPathStep, i);
      if (step->name)
        cur = cur->type->kind == TTV_TYPE_STRUCT || cur->type->kind == TTV_TYPE_VARIANT
              ? ttv_decoder_get_field (dec, cur, step->name) : NULL;
      else if ((cur->type->kind == TTV_TYPE_ARRAY || cur->type->kind == TTV_TYPE_SEQUENCE)
               && step->index < ttv_value_get_n_elements (cur))
        cur = ttv_decoder_get_element (dec, cur, (guint32) step->index, &f->element);
      else
        cur = NULL;
    }
  if (cur == NULL)
    return;
  switch (cur->type->kind)
    {
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      /* char name[16]: the text up to the first NUL, as accessors read it. */
      if (cur->type->element->kind == TTV_TYPE_INTEGER && cur->type->element->size_bits == 8)
        {
          g_string_truncate (f->text, 0);
          for (guint32 i = 0; i < ttv_value_get_n_elements (cur); i++)
            {
              TtvValue scratch;
              const TtvValue *c = ttv_decoder_get_element (dec, cur, i, &scratch);
              if ((guint8) c->v.u == 0)
                break;
              g_string_append_c (f->text, (char) (guint8) c->v.u);
            }
          v->kind = TTV_FILTER_VAL_STRING;
          v->s = f->text->str;
        }
      break;
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
fetch_decoded (TtvFilter *f, const TtvFilterNode *src, const TtvEvent *ev, gboolean want_string, TtvFilterVal *v)
{
  if (f->decoded != ev)
    {
      ttv_decoder_reset (f->decoder);
      f->decoded_root = ttv_event_decode_fields (ev, f->decoder, NULL);
      f->decoded = ev;
    }
  if (f->decoded_root >= 0)
    value_at (f, f->decoder, ttv_decoder_get (f->decoder, (guint32) f->decoded_root), src, want_string, v);
}

/* event.context.NAME (or a field the payload lacks): the first of the
 * stream event context, the event context and the packet context of a
 * CTF event that has the path. */
static void
fetch_context (TtvFilter *f, const TtvFilterNode *src, const TtvEvent *ev, gboolean want_string, TtvFilterVal *v)
{
  if (!ttv_trace_has_event_contexts (ev->tracefile->trace))
    return;
  if (f->ctx_decoded != ev)
    {
      ttv_decoder_reset (f->ctx_decoder);
      f->ctx_ok = ttv_event_decode_contexts (ev, f->ctx_decoder, f->ctx_nodes, NULL) >= 0;
      f->ctx_decoded = ev;
    }
  for (guint i = 0; f->ctx_ok && i < G_N_ELEMENTS (f->ctx_nodes) && v->kind == TTV_FILTER_VAL_NONE; i++)
    if (f->ctx_nodes[i] >= 0)
      value_at (f, f->ctx_decoder, ttv_decoder_get (f->ctx_decoder, (guint32) f->ctx_nodes[i]), src, want_string, v);
}

/* What one run of a program looked up about the event, on first need:
 * the running process, else what the event's contexts say of it. */
typedef struct {
  gboolean looked;
  const TtvProcessState *proc;
  gboolean ctx_looked, ctx_ok;
  TtvEventOwner ctx;
} RunCache;

static const TtvProcessState *
cache_proc (RunCache *rc, const TtvEvent *ev, const TtvState *state)
{
  if (!rc->looked)
    {
      rc->proc = running (ev, state);
      rc->looked = TRUE;
    }
  return rc->proc;
}

/* No running process known (a userspace trace has no kernel state): the
 * event's own vpid, vtid and procname contexts. */
static const TtvEventOwner *
cache_context (TtvFilter *f, RunCache *rc, const TtvEvent *ev)
{
  if (!rc->ctx_looked)
    {
      rc->ctx_ok = ttv_event_owner_from_context (ev, f->proc_decoder, &rc->ctx);
      rc->ctx_looked = TRUE;
    }
  return rc->ctx_ok ? &rc->ctx : NULL;
}

/* state.pid, tid, ppid (@fetch): from the running process, else the
 * contexts (no ppid there); FALSE when neither knows. */
static gboolean
state_int (TtvFilter *f, RunCache *rc, guint fetch, const TtvEvent *ev, const TtvState *state, gint64 *out)
{
  const TtvProcessState *p = cache_proc (rc, ev, state);
  if (p)
    {
      *out = fetch == FETCH_STATE_TID ? p->pid : fetch == FETCH_STATE_PPID ? p->ppid : ttv_process_state_get_tgid (p);
      return *out >= 0;
    }
  const TtvEventOwner *c = fetch == FETCH_STATE_PPID ? NULL : cache_context (f, rc, ev);
  *out = c ? (fetch == FETCH_STATE_TID ? c->tid : c->pid) : -1;
  return *out >= 0;
}

/* state.process_name, the same way; NULL when unknown. */
static const char *
state_name (TtvFilter *f, RunCache *rc, const TtvEvent *ev, const TtvState *state, GQuark *quark)
{
  const TtvProcessState *p = cache_proc (rc, ev, state);
  *quark = 0;
  if (p)
    {
      *quark = p->name;
      return p->name ? g_quark_to_string (p->name) : NULL;
    }
  const TtvEventOwner *c = cache_context (f, rc, ev);
  return c && c->name[0] ? c->name : NULL;
}

/* Reads what a GENERIC instruction compares. */
static void
fetch (TtvFilter *f, const TtvFilterInsn *n, const TtvEvent *ev, const TtvState *state, TtvFilterVal *v)
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
      {
        RunCache rc;
        rc.looked = rc.ctx_looked = FALSE;
        if (state_int (f, &rc, n->fetch, ev, state, &v->i))
          v->kind = TTV_FILTER_VAL_INT;
        break;
      }
    case FETCH_STATE_NAME:
      {
        RunCache rc;
        rc.looked = rc.ctx_looked = FALSE;
        GQuark q;
        const char *name = state_name (f, &rc, ev, state, &q);
        if (name)
          {
            g_strlcpy (f->proc_name, name, sizeof f->proc_name);
            v->kind = TTV_FILTER_VAL_STRING;
            v->s = f->proc_name;
          }
        break;
      }
    case FETCH_STATE_MODE:
      if ((proc = running (ev, state)) != NULL)
        {
          v->kind = TTV_FILTER_VAL_STRING;
          v->s = ttv_exec_mode_name (ttv_process_state_get_mode (proc));
        }
      break;
    case FETCH_STATE_SYSCALL:
      if (state && (v->s = ttv_state_get_event_syscall (state, ev->tracefile->cpu)) != NULL)
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
      fetch_decoded (f, n->node, ev, !n->is_test && !lit->has_int && !lit->has_double, v);
      break;
    case FETCH_CONTEXT:
      fetch_context (f, n->node, ev, !n->is_test && !lit->has_int && !lit->has_double, v);
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

static inline guint64
load (const TtvEvent *ev, const TtvFilterInsn *in, guint bytes, gboolean *ok)
{
  guint64 base = ttv_align_up (ev->payload_bit, in->payload_align);
  if (G_UNLIKELY (base + in->end_bits > ev->data_bits))
    {
      *ok = FALSE;
      return 0;
    }
  const guint8 *p = ev->data + ((base + in->offset_bits) >> 3);
  guint64 raw = 0;
  switch (bytes)
    {
    case 1: raw = p[0]; break;
    case 2: { guint16 x; memcpy (&x, p, 2); raw = in->swap ? GUINT16_SWAP_LE_BE (x) : x; break; }
    case 4: { guint32 x; memcpy (&x, p, 4); raw = in->swap ? GUINT32_SWAP_LE_BE (x) : x; break; }
    default: { guint64 x; memcpy (&x, p, 8); raw = in->swap ? GUINT64_SWAP_LE_BE (x) : x; break; }
    }
  return raw;
}

/* Sign extension by the instruction's shift (0: none). */
static inline gint64
extend (guint64 raw, guint shift)
{
  return shift ? (gint64) (raw << shift) >> shift : (gint64) raw;
}

/* The text a STRING or CHARS instruction reads, or NULL. */
static inline const char *
locate_text (const TtvEvent *ev, const TtvFilterInsn *in, gsize *len)
{
  guint64 base = ttv_align_up (ev->payload_bit, in->payload_align);
  guint64 pos = ttv_align_up (base + in->offset_bits, in->align_bits);
  if (pos > ev->data_bits)
    return NULL;
  const char *s = (const char *) ev->data + pos / 8;
  if (in->code == INS_STRING)
    {
      if (pos == ev->data_bits)
        return NULL;
      const char *nul = memchr (s, '\0', (ev->data_bits - pos) / 8);
      if (nul == NULL)
        return NULL;
      *len = (gsize) (nul - s);
      return s;
    }
  if ((ev->data_bits - pos) / 8 < in->size_bits)
    return NULL;
  *len = strnlen (s, in->size_bits);
  return s;
}

static gboolean
all_ascii (const char *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if ((guchar) s[i] >= 0x80)
      return FALSE;
  return TRUE;
}

/* The value a string instruction tests (see TtvFilterStrMatch). */
static gint64
text_value (TtvFilter *f, const TtvFilterInsn *in, const char *s, gsize len)
{
  switch ((TtvFilterStrMatch) in->str_match)
    {
    case STR_ORDER:
      {
        int c = memcmp (s, in->text, MIN (len, (gsize) in->text_len));
        if (c == 0)
          return len < in->text_len ? -1 : len > in->text_len;
        return c < 0 ? -1 : 1;
      }
    case STR_LENGTH:
      return (gint64) len;
    case STR_PREFIX:
      return len >= in->text_len && memcmp (s, in->text, in->text_len) == 0;
    case STR_SUFFIX:
      return len >= in->text_len && memcmp (s + len - in->text_len, in->text, in->text_len) == 0;
    case STR_BYTES:
      if (all_ascii (s, len))
        return ttv_glob_match_bytes (in->node->lit.text, s, len);
      G_GNUC_FALLTHROUGH;
    case STR_PATTERN:
      g_string_truncate (f->text, 0);
      g_string_append_len (f->text, s, (gssize) len);
      return ttv_filter_glob_match (&in->node->lit, f->text->str, len);
    }
  return 0;
}

/* The verdict of a process name, memoized by its quark: names repeat, and
 * a glob on each event's name would cost more than the state tracking. */
static gint64
name_verdict (TtvFilterInsn *in, GQuark name)
{
  if (name >= in->memo_len)
    {
      guint32 len = MAX (MAX (in->memo_len * 2, 64), name + 1);
      in->memo = g_realloc (in->memo, len);
      memset (in->memo + in->memo_len, 0, len - in->memo_len);
      in->memo_len = len;
    }
  if (in->memo[name] == 0)
    {
      TtvFilterVal v = { .kind = TTV_FILTER_VAL_STRING, .s = g_quark_to_string (name) };
      in->memo[name] = 1 + (in->is_test ? ttv_filter_value_test (&v) : ttv_filter_value_compare (in->node, &v));
    }
  return in->memo[name];
}

/* The value of an instruction other than the common integer and time
 * reads; FALSE when the event has none.  GENERIC gives its verdict. */
static G_GNUC_NO_INLINE gboolean
cold_value (TtvFilter *f, const TtvFilterInsn *in, const TtvEvent *ev, const TtvState *state, gint64 *out,
            RunCache *rc)
{
  gboolean ok = TRUE;
  const TtvProcessState *p = in->code == INS_STATE_MODE ? cache_proc (rc, ev, state) : NULL;
  switch ((TtvFilterOpcode) in->code)
    {
    case INS_STATE_INT:
      return state_int (f, rc, in->fetch, ev, state, out);
    case INS_STATE_NAME:
      {
        GQuark q;
        const char *name = state_name (f, rc, ev, state, &q);
        if (name == NULL)
          return FALSE;
        if (q)
          *out = name_verdict ((TtvFilterInsn *) in, q);
        else
          {
            TtvFilterVal v = { .kind = TTV_FILTER_VAL_STRING, .s = name };
            *out = 1 + (in->is_test ? ttv_filter_value_test (&v) : ttv_filter_value_compare (in->node, &v));
          }
        return TRUE;
      }
    case INS_STATE_MODE:
      {
        if (p == NULL)
          return FALSE;
        TtvExecMode m = ttv_process_state_get_mode (p);
        if ((guint) m < in->memo_len)
          *out = in->memo[m];
        else
          {
            TtvFilterVal v = { .kind = TTV_FILTER_VAL_STRING, .s = ttv_exec_mode_name (m) };
            *out = 1 + ttv_filter_value_compare (in->node, &v);
          }
        return TRUE;
      }
    case INS_INT_BITS:
    case INS_ENUM_LABEL:
      {
        guint64 pos = ttv_align_up (ev->payload_bit, in->payload_align) + in->offset_bits;
        if (pos > ev->data_bits || ev->data_bits - pos < in->size_bits)
          return FALSE;
        gint64 v = extend (ttv_read_bits (ev->data, pos, in->size_bits, (TtvByteOrder) in->order), in->shift);
        if (in->code == INS_ENUM_LABEL)
          {
            gint m = ttv_filter_enum_mapping (in->type, (guint64) v);
            if (m < 0)
              return FALSE;
            v = in->label_ok[m];
          }
        *out = v;
        return TRUE;
      }
    case INS_FLOAT32:
    case INS_FLOAT64:
      {
        double d;
        if (in->code == INS_FLOAT32)
          {
            guint32 r32 = (guint32) load (ev, in, 4, &ok);
            float x;
            memcpy (&x, &r32, 4);
            d = x;
          }
        else
          {
            guint64 r64 = load (ev, in, 8, &ok);
            memcpy (&d, &r64, 8);
          }
        *out = in->is_test ? d != 0 : d < in->k ? -1 : d > in->k;
        return ok;
      }
    case INS_STRING:
    case INS_CHARS:
      {
        gsize len = 0;
        const char *s = locate_text (ev, in, &len);
        if (s == NULL)
          return FALSE;
        *out = text_value (f, in, s, len);
        return TRUE;
      }
    case INS_GENERIC:
      {
        TtvFilterVal val;
        fetch (f, in, ev, state, &val);
        /* The verdict as a value in [1, 1]. */
        *out = in->is_test ? ttv_filter_value_test (&val) : ttv_filter_value_compare (in->node, &val);
        return TRUE;
      }
    default:
      return FALSE;
    }
}

/* Runs a DEPENDS program: each instruction reads a value, tests it
 * against its range and jumps; a value that cannot be read fails.  The
 * common reads are inline, the others in cold_value(). */
static gboolean
run (TtvFilter *f, const TtvFilterProgram *prog, const TtvEvent *ev, const TtvState *state)
{
  const TtvFilterInsn *code = prog->insns;
  guint32 pc = prog->entry;
  RunCache rc;   /* not zeroed whole: its context buffer is only for userspace traces */
  rc.looked = rc.ctx_looked = FALSE;
  if (prog->decodes)
    f->decoded = f->ctx_decoded = NULL;   /* a new event: forget what was decoded for the last one */
  do
    {
      const TtvFilterInsn *in = &code[pc];
      gboolean ok = TRUE;
      gint64 v;
      switch ((TtvFilterOpcode) in->code)
        {
        case INS_INT8: v = extend (load (ev, in, 1, &ok), in->shift); break;
        case INS_INT16: v = extend (load (ev, in, 2, &ok), in->shift); break;
        case INS_INT32: v = extend (load (ev, in, 4, &ok), in->shift); break;
        case INS_INT64: v = (gint64) load (ev, in, 8, &ok); break;
        case INS_TIME: v = ev->time; break;
        case INS_TIME_REL: v = ev->time - ev->tracefile->trace->start; break;
        case INS_ENUM_LABEL:
          if (in->bytes)
            {
              guint64 raw = (guint64) extend (load (ev, in, in->bytes, &ok), in->shift);
              if (!ok || raw < in->dense_len)
                {
                  guint d = ok ? in->dense[raw] : 0;
                  ok = d != 0;
                  v = (gint64) d - 1;
                  break;
                }
            }
          ok = cold_value (f, in, ev, state, &v, &rc);
          break;
        default:
          ok = cold_value (f, in, ev, state, &v, &rc);
          break;
        }
      gboolean r = ok && (((guint64) v - (guint64) in->lo <= in->span) != in->invert);
      pc = r ? in->on_true : in->on_false;
    }
  while (pc < TTV_FILTER_PC_REJECT);
  return pc == TTV_FILTER_PC_ACCEPT;
}

/* Events whose type and tracefile do not decide: the type's program, or
 * the programs of a trace, tracefile or type seen for the first time. */
gboolean
ttv_filter_matches_slow (TtvFilter *f, const TtvEvent *ev, const TtvState *state)
{
  const TtvTracefile *tf = ev->tracefile;
  guint64 slot;
  if (G_LIKELY (ttv_filter_hot_holds (&f->hot, ev, &slot) && f->hot_programs[slot] != NULL))
    {
      const TtvFilterProgram *prog = f->hot_programs[slot];
      if (prog->verdict != TTV_FILTER_DEPENDS)
        return prog->verdict == TTV_FILTER_ALWAYS;
      return run (f, prog, ev, state);
    }
  TtvFilterProgram *prog = get_program (f, tf->trace, tf, ev->type, ev->time);
  if (prog->verdict != TTV_FILTER_DEPENDS)
    return prog->verdict == TTV_FILTER_ALWAYS;
  return run (f, prog, ev, state);
}

/* --- the reference meaning ------------------------------------------- */

static gboolean
ref_eval (TtvFilter *f, const TtvFilterNode *n, const TtvEvent *ev, const TtvState *state)
{
  switch (n->kind)
    {
    case NODE_AND:
      return ref_eval (f, n->a, ev, state) && ref_eval (f, n->b, ev, state);
    case NODE_OR:
      return ref_eval (f, n->a, ev, state) || ref_eval (f, n->b, ev, state);
    case NODE_NOT:
      return !ref_eval (f, n->a, ev, state);
    case NODE_CMP:
    case NODE_TEST:
      break;
    }
  gboolean test = n->kind == NODE_TEST;
  const TtvFilterLiteral *lit = &n->lit;
  const TtvEventType *type = ev->type;
  const TtvTrace *trace = ev->tracefile->trace;
  const TtvProcessState *proc = running (ev, state);
  TtvFilterVal v = { TTV_FILTER_VAL_NONE, 0, 0, NULL };
  TtvEventOwner ctx;
  switch (n->var)
    {
    case VAR_EVENT_NAME:
      if (test)
        return TRUE;
      if (n->op == OP_NE)
        return !ttv_filter_string_compare (lit, OP_EQ, type->full_name)
               && !ttv_filter_string_compare (lit, OP_EQ, type->name);
      return ttv_filter_string_compare (lit, n->op, type->full_name)
             || (n->op == OP_EQ && ttv_filter_string_compare (lit, n->op, type->name));
    case VAR_EVENT_FACILITY:
      return test ? type->facility != NULL : ttv_filter_string_compare (lit, n->op, type->facility);
    case VAR_EVENT_ID:
      return test || ttv_filter_int_compare (n->op, (gint64) type->format_id, lit->ival);
    case VAR_EVENT_GROUP:
      return ttv_hook_groups_match (f->groups, lit->text, type) == (n->op == OP_EQ);
    case VAR_TRACE_NAME:
      return test || ttv_filter_string_compare (lit, n->op, trace->name);
    case VAR_TRACE_HOST:
      return test ? ttv_trace_get_host (trace) != NULL : ttv_filter_string_compare (lit, n->op, ttv_trace_get_host (trace));
    case VAR_EVENT_FIELD:
      if (type->fields && ttv_type_find_field (type->fields, g_array_index (n->path, TtvFilterPathStep, 0).name) >= 0)
        {
          fetch_decoded (f, n, ev, !test && !lit->has_int && !lit->has_double, &v);
          break;
        }
      G_GNUC_FALLTHROUGH;   /* not in the payload: the contexts */
    case VAR_EVENT_CONTEXT:
      fetch_context (f, n, ev, !test && !lit->has_int && !lit->has_double, &v);
      break;
    case VAR_EVENT_TIME:
      v.kind = TTV_FILTER_VAL_INT;
      v.i = lit->time_relative ? ev->time - trace->start : ev->time;
      break;
    case VAR_TRACEFILE_NAME:
      v.kind = TTV_FILTER_VAL_STRING;
      v.s = ev->tracefile->name;
      break;
    case VAR_CPU:
      v.kind = ev->tracefile->cpu >= 0 ? TTV_FILTER_VAL_INT : TTV_FILTER_VAL_NONE;
      v.i = ev->tracefile->cpu;
      break;
    case VAR_STATE_PID:
    case VAR_STATE_TID:
    case VAR_STATE_PPID:
      if (proc)
        {
          v.kind = TTV_FILTER_VAL_INT;
          v.i = n->var == VAR_STATE_TID ? proc->pid : n->var == VAR_STATE_PPID ? proc->ppid
                : ttv_process_state_get_tgid (proc);
        }
      else if (n->var != VAR_STATE_PPID && ttv_event_owner_from_context (ev, f->proc_decoder, &ctx))
        {
          v.i = n->var == VAR_STATE_TID ? ctx.tid : ctx.pid;
          v.kind = v.i >= 0 ? TTV_FILTER_VAL_INT : TTV_FILTER_VAL_NONE;
        }
      break;
    case VAR_STATE_PROCESS_NAME:
      if (proc && proc->name)
        {
          v.kind = TTV_FILTER_VAL_STRING;
          v.s = g_quark_to_string (proc->name);
        }
      else if (proc == NULL && ttv_event_owner_from_context (ev, f->proc_decoder, &ctx) && ctx.name[0])
        {
          v.kind = TTV_FILTER_VAL_STRING;
          v.s = ctx.name;
        }
      break;
    case VAR_STATE_EXEC_MODE:
      if (proc)
        {
          v.kind = TTV_FILTER_VAL_STRING;
          v.s = ttv_exec_mode_name (ttv_process_state_get_mode (proc));
        }
      break;
    case VAR_STATE_SYSCALL:
      if (state && (v.s = ttv_state_get_event_syscall (state, ev->tracefile->cpu)) != NULL)
        v.kind = TTV_FILTER_VAL_STRING;
      break;
    }
  return test ? ttv_filter_value_test (&v) : ttv_filter_value_compare (n, &v);
}

gboolean
ttv_filter_matches_reference (TtvFilter *f, const TtvEvent *ev, const TtvState *state)
{
  f->decoded = f->ctx_decoded = NULL;
  return ref_eval (f, f->root, ev, state);
}

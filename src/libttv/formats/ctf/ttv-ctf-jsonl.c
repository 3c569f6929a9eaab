/* ttv-ctf-jsonl.c: the fields and contexts of a CTF event as ttv-report's
 * jsonl line writes them (see ttv-ctf-jsonl.h), without the decoding of
 * every scope into the decoder's tree: what an event class shows (its
 * members, their escaped keys, how each value is written) is worked out
 * once into a plan, and a scope of constant layout (most of them) is
 * written straight from the packet bytes, as the babeltrace line is
 * (ttv-ctf-text.c); the others are decoded alone where the cursor found
 * them. */
#include "ttv-ctf-jsonl.h"
#include "ttv-ctf-private.h"
#include "ttv-ctf-scope-memo.h"
#include "ttv-event-json.h"
#include "ttv-text.h"

typedef struct {
  guint32 index;              /* of the member in its struct */
  char *key;                  /* owned: ",\"name\":" */
  gsize key_len;
  const TtvType *type;        /* weak */
  const TtvFlatMember *load;  /* of a flat scope */
  TtvEventJsonKind kind;
  /* An array of a sequential scope: how each element writes. */
  const TtvType *element;     /* weak */
  TtvEventJsonKind element_kind;
} JsonMember;

typedef struct {
  const TtvType *type;        /* weak; NULL: the class has no such scope */
  const char *name;           /* the decoder's scope name */
  const TtvFlatLayout *flat;  /* when written from the bytes */
  const TtvSeqLayout *seq;    /* else when written from the bytes member after member */
  JsonMember *members;        /* owned: those the line shows */
  guint n_members;
  /* A flat scope whose members the line shows are all integers (most
   * kernel payloads): written with one check of room, @numbers_room. */
  gboolean numbers_only;
  gsize numbers_room;
  gboolean remembered;        /* its text kept in scope_memos (may_remember) */
} JsonScope;

/* The scopes in the order of the line: the fields, then the packet
 * context, the stream event context and the event context. */
enum { SCOPE_FIELDS, SCOPE_PACKET, SCOPE_STREAM, SCOPE_EVENT, N_SCOPES };

struct _CtfJsonlPlan {
  gboolean usable;            /* FALSE: a scope is no struct, the class has no fields */
  JsonScope scopes[N_SCOPES];
  guint contexts[N_SCOPES];   /* the contexts the class has, in the line's order... */
  guint n_contexts;           /* ...only those are looked at per event */
  /* The first context the class has is a packet context that shows
   * members: its kept text begins with the fields' closing brace... */
  gboolean packet_first;
  /* ...and it is the only one (LTTng's kernel events): no walk over the
   * contexts (write_contexts). */
  gboolean packet_only;
};

/* The stream event and event contexts' texts kept with their bytes
 * (ttv-ctf-scope-memo.h), indexed by scope less SCOPE_STREAM. */
static _Thread_local TtvCtfScopeMemo scope_memos[2];

/* The text of a tracefile's packet context, the first of the line's
 * contexts, with the fields' closing brace before it and, when it is the
 * only context, the contexts' after it (one copy for all):
 * "},\"contexts\":{\"packet\":{…}" and "}".  It is the same for every
 * event of a packet, whose bytes hold it: kept for the last packet of each
 * tracefile (the streams of a merged read alternate), keyed by the
 * tracefile and the packet's number, the context's type and the generation
 * of ttv-ctf-scope-memo.h (a tracefile and a type go with their trace). */
#define PACKET_MEMO_SLOTS 16
#define PACKET_MEMO_TEXT 256

typedef struct {
  const TtvTracefile *tracefile;  /* weak; NULL: nothing kept */
  guint64 packet;                 /* its pos.block */
  const TtvType *type;            /* weak */
  gint generation;
  gboolean only;                  /* the contexts' closing brace included */
  gsize text_len;
  char text[PACKET_MEMO_TEXT];
} PacketMemo;

static _Thread_local PacketMemo packet_memos[PACKET_MEMO_SLOTS];

void
ttv_ctf_jsonl_plan_free (CtfJsonlPlan *plan)
{
  if (plan == NULL)
    return;
  /* Its types may go with it: scope_memos must not take a successor at
   * the same address for them. */
  ttv_ctf_scope_memo_plans_freed ();
  for (guint i = 0; i < N_SCOPES; i++)
    {
      for (guint k = 0; k < plan->scopes[i].n_members; k++)
        g_free (plan->scopes[i].members[k].key);
      g_free (plan->scopes[i].members);
    }
  g_free (plan);
}

/* Whether the text of scope @i is kept in scope_memos: a flat struct of
 * a few bytes showing two members at least (a single one costs less to
 * write than to remember).  Not the fields: their bytes seldom repeat; nor
 * the packet context: kept per packet (packet_memos). */
static gboolean
may_remember (const JsonScope *s, guint i)
{
  return (i == SCOPE_STREAM || i == SCOPE_EVENT) && s->flat != NULL && s->n_members >= 2
         && s->flat->size_bits % 8 == 0 && s->flat->size_bits / 8 <= TTV_CTF_SCOPE_MEMO_BYTES;
}

/* The members of @t the line shows: all of the fields; of a context, those
 * without a role for the reader (packet sizes, times and counters, which
 * describe the packet, not the event), as ttv-report's general writer. */
static void
plan_scope (JsonScope *s, guint scope, const TtvType *t, const char *name)
{
  gboolean all_members = scope == SCOPE_FIELDS;
  s->type = t;
  s->name = name;
  s->flat = ttv_type_get_flat_layout (t);
  s->seq = s->flat ? NULL : ttv_type_get_seq_layout (t);
  s->members = g_new0 (JsonMember, MAX (t->fields->len, 1));
  for (guint i = 0; i < t->fields->len; i++)
    {
      const TtvField *f = g_ptr_array_index (t->fields, i);
      if (!all_members && (f->type->roles || f->type->clock_name))
        continue;
      JsonMember *m = &s->members[s->n_members++];
      m->index = i;
      m->key = ttv_event_json_key_new (f->name, &m->key_len);
      m->type = f->type;
      m->load = s->flat ? &s->flat->members[i] : NULL;
      m->kind = ttv_event_json_kind_of (f->type);
      if (s->seq && s->seq->members[i].array)
        {
          m->element = f->type->element;
          m->element_kind = ttv_event_json_kind_of (m->element);
        }
    }
  s->numbers_only = s->flat != NULL;
  for (guint i = 0; i < s->n_members; i++)
    {
      const JsonMember *m = &s->members[i];
      s->numbers_only &= m->kind == TTV_EVENT_JSON_UNSIGNED || m->kind == TTV_EVENT_JSON_SIGNED;
      s->numbers_room += m->key_len + TTV_TEXT_NUMBER_MAX;
    }
  s->remembered = may_remember (s, scope);
}

static CtfJsonlPlan *
plan_new (const CtfEventClass *ec)
{
  CtfJsonlPlan *plan = g_new0 (CtfJsonlPlan, 1);
  const CtfStreamClass *sc = ec->stream;
  const TtvType *types[N_SCOPES] = { ec->fields, sc ? sc->packet_context : NULL, sc ? sc->event_context : NULL,
                                     ec->context };
  static const char *const names[N_SCOPES] = { "event.fields", "stream.packet.context", "stream.event.context",
                                               "event.context" };
  plan->usable = ec->fields != NULL;
  for (guint i = 0; i < N_SCOPES; i++)
    {
      if (types[i] == NULL)
        continue;
      if (types[i]->kind != TTV_TYPE_STRUCT)
        plan->usable = FALSE;
      else
        plan_scope (&plan->scopes[i], i, types[i], names[i]);
      if (i != SCOPE_FIELDS)
        plan->contexts[plan->n_contexts++] = i;
    }
  plan->packet_first = plan->n_contexts > 0 && plan->contexts[0] == SCOPE_PACKET
                       && plan->scopes[SCOPE_PACKET].n_members > 0;
  plan->packet_only = plan->packet_first && plan->n_contexts == 1;
  return plan;
}

static const CtfJsonlPlan *
plan_of (CtfEventClass *ec)
{
  CtfJsonlPlan *plan = g_atomic_pointer_get (&ec->jsonl);
  if (G_LIKELY (plan != NULL))
    return plan;
  return ttv_ctf_event_class_install_plan ((gpointer *) &ec->jsonl, plan_new (ec),
                                           (GDestroyNotify) ttv_ctf_jsonl_plan_free);
}

/* Member @m's key at @p, after '{' when @first, else after ','. */
static inline char *
put_key (char *p, const JsonMember *m, gboolean first)
{
  p = ttv_text_put (p, m->key, m->key_len);
  p[-(gssize) m->key_len] = first ? '{' : ',';
  return p;
}

/* An integer member's value (TTV_TEXT_NUMBER_MAX bytes of room). */
static inline char *
put_number (char *p, const JsonMember *m, const TtvValue *v)
{
  if (m->kind == TTV_EVENT_JSON_UNSIGNED || v->v.s >= 0)
    return ttv_text_put_decimal (p, v->v.u);
  return ttv_text_put_i64 (p, v->v.s);
}

/* Array member @m whose value @array (ttv_seq_member_load) views its
 * elements' bytes, as the decoder's JSON writes a decoded one: "[1,2]". */
static void
put_array (GString *out, const JsonMember *m, const TtvSeqMember *sm, const TtvValue *array)
{
  TTV_TEXT_APPEND_LITERAL (out, "[");
  for (guint32 i = 0; i < array->v.string.len; i++)
    {
      TtvValue v;
      v.type = m->element;
      v.n_children = 0;
      ttv_seq_element_load (sm, array, i, &v);
      if (i)
        TTV_TEXT_APPEND_LITERAL (out, ",");
      ttv_event_json_append_value (out, NULL, &v, m->element_kind);
    }
  TTV_TEXT_APPEND_LITERAL (out, "]");
}

/* Member @m, key and value @v (@d holds its children; @sm, when not
 * NULL, is its sequential layout's member, which says whether @v views an
 * array's bytes), after '{' when @first, else after ','.  Integers (most
 * members) in one go with their key. */
static inline void
put_member (GString *out, const JsonMember *m, const TtvDecoder *d, const TtvSeqMember *sm, const TtvValue *v,
            gboolean first)
{
  char *p = put_key (ttv_text_reserve (out, m->key_len + TTV_TEXT_NUMBER_MAX), m, first);
  if (m->kind == TTV_EVENT_JSON_UNSIGNED || m->kind == TTV_EVENT_JSON_SIGNED)
    ttv_text_commit (out, put_number (p, m, v));
  else
    {
      ttv_text_commit (out, p);
      if (sm != NULL && sm->array)
        put_array (out, m, sm, v);
      else
        ttv_event_json_append_value (out, d, v, m->kind);
    }
}

/* A flat scope's members from the bytes at bit *@pos of @event's packet,
 * *@pos then past it; FALSE when the bytes are too few. */
static gboolean
write_flat (GString *out, const JsonScope *s, const TtvEvent *event, guint64 *pos)
{
  const TtvFlatLayout *layout = s->flat;
  guint64 at = ttv_align_up (*pos, layout->align_bits);
  if (at > event->data_bits || event->data_bits - at < layout->size_bits)
    return FALSE;
  const guint8 *base = event->data + at / 8;
  *pos = at + layout->size_bits;
  if (s->numbers_only)
    {
      char *p = ttv_text_reserve (out, s->numbers_room);
      for (guint i = 0; i < s->n_members; i++)
        {
          const JsonMember *m = &s->members[i];
          TtvValue v;
          ttv_flat_member_load (m->load, base, &v);
          p = put_number (put_key (p, m, i == 0), m, &v);
        }
      ttv_text_commit (out, p);
      return TRUE;
    }
  for (guint i = 0; i < s->n_members; i++)
    {
      const JsonMember *m = &s->members[i];
      TtvValue v;
      v.type = m->type;
      v.n_children = 0;
      ttv_flat_member_load (m->load, base, &v);
      put_member (out, m, NULL, NULL, &v, i == 0);
    }
  return TRUE;
}

/* A sequential scope's members from the bytes at bit *@pos of @event's
 * packet, each where the one before ends, *@pos then past it; FALSE when
 * the bytes are too few or a string has no end. */
static gboolean
write_sequential (GString *out, const JsonScope *s, const TtvEvent *event, guint64 *pos)
{
  const TtvSeqLayout *layout = s->seq;
  guint64 at = ttv_align_up (*pos, layout->align_bits);
  guint64 counts[TTV_SEQ_MAX_COUNTS];
  guint shown = 0;
  for (guint i = 0; i < layout->n_members; i++)
    {
      const TtvSeqMember *sm = &layout->members[i];
      TtvValue v;
      v.n_children = 0;
      if (!ttv_seq_member_load (sm, event->data, event->data_bits, &at, counts, &v))
        return FALSE;
      if (shown < s->n_members && s->members[shown].index == i)
        {
          const JsonMember *m = &s->members[shown];
          v.type = m->type;
          put_member (out, m, NULL, sm, &v, shown == 0);
          shown++;
        }
    }
  *pos = at;
  return TRUE;
}

/* A scope decoded alone from bit *@pos, *@pos then past it; FALSE when
 * it does not decode.  (The decoder is reset here, not per event: most
 * events have nothing to decode.) */
static gboolean
write_decoded (GString *out, const JsonScope *s, const TtvEvent *event, TtvDecoder *d, guint64 *pos)
{
  ttv_decoder_reset (d);
  gint32 node = ttv_decoder_decode (d, s->type, s->name, event->data, event->data_bits, pos, NULL);
  if (node < 0)
    return FALSE;
  const TtvValue *children = ttv_decoder_get_children (d, ttv_decoder_get (d, (guint32) node));
  for (guint i = 0; i < s->n_members; i++)
    {
      const JsonMember *m = &s->members[i];
      put_member (out, m, d, NULL, &children[m->index], i == 0);
    }
  return TRUE;
}

/* write_flat of context @s, scope @i, whose text is kept in scope_memos:
 * copied when its bytes are those of the text kept. */
static G_NO_INLINE gboolean
write_flat_remembered (GString *out, const JsonScope *s, guint i, const TtvEvent *event, guint64 *pos)
{
  const TtvFlatLayout *layout = s->flat;
  guint64 at = ttv_align_up (*pos, layout->align_bits);
  if (at > event->data_bits || event->data_bits - at < layout->size_bits)
    return FALSE;
  const guint8 *bytes = event->data + at / 8;
  gsize n_bytes = layout->size_bits / 8;
  TtvCtfScopeMemo *memo = &scope_memos[i - SCOPE_STREAM];
  gint generation = ttv_ctf_scope_memo_generation ();
  if (ttv_ctf_scope_memo_holds (memo, s->type, generation, bytes, n_bytes))
    {
      ttv_text_append (out, memo->text, memo->text_len);
      *pos = at + layout->size_bits;
      return TRUE;
    }
  gsize before = out->len;
  if (!write_flat (out, s, event, pos))
    return FALSE;
  ttv_ctf_scope_memo_keep (memo, s->type, generation, bytes, n_bytes, out->str + before, out->len - before);
  return TRUE;
}

static gboolean
write_scope (GString *out, const JsonScope *s, const TtvEvent *event, TtvDecoder *d, guint64 *pos)
{
  if (s->flat)
    return write_flat (out, s, event, pos);
  return s->seq ? write_sequential (out, s, event, pos) : write_decoded (out, s, event, d, pos);
}

static inline PacketMemo *
packet_memo_of (const TtvTracefile *tf)
{
  guintptr k = (guintptr) tf;
  return &packet_memos[(k >> 4 ^ k >> 12) & (PACKET_MEMO_SLOTS - 1)];
}

/* write_packet_context () of a packet whose text @memo does not hold:
 * written from the bytes, then kept there.  Out of line: the usual copy
 * then saves no registers. */
static G_NO_INLINE gboolean
write_packet_context_afresh (GString *out, const JsonScope *s, const TtvEvent *event, TtvDecoder *d,
                             guint64 pos, gboolean only, PacketMemo *memo, gint generation)
{
  gsize before = out->len;
  TTV_TEXT_APPEND_LITERAL (out, "},\"contexts\":{\"packet\":");
  if (!write_scope (out, s, event, d, &pos))
    return FALSE;
  if (only)
    TTV_TEXT_APPEND_LITERAL (out, "}}");
  else
    TTV_TEXT_APPEND_LITERAL (out, "}");
  gsize len = out->len - before;
  memo->tracefile = len <= PACKET_MEMO_TEXT ? event->tracefile : NULL;
  if (memo->tracefile == NULL)
    return TRUE;
  memo->packet = event->pos.block;
  memo->type = s->type;
  memo->generation = generation;
  memo->only = only;
  memo->text_len = len;
  memcpy (memo->text, out->str + before, len);
  return TRUE;
}

/* The fields' closing brace and the packet context @s, which shows
 * members, as the line's first context (its key, its text and the
 * closing brace), and the contexts' closing brace when it is the @only
 * one: copied when kept for the event's packet; FALSE when it does not
 * decode. */
static inline gboolean
write_packet_context (GString *out, const JsonScope *s, const TtvEvent *event, TtvDecoder *d, guint64 pos,
                      gboolean only)
{
  PacketMemo *memo = packet_memo_of (event->tracefile);
  gint generation = ttv_ctf_scope_memo_generation ();
  if (G_LIKELY (memo->tracefile == event->tracefile && memo->packet == event->pos.block
                && memo->type == s->type && memo->generation == generation && memo->only == only))
    {
      ttv_text_append (out, memo->text, memo->text_len);
      return TRUE;
    }
  return write_packet_context_afresh (out, s, event, d, pos, only, memo, generation);
}

/* The fields' closing brace, then the contexts that show members, in the
 * line's order; FALSE when one does not decode. */
static gboolean
write_contexts (GString *out, const CtfJsonlPlan *plan, const TtvEvent *event, TtvDecoder *d,
                const guint64 starts[N_SCOPES])
{
#define KEY(s) { s, sizeof (s) - 1 }
  static const struct {
    const char *text;
    gsize len;
  } keys[N_SCOPES][2] = {   /* [scope][first of the contexts]; the packet's: write_packet_context */
    [SCOPE_STREAM] = { KEY (",\"stream\":"), KEY (",\"contexts\":{\"stream\":") },
    [SCOPE_EVENT] = { KEY (",\"event\":"), KEY (",\"contexts\":{\"event\":") },
  };
#undef KEY
  if (plan->packet_only)
    return write_packet_context (out, &plan->scopes[SCOPE_PACKET], event, d, starts[SCOPE_PACKET], TRUE);
  guint64 event_start = starts[SCOPE_EVENT];
  guint n = 0;
  if (!plan->packet_first)
    TTV_TEXT_APPEND_LITERAL (out, "}");
  for (guint k = 0; k < plan->n_contexts; k++)
    {
      guint i = plan->contexts[k];
      const JsonScope *s = &plan->scopes[i];
      guint64 pos = i == SCOPE_EVENT ? event_start : starts[i];
      if (i == SCOPE_PACKET && s->n_members > 0)
        {
          if (!write_packet_context (out, s, event, d, pos, FALSE))
            return FALSE;
          n++;
          continue;
        }
      if (s->n_members > 0)
        {
          ttv_text_append (out, keys[i][n == 0].text, keys[i][n == 0].len);
          n++;
        }
      /* The stream event context, even without members to show: the
       * event context starts where it ends. */
      if (!(s->remembered ? write_flat_remembered (out, s, i, event, &pos) : write_scope (out, s, event, d, &pos)))
        return FALSE;
      if (s->n_members > 0)
        TTV_TEXT_APPEND_LITERAL (out, "}");
      if (i == SCOPE_STREAM)
        event_start = pos;
    }
  if (n)
    TTV_TEXT_APPEND_LITERAL (out, "}");
  return TRUE;
}

gboolean
ttv_ctf_append_jsonl_scopes (GString *out, const TtvEvent *event, TtvDecoder *decoder)
{
  const CtfStreamFile *sf = event->tracefile->priv;
  CtfEventClass *ec = event->type->priv;
  const CtfJsonlPlan *plan = plan_of (ec);
  guint64 hdr_end = CTF_EVENT_HEADER_END (event);
  /* As the cursor's decoding of the scopes alone (decode_scopes_alone). */
  if (!plan->usable || !(ttv_ctf_event_class_refs (sf, ec) & CTF_REFS_FIELDS_ALONE) || hdr_end == 0
      || (plan->scopes[SCOPE_PACKET].type && ec->packet_context_bit < 0))
    return FALSE;
  guint64 starts[N_SCOPES] = { event->payload_bit, (guint64) ec->packet_context_bit, hdr_end, hdr_end };
  gsize mark = out->len;
  TTV_TEXT_APPEND_LITERAL (out, ",\"fields\":");
  guint64 pos = starts[SCOPE_FIELDS];
  if (!write_scope (out, &plan->scopes[SCOPE_FIELDS], event, decoder, &pos))
    goto fail;
  if (plan->scopes[SCOPE_FIELDS].n_members == 0)
    TTV_TEXT_APPEND_LITERAL (out, "{");
  if (!write_contexts (out, plan, event, decoder, starts))
    goto fail;
  return TRUE;
fail:
  g_string_truncate (out, mark);
  return FALSE;
}

/* ttv-decoder-private.h: the decoder's state, shared by the walk of the type
 * tree (ttv-decoder.c) and the compiled plans (ttv-decode-plan.c). */
#pragma once

#include "ttv-decoder.h"

#include <string.h>

G_BEGIN_DECLS

/* Guards against hostile lengths: no event may expand to more nodes. */
#define TTV_DECODER_MAX_NODES (1u << 24)
#define TTV_DECODER_MAX_DEPTH 64

typedef struct {
  const char *name;   /* weak: the caller's literal */
  guint32 node;
} TtvDecoderScope;

/* A scope ttv_decoder_decode_first_memo decoded: its key and nodes.
 * The memos are in slots by their stream's number: a new decoder has
 * TTV_DECODER_MEMO_SLOTS of them, and twice as many each time two streams
 * read together want one slot, up to TTV_DECODER_MEMO_SLOTS_MAX. */
#define TTV_DECODER_MEMO_SLOTS 32u
#define TTV_DECODER_MEMO_SLOTS_MAX 1024u
/* A memo whose nodes are not among the resident ones. */
#define TTV_DECODER_NOT_RESIDENT G_MAXUINT32
/* Resident nodes beyond this many a slot (and at least
 * TTV_DECODER_RESIDENT_MAX) are given up (the memos keep their copies):
 * each new packet leaves its predecessor's nodes behind. */
#define TTV_DECODER_RESIDENT_MAX 1024u
#define TTV_DECODER_RESIDENT_PER_SLOT 32u
typedef struct {
  gboolean valid;
  guint64 packet;
  guint stream;
  const TtvType *type;
  const guint8 *buf;
  guint64 buf_bits, start, end;
  TtvValue *nodes;    /* owned, [n], as decoded at node @base */
  guint32 n, base;
  guint32 at;         /* its nodes' place among the resident ones, or TTV_DECODER_NOT_RESIDENT */
} TtvDecoderMemo;

struct _TtvDecoder {
  /* First, where ttv_decoder_chain_bytes () finds it. */
  TtvDecoderChainBytes chain_bytes;
  TtvValue *nodes;    /* owned, [cap] */
  guint32 n_nodes, cap;
  TtvDecoderScope *scopes;  /* owned, [scopes_cap], in registration order */
  guint n_scopes, scopes_cap;
  /* The walk's compounds being decoded, innermost last, for relative
   * references: (node index, number of children filled so far). */
  guint32 *open;      /* owned, pairs, [open_cap * 2] */
  guint n_open, open_cap;
  guint depth;
  /* Strings the bytes do not hold as NUL-terminated UTF-8 (CTF 2 static
   * and dynamic lengths, UTF-16/32), converted for this event. */
  GStringChunk *arena;
  gboolean arena_used;
  /* ttv_decoder_decode_first_memo's scopes, one per stream (a merged
   * read goes from stream to stream), in slots by the stream's number
   * (memo_mask + 1 of them, owned), and the resident nodes' limit. */
  TtvDecoderMemo *memo;
  guint memo_mask;
  /* ttv_decoder_decode_chain's contexts kept the same way, one per stream
   * in the same slots, while their bytes repeat (an LTTng event context:
   * the pid, tid and name of the thread, the same for runs of events). */
  TtvDecoderMemo *context_memo;
  guint64 context_refills;  /* contexts decoded, not reused (tests) */
  /* Memos decoded, and those that took the slot of another stream's, since
   * the slots were last made (memo_grow). */
  guint64 refills, evictions;
  guint32 resident_max;
  /* Nodes 0 .. resident_n - 1 hold memos' nodes and outlive resets (a
   * reset starts the event's nodes after them): each tracefile's packet
   * context stays where it is while a merged read goes from stream to
   * stream, taken without a copy. */
  guint32 resident_n;
};
G_STATIC_ASSERT (G_STRUCT_OFFSET (struct _TtvDecoder, chain_bytes) == 0);

/* Cold: the arrays reach their size within the first events, and the
 * compiler then keeps the calls off the decoding paths' straight line. */
__attribute__ ((cold)) void ttv_decoder_grow (TtvDecoder *d, guint32 n);
__attribute__ ((cold)) void ttv_decoder_grow_scopes (TtvDecoder *d);
/* The option of CTF 1.8 or LTT variant @t that @tag selects, -1 for none:
 * an enum tag (@tag_type) by its label, where a label of one leading
 * underscore also names the option without it (field names lose one,
 * labels do not: `_callsite` selects `string _callsite;`, stored as
 * "callsite"); an integer tag (@tag_type NULL or not an enum) by index. */
gint ttv_decoder_variant_option (const TtvType *t, const TtvType *tag_type, guint64 tag);
/* ttv_decoder_decode without the type's plan: the walk of its tree (tests
 * compare the two). */
gint32 ttv_decoder_decode_walk (TtvDecoder *d, const TtvType *type, const char *scope_name,
                                const guint8 *buf, guint64 buf_bits, guint64 *bit_pos, GError **error);

/* Makes room for @n more nodes (the caller checked TTV_DECODER_MAX_NODES). */
static inline void
ttv_decoder_reserve (TtvDecoder *d, guint32 n)
{
  if (G_UNLIKELY (d->cap - d->n_nodes < n))
    ttv_decoder_grow (d, n);
}

/* Appends @n nodes copied from @tmpl (zeroed when NULL); returns the first. */
static inline guint32
ttv_decoder_alloc (TtvDecoder *d, guint32 n, const TtvValue *tmpl)
{
  ttv_decoder_reserve (d, n);
  guint32 first = d->n_nodes;
  if (tmpl)
    memcpy (d->nodes + first, tmpl, sizeof (TtvValue) * n);
  else
    memset (d->nodes + first, 0, sizeof (TtvValue) * n);
  d->n_nodes += n;
  return first;
}

/* Registers node @root as the scope that references name @scope_name. */
static inline void
ttv_decoder_add_scope (TtvDecoder *d, const char *scope_name, guint32 root)
{
  guint i = d->n_scopes;
  if (G_UNLIKELY (i == d->scopes_cap))
    ttv_decoder_grow_scopes (d);
  /* Through a local: stores through pointers make the compiler reload
   * d's members otherwise (-fno-strict-aliasing). */
  TtvDecoderScope *s = &d->scopes[i];
  s->name = scope_name;
  s->node = root;
  d->n_scopes = i + 1;
}

G_END_DECLS

/* ttv-decoder.h: decodes bytes described by a TtvType into a tree of values.
 * One decoder for every format; readers own one per cursor and reuse it, so
 * decoding an event allocates nothing once the node array has grown. */
#pragma once

#include "ttv-type.h"

#include <string.h>

G_BEGIN_DECLS

/* One decoded node.  Children of a compound are contiguous in the decoder's
 * node array: first_child .. first_child + n_children - 1.  A text array
 * (ttv_type_is_text_array) has no children: v.string views its bytes (len
 * elements, NUL padding included, not NUL-terminated); read its elements
 * with ttv_value_get_n_elements and ttv_decoder_get_element. */
typedef struct {
  const TtvType *type;      /* weak */
  const char *name;         /* weak: field name, NULL for array elements */
  guint32 first_child;
  guint32 n_children;
  union {
    gint64 s;               /* INTEGER signed, ENUM signed */
    guint64 u;              /* INTEGER unsigned, ENUM unsigned, VARIANT tag */
    double f;               /* FLOAT */
    struct {
      const char *str;      /* weak: points into the decoded buffer; NUL-terminated for a
                             * STRING, not for a text array */
      guint32 len;
    } string;
  } v;
} TtvValue;

typedef struct _TtvDecoder TtvDecoder;

TtvDecoder *ttv_decoder_new (void);
void        ttv_decoder_free (TtvDecoder *decoder);
/* Forgets every node and scope; call before each event.  (The nodes of
 * ttv_decoder_decode_first_memo's memos stay below the event's.) */
void        ttv_decoder_reset (TtvDecoder *decoder);

/* Decodes one value of @type from @buf (buf_bits long) at *bit_pos, which
 * advances past it; alignment is relative to @buf.  When @scope_name is set
 * (such as "event.fields" or "stream.packet.context"; kept by reference:
 * a string literal), the result becomes a root that later references can
 * name with that prefix.  Returns the node index, or -1 with @error set
 * (offsets in the message are in bytes from @buf; readers prefix the file
 * name).  Runs @type's compiled plan (ttv-decode-plan.c) when it has one:
 * the same nodes as the walk of the type tree, without its dispatch. */
gint32      ttv_decoder_decode (TtvDecoder *decoder, const TtvType *type, const char *scope_name,
                                const guint8 *buf, guint64 buf_bits, guint64 *bit_pos,
                                GError **error);
/* ttv_decoder_reset, then ttv_decoder_decode of the event's first scope
 * (one call: a reader's usual event starts with it), reusing the nodes
 * of the last call when @packet and @type are the same and @buf,
 * @buf_bits and *@bit_pos too: a packet's context, the same for each of its
 * events, decoded once per packet rather than once per event.  @stream
 * and @packet name the bytes for good (the same address may hold another
 * packet later): @stream a number of the tracefile unique while the
 * decoder is used (TtvTracefile.serial), @packet one of its packets.
 * Each stream keeps its memo while a merged read goes from stream to
 * stream (up to 1024 streams read together). */
gint32      ttv_decoder_decode_first_memo (TtvDecoder *decoder, guint64 packet, guint stream,
                                           const TtvType *type, const char *scope_name, const guint8 *buf,
                                           guint64 buf_bits, guint64 *bit_pos, GError **error);
/* A reader's usual event as one call: its scopes in the order they are
 * decoded, prepared once per event class.  First the packet's scope,
 * reused as by ttv_decoder_decode_first_memo (@memo NULL: none, the
 * decoder only reset), then up to two contexts (NULL: none) where the
 * event's bytes start, then the payload, each after the one before. */
typedef struct {
  const TtvType *memo;
  const char *memo_name;         /* required with @memo: its scope is registered */
  guint64 memo_start;            /* where @memo starts in the packet's bytes */
  const TtvType *contexts[2];
  const char *context_names[2];
  const TtvType *payload;
  const char *payload_name;
  /* Where the nodes of @memo and of the contexts go in
   * ttv_decoder_decode_chain's @out (-1 there for a scope it lacks). */
  guint8 slots[3];
  /* Set by ttv_decoder_chain_prepare (): of the first context, when its
   * size is constant in whole bytes, its size and alignment in bits (0:
   * not such; the second context is decoded every time). */
  guint32 context_memo_bits;
  guint32 context_memo_align;
} TtvDecoderChain;

/* Fills @chain's context_memo_bits and context_memo_align, once its
 * contexts are set: a first context whose values load from constant
 * places is then kept from one event to the next of a packet while its
 * bytes repeat, its nodes reused (the same values, their strings viewing
 * the same text in an earlier event's bytes). */
void        ttv_decoder_chain_prepare (TtvDecoderChain *chain);

/* The bytes of one event for ttv_decoder_decode_chain: its packet (named
 * as ttv_decoder_decode_first_memo's @packet and @stream), and where
 * its contexts start, past its payload after the call. */
typedef struct {
  guint64 packet;
  guint stream;
  const guint8 *buf;
  guint64 buf_bits;
  guint64 pos;
} TtvDecoderChainBytes;

/* Decodes @chain's scopes from @bytes (the same nodes and scopes as
 * ttv_decoder_decode_first_memo and ttv_decoder_decode one scope after
 * the other) and returns the payload's node; -1 on any failure, without
 * a message: the caller then decodes the event the long way, which finds
 * it. */
gint32      ttv_decoder_decode_chain (TtvDecoder *decoder, const TtvDecoderChain *chain,
                                      TtvDecoderChainBytes *bytes, gint32 *out);
/* A place in @decoder for the bytes of ttv_decoder_decode_chain, which a
 * reader fills before its call.  Bytes on the reader's stack would give
 * it a frame around the call; these let the call be its last.  The
 * decoder's struct starts with them (checked where it is defined). */
static inline TtvDecoderChainBytes *
ttv_decoder_chain_bytes (TtvDecoder *decoder)
{
  return (TtvDecoderChainBytes *) decoder;
}
/* A struct whose members all load from constant offsets (integers,
 * floats and text arrays on byte boundaries, no member referenced by
 * another): most event payloads and contexts.  Printers read such a
 * struct straight from the trace bytes, member by member, with
 * ttv_flat_layout_load (the values of ttv_decoder_decode's nodes). */
typedef enum {
  TTV_FLAT_LOAD_U8, TTV_FLAT_LOAD_S8, TTV_FLAT_LOAD_U16, TTV_FLAT_LOAD_S16, TTV_FLAT_LOAD_U32,
  TTV_FLAT_LOAD_S32, TTV_FLAT_LOAD_U64,
  TTV_FLAT_LOAD_U16_SWAP, TTV_FLAT_LOAD_S16_SWAP, TTV_FLAT_LOAD_U32_SWAP, TTV_FLAT_LOAD_S32_SWAP,
  TTV_FLAT_LOAD_U64_SWAP,
  TTV_FLAT_LOAD_F32, TTV_FLAT_LOAD_F32_SWAP,
  TTV_FLAT_LOAD_TEXT,
} TtvFlatLoad;

typedef struct {
  guint32 byte;           /* offset from the struct's aligned start */
  guint32 load;           /* TtvFlatLoad */
  guint32 length;         /* text arrays: elements */
} TtvFlatMember;

typedef struct {
  guint align_bits;       /* the struct's alignment */
  guint64 size_bits;      /* its size */
  guint n_members;
  const TtvFlatMember *members;
} TtvFlatLayout;

/* The load of a whole-byte integer of @size_bits (8, 16, 32 or 64) in
 * byte order @order into *kind, sign-extended when @is_signed; FALSE for
 * other sizes.  The one place that chooses an integer's load, for the
 * plans and for ttv_field_accessor_get_int(). */
gboolean ttv_flat_load_of_integer (guint size_bits, gboolean is_signed, TtvByteOrder order,
                                   TtvFlatLoad *kind);

/* @type's flat layout (owned by the type), or NULL when it has none. */
const TtvFlatLayout *ttv_type_get_flat_layout (const TtvType *type);

/* A struct that is not flat but reads member by member, each where the one
 * before it ends: byte-aligned integers and floats, fixed text arrays and
 * NUL-terminated strings (sched_switch's command names, a file name), and
 * arrays of byte-aligned integers or floats, of a fixed length or whose
 * length is an earlier member (an LTTng-UST ctf_sequence: its
 * _name_length member, then its elements).  Printers read it straight from
 * the bytes too: align to the struct, then for each member align, load (a
 * string: up to its NUL, which it takes too) and step past it. */
#define TTV_SEQ_NO_COUNT 0xffu
/* The lengths a struct's sequences can refer to. */
#define TTV_SEQ_MAX_COUNTS 8
/* An array longer than this (a corrupt length, mostly) is left to the
 * decoder, whose node array has a limit: the struct's arrays stay well
 * below it (compile_seq). */
#define TTV_SEQ_MAX_ELEMENTS 16384u

typedef struct {
  guint align_bits;       /* a multiple of 8 */
  gboolean string;        /* NUL-terminated, else a load of size_bits */
  gboolean array;         /* elements of size_bits each, one load each */
  guint64 size_bits;
  TtvFlatMember load;     /* at byte 0 of the member, or of each element */
  guint64 length;         /* array: elements, when count is TTV_SEQ_NO_COUNT */
  guint8 count;           /* sequence: the counts[] slot of its length */
  guint8 keep;            /* a length: the counts[] slot its value goes to,
                           * else TTV_SEQ_NO_COUNT */
} TtvSeqMember;

typedef struct {
  guint align_bits;
  guint n_members;
  const TtvSeqMember *members;
} TtvSeqLayout;

/* Member @m of a flat struct whose bytes start at @base into @out's value
 * (out->type and the rest untouched): inline, so that the decoder and the
 * printers that read flat structs straight from the bytes pay no call. */
static G_ALWAYS_INLINE inline void
ttv_flat_member_load (const TtvFlatMember *m, const guint8 *base, TtvValue *out)
{
  const guint8 *q = base + m->byte;
  guint16 x16;
  guint32 x32;
  guint64 x64;
  float f;
  switch ((TtvFlatLoad) m->load)
    {
    case TTV_FLAT_LOAD_U8: out->v.u = q[0]; break;
    case TTV_FLAT_LOAD_S8: out->v.s = (gint8) q[0]; break;
    case TTV_FLAT_LOAD_U16: memcpy (&x16, q, 2); out->v.u = x16; break;
    case TTV_FLAT_LOAD_S16: memcpy (&x16, q, 2); out->v.s = (gint16) x16; break;
    case TTV_FLAT_LOAD_U32: memcpy (&x32, q, 4); out->v.u = x32; break;
    case TTV_FLAT_LOAD_S32: memcpy (&x32, q, 4); out->v.s = (gint32) x32; break;
    case TTV_FLAT_LOAD_U64: memcpy (&x64, q, 8); out->v.u = x64; break;
    case TTV_FLAT_LOAD_U16_SWAP: memcpy (&x16, q, 2); out->v.u = GUINT16_SWAP_LE_BE (x16); break;
    case TTV_FLAT_LOAD_S16_SWAP: memcpy (&x16, q, 2); out->v.s = (gint16) GUINT16_SWAP_LE_BE (x16); break;
    case TTV_FLAT_LOAD_U32_SWAP: memcpy (&x32, q, 4); out->v.u = GUINT32_SWAP_LE_BE (x32); break;
    case TTV_FLAT_LOAD_S32_SWAP: memcpy (&x32, q, 4); out->v.s = (gint32) GUINT32_SWAP_LE_BE (x32); break;
    case TTV_FLAT_LOAD_U64_SWAP: memcpy (&x64, q, 8); out->v.u = GUINT64_SWAP_LE_BE (x64); break;
    case TTV_FLAT_LOAD_F32: memcpy (&f, q, 4); out->v.f = f; break;
    case TTV_FLAT_LOAD_F32_SWAP:
      memcpy (&x32, q, 4);
      x32 = GUINT32_SWAP_LE_BE (x32);
      memcpy (&f, &x32, 4);
      out->v.f = f;
      break;
    case TTV_FLAT_LOAD_TEXT:
      out->v.string.str = (const char *) q;
      out->v.string.len = m->length;
      break;
    default:
      /* The plan wrote one of the above: no test of the range. */
      __builtin_unreachable ();
    }
}

/* @pos rounded up to a multiple of @align, a power of two (1: none), in
 * bits: for layouts a plan made, which checked their alignments. */
static inline guint64
ttv_align_up_pow2 (guint64 pos, guint align)
{
  return (pos + align - 1) & ~(guint64) (align - 1);
}

/* @pos rounded up to a multiple of @align (in bits; 0 and 1: no alignment).
 * Runs for every field: powers of two, the only alignments formats use,
 * avoid a division. */
static inline guint64
ttv_align_up (guint64 pos, guint align)
{
  if (align <= 1)
    return pos;
  if ((align & (align - 1)) == 0)
    return ttv_align_up_pow2 (pos, align);
  return (pos + align - 1) / align * align;
}

/* @type's sequential layout (owned by the type), or NULL when it has none
 * (among them every struct with a flat layout). */
const TtvSeqLayout *ttv_type_get_seq_layout (const TtvType *type);

/* Member @sm of a sequential struct at bit *@at of @data (@bits long):
 * where its bytes start, *@at then past it (a string past its NUL), the
 * elements of an array into *@n (its length from @counts, which the loads
 * of the lengths before it filled: ttv_seq_member_load); NULL when the
 * bytes are too few, a string has no end or an array is too long, where
 * the decoder fails too (or, past TTV_SEQ_MAX_ELEMENTS, may not). */
static G_ALWAYS_INLINE inline const guint8 *
ttv_seq_member_skip (const TtvSeqMember *sm, const guint8 *data, guint64 bits, guint64 *at,
                     const guint64 *counts, guint64 *n)
{
  guint64 p = ttv_align_up_pow2 (*at, sm->align_bits);
  if (sm->array)
    {
      guint64 count = sm->count == TTV_SEQ_NO_COUNT ? sm->length : counts[sm->count];
      /* As the decoder: no elements, no bytes to check (their alignment
       * may pass the end); a division first, as a corrupt length may
       * overflow a product. */
      if (G_UNLIKELY (count > TTV_SEQ_MAX_ELEMENTS
                      || (count > 0 && (p > bits || (bits - p) / sm->size_bits < count))))
        return NULL;
      *n = count;
      *at = p + count * sm->size_bits;
      return data + MIN (p, bits) / 8;
    }
  if (G_UNLIKELY (p > bits))
    return NULL;
  const guint8 *base = data + p / 8;
  if (sm->string)
    {
      const guint8 *nul = memchr (base, '\0', (bits - p) / 8);
      if (G_UNLIKELY (nul == NULL))
        return NULL;
      *at = p + ((guint64) (nul - base) + 1) * 8;
      return base;
    }
  if (G_UNLIKELY (bits - p < sm->size_bits))
    return NULL;
  *at = p + sm->size_bits;
  return base;
}

/* Member @sm as ttv_seq_member_skip () steps past it, its value into
 * @out's: a string's bytes up to the NUL; an array's elements, as a view
 * (v.string.str their bytes, v.string.len how many: element i loads by
 * ttv_seq_element_load); and a length's into @counts too. */
static G_ALWAYS_INLINE inline gboolean
ttv_seq_member_load (const TtvSeqMember *sm, const guint8 *data, guint64 bits, guint64 *at, guint64 *counts,
                     TtvValue *out)
{
  guint64 n = 0;
  const guint8 *base = ttv_seq_member_skip (sm, data, bits, at, counts, &n);
  if (G_UNLIKELY (base == NULL))
    return FALSE;
  if (sm->string)
    {
      out->v.string.str = (const char *) base;
      out->v.string.len = (guint32) (data + *at / 8 - base - 1);
    }
  else if (sm->array)
    {
      out->v.string.str = (const char *) base;
      out->v.string.len = (guint32) n;
    }
  else
    {
      ttv_flat_member_load (&sm->load, base, out);
      if (sm->keep != TTV_SEQ_NO_COUNT)
        counts[sm->keep] = out->v.u;
    }
  return TRUE;
}

/* Element @i of array member @sm whose value @array ttv_seq_member_load
 * gave, into @out's value. */
static G_ALWAYS_INLINE inline void
ttv_seq_element_load (const TtvSeqMember *sm, const TtvValue *array, guint32 i, TtvValue *out)
{
  const guint8 *elements = (const guint8 *) array->v.string.str;
  ttv_flat_member_load (&sm->load, elements + (gsize) i * (sm->size_bits / 8), out);
}

/* Where a struct of sequential layout @seq that starts at bit @at of
 * @data (@bits long) ends, into *@end; FALSE where the decoder fails. */
static G_ALWAYS_INLINE inline gboolean
ttv_seq_layout_skip (const TtvSeqLayout *seq, const guint8 *data, guint64 bits, guint64 at, guint64 *end)
{
  guint64 counts[TTV_SEQ_MAX_COUNTS];
  at = ttv_align_up_pow2 (at, seq->align_bits);
  for (guint i = 0; i < seq->n_members; i++)
    {
      const TtvSeqMember *sm = &seq->members[i];
      if (sm->keep != TTV_SEQ_NO_COUNT)
        {
          TtvValue v;
          if (G_UNLIKELY (!ttv_seq_member_load (sm, data, bits, &at, counts, &v)))
            return FALSE;
          continue;
        }
      guint64 n;
      if (G_UNLIKELY (ttv_seq_member_skip (sm, data, bits, &at, counts, &n) == NULL))
        return FALSE;
    }
  *end = at;
  return TRUE;
}

/* Whether values of @type decode by a compiled plan, which needs no other
 * scope than its own (else by the walk of its tree, which may look names
 * up in the scopes decoded before). */
gboolean    ttv_decoder_has_plan (const TtvType *type);
/* Advances *bit_pos past a value of @type by its compiled plan, with no
 * decoder: ttv_decoder_skip's way for a type with a plan.  FALSE, *bit_pos
 * unchanged, when the type has no plan or the value does not fit (the
 * decoder then finds the error). */
gboolean    ttv_type_skip_by_plan (const TtvType *type, const guint8 *buf, guint64 buf_bits,
                                   guint64 *bit_pos);
/* Advances *bit_pos past a value without keeping it (fast for fixed sizes). */
gboolean    ttv_decoder_skip (TtvDecoder *decoder, const TtvType *type,
                              const guint8 *buf, guint64 buf_bits, guint64 *bit_pos,
                              GError **error);

const TtvValue *ttv_decoder_get (const TtvDecoder *decoder, guint32 index);
/* The children of a compound node, contiguous (first_child .. + n_children). */
const TtvValue *ttv_decoder_get_children (const TtvDecoder *decoder, const TtvValue *compound);
/* Elements of an array or sequence node (its children, or a text array's bytes). */
guint32     ttv_value_get_n_elements (const TtvValue *array);
/* Element @i (< ttv_value_get_n_elements) of an array or sequence node: its
 * child node, or for a text array a node made in @scratch. */
const TtvValue *ttv_decoder_get_element (const TtvDecoder *decoder, const TtvValue *array, guint32 i,
                                         TtvValue *scratch);
/* Child of a compound node by field name, or NULL. */
const TtvValue *ttv_decoder_get_field (const TtvDecoder *decoder, const TtvValue *compound,
                                       const char *name);
/* Numeric view of an integer, enum or float node (FALSE for others). */
gboolean    ttv_value_get_int (const TtvValue *value, gint64 *out);
gboolean    ttv_value_get_uint (const TtvValue *value, guint64 *out);

/* The text of a string node, or of an array of 8-bit integers up to its
 * first NUL (CTF's "char procname[17]"), into @out (always terminated,
 * cut to @size - 1 bytes); FALSE, @out "", for any other node. */
gboolean    ttv_decoder_copy_text (const TtvDecoder *decoder, const TtvValue *value, char *out, gsize size);

typedef enum {
  TTV_VALUE_STYLE_PLAIN,    /* name = value, arrays [ ... ], structs { ... } */
  TTV_VALUE_STYLE_JSON,     /* a JSON value */
} TtvValueStyle;

/* Appends the value of node @index (a struct prints its members). */
void        ttv_decoder_append_value (const TtvDecoder *decoder, guint32 index,
                                      TtvValueStyle style, GString *out);
/* The same for a node of the decoder, or one made by ttv_decoder_get_element. */
void        ttv_decoder_append_node (const TtvDecoder *decoder, const TtvValue *value,
                                     TtvValueStyle style, GString *out);
/* Whether the TTV_VALUE_STYLE_PLAIN text of a value of @type (a struct's
 * members, as ttv_decoder_append_value writes them at the top) can hold
 * @needle, ignoring ASCII case: FALSE only when one of its characters is in
 * none of the texts such a value can have (names, labels, numbers,
 * punctuation) and no string in it could hold it.  Lets a search skip the
 * formatting of events that cannot match. */
gboolean    ttv_type_plain_text_may_contain (const TtvType *type, const char *needle);

/* Reads an integer of @size_bits at @bit_pos (no bounds check: callers have
 * checked bit_pos + size_bits <= buffer bits). Exposed for readers' fast
 * paths over event headers. */
guint64     ttv_read_bits (const guint8 *buf, guint64 bit_pos, guint size_bits, TtvByteOrder order);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvDecoder, ttv_decoder_free)

G_END_DECLS

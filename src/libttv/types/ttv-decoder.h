/* ttv-decoder.h: decodes bytes described by a TtvType into a tree of values.
 * One decoder for every format; readers own one per cursor and reuse it, so
 * decoding an event allocates nothing once the node array has grown. */
#pragma once

#include "ttv-type.h"

G_BEGIN_DECLS

/* One decoded node.  Children of a compound are contiguous in the decoder's
 * node array: first_child .. first_child + n_children - 1. */
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
      const char *str;      /* weak: points into the decoded buffer, NUL-terminated */
      guint32 len;
    } string;
  } v;
} TtvValue;

typedef struct _TtvDecoder TtvDecoder;

TtvDecoder *ttv_decoder_new (void);
void        ttv_decoder_free (TtvDecoder *decoder);
/* Forgets every node and scope; call before each event. */
void        ttv_decoder_reset (TtvDecoder *decoder);

/* Decodes one value of @type from @buf (buf_bits long) at *bit_pos, which
 * advances past it; alignment is relative to @buf.  When @scope_name is set
 * (such as "event.fields" or "stream.packet.context"), the result becomes a
 * root that later references can name with that prefix.  Returns the node
 * index, or -1 with @error set (offsets in the message are in bytes from
 * @buf; readers prefix the file name). */
gint32      ttv_decoder_decode (TtvDecoder *decoder, const TtvType *type, const char *scope_name,
                                const guint8 *buf, guint64 buf_bits, guint64 *bit_pos,
                                GError **error);
/* Advances *bit_pos past a value without keeping it (fast for fixed sizes). */
gboolean    ttv_decoder_skip (TtvDecoder *decoder, const TtvType *type,
                              const guint8 *buf, guint64 buf_bits, guint64 *bit_pos,
                              GError **error);

const TtvValue *ttv_decoder_get (const TtvDecoder *decoder, guint32 index);
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

/* @pos rounded up to a multiple of @align (in bits; 0 and 1: no alignment).
 * Runs for every field: powers of two, the only alignments formats use,
 * avoid a division. */
static inline guint64
ttv_align_up (guint64 pos, guint align)
{
  if (align <= 1)
    return pos;
  if ((align & (align - 1)) == 0)
    return (pos + align - 1) & ~(guint64) (align - 1);
  return (pos + align - 1) / align * align;
}

/* Reads an integer of @size_bits at @bit_pos (no bounds check: callers have
 * checked bit_pos + size_bits <= buffer bits). Exposed for readers' fast
 * paths over event headers. */
guint64     ttv_read_bits (const guint8 *buf, guint64 bit_pos, guint size_bits, TtvByteOrder order);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvDecoder, ttv_decoder_free)

G_END_DECLS

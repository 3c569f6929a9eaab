/* ttv-encoder.h: encodes values into bytes described by a TtvType (the inverse
 * of ttv-decoder.h).  Used by the trace writers (LTT, and later CTF, LTTng). */
#pragma once

#include "ttv-type.h"

G_BEGIN_DECLS

/* One value to encode: kind is TTV_TYPE_INTEGER (also for enums, sequence
 * lengths and variant option indexes), TTV_TYPE_FLOAT or TTV_TYPE_STRING. */
typedef struct {
  TtvTypeKind kind;
  union {
    guint64 u;
    gint64 s;
    double f;
    const char *str;   /* weak */
  };
} TtvScalar;

#define TTV_SCALAR_UINT(x) ((TtvScalar) { .kind = TTV_TYPE_INTEGER, .u = (guint64) (x) })
#define TTV_SCALAR_INT(x)  ((TtvScalar) { .kind = TTV_TYPE_INTEGER, .s = (gint64) (x) })
#define TTV_SCALAR_FLOAT(x) ((TtvScalar) { .kind = TTV_TYPE_FLOAT, .f = (x) })
#define TTV_SCALAR_STRING(x) ((TtvScalar) { .kind = TTV_TYPE_STRING, .str = (x) })

/* Appends @type's encoding to @buf (alignment relative to the start of @buf,
 * padding with zero bytes), taking scalars in type-walk order: one per
 * integer/enum/float/string; an array's elements in turn; a sequence takes
 * one scalar for its element count (written into its prefix integer when it
 * has one) then the elements; a variant one scalar for the option index
 * (written into its prefix when it has one) then the option; a struct its
 * members in order.  Byte-aligned integers of 8/16/32/64 bits and floats of
 * 32/64 bits.  Returns FALSE with @error (TTV_USAGE_ERROR_BAD_ARGUMENT) if
 * the values do not fit the type (wrong kind, too few values, integer out of
 * range for its size); @buf may then hold a partial encoding.  @n_consumed
 * (may be NULL) receives the number of scalars used. */
gboolean ttv_encode (GByteArray *buf, const TtvType *type, const TtvScalar *values,
                     guint n_values, guint *n_consumed, GError **error);

G_END_DECLS

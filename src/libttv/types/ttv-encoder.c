/* ttv-encoder.c: the inverse of the decoder for byte-aligned types.
 * Trace writers call ttv_encode() once per event payload; it allocates nothing. */
#include "ttv-encoder.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <string.h>

typedef struct {
  GByteArray *buf;
  const TtvScalar *values;
  guint n_values;
  guint next;
  guint depth;
} Encoder;

static gboolean
bad (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
bad (GError **error, const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  char *msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error_literal (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT, msg);
  g_free (msg);
  return FALSE;
}

static void
pad_to (GByteArray *buf, guint align_bits)
{
  guint align = align_bits >= 8 ? align_bits / 8 : 1;
  if (align <= 1)
    return;
  guint len = buf->len;
  guint padded = (len + align - 1) / align * align;
  if (padded != len)
    {
      g_byte_array_set_size (buf, padded);
      memset (buf->data + len, 0, padded - len);
    }
}

static void
put_uint (GByteArray *buf, guint64 v, guint bytes, TtvByteOrder order)
{
  guint8 tmp[8];
  for (guint i = 0; i < bytes; i++)
    {
      guint shift = order == TTV_BYTE_ORDER_LITTLE ? i * 8 : (bytes - 1 - i) * 8;
      tmp[i] = (guint8) (v >> shift);
    }
  g_byte_array_append (buf, tmp, bytes);
}

static const TtvScalar *
take (Encoder *e, const TtvType *t, TtvTypeKind want, GError **error)
{
  if (e->next >= e->n_values)
    {
      bad (error, _("Too few values: a %s needs value number %u"), ttv_type_kind_name (t->kind),
           e->next + 1);
      return NULL;
    }
  const TtvScalar *v = &e->values[e->next];
  if (v->kind != want)
    {
      bad (error, _("Value number %u is a %s, the type needs a %s"), e->next + 1,
           ttv_type_kind_name (v->kind), ttv_type_kind_name (want));
      return NULL;
    }
  e->next++;
  return v;
}

/* Writes an integer of type @t (INTEGER or ENUM, or a prefix). */
static gboolean
encode_integer (Encoder *e, const TtvType *t, const TtvScalar *v, GError **error)
{
  guint bits = t->size_bits;
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return bad (error, _("Cannot encode an integer of %u bits (only 8, 16, 32, 64)"), bits);
  if (bits < 64)
    {
      if (t->is_signed)
        {
          gint64 lim = G_GINT64_CONSTANT (1) << (bits - 1);
          if (v->s < -lim || v->s >= lim)
            return bad (error, _("Value %" PRId64 " does not fit a signed integer of %u bits"),
                        v->s, bits);
        }
      else if (v->u >> bits)
        return bad (error, _("Value %" PRIu64 " does not fit an unsigned integer of %u bits"),
                    v->u, bits);
    }
  pad_to (e->buf, t->align_bits);
  put_uint (e->buf, v->u, bits / 8, t->byte_order);
  return TRUE;
}

/* The fewest scalars one value of @t takes (guards hostile sequence lengths). */
static guint64
min_scalars (const TtvType *t, guint depth)
{
  if (depth > 64)
    return 1;
  switch (t->kind)
    {
    case TTV_TYPE_ARRAY:
      {
        guint64 m = min_scalars (t->element, depth + 1);
        return m && t->length > G_MAXUINT32 / m ? G_MAXUINT32 : m * t->length;
      }
    case TTV_TYPE_STRUCT:
      {
        guint64 sum = 0;
        for (guint i = 0; i < t->fields->len; i++)
          sum += min_scalars (((const TtvField *) g_ptr_array_index (t->fields, i))->type, depth + 1);
        return MIN (sum, G_MAXUINT32);
      }
    default:
      return 1;
    }
}

static gboolean
encode (Encoder *e, const TtvType *t, GError **error)
{
  if (++e->depth > 64)
    return bad (error, _("Types nested too deeply"));
  gboolean ok = TRUE;
  const TtvScalar *v;
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
    case TTV_TYPE_ENUM:
      ok = (v = take (e, t, TTV_TYPE_INTEGER, error)) && encode_integer (e, t, v, error);
      break;
    case TTV_TYPE_FLOAT:
      if (!(v = take (e, t, TTV_TYPE_FLOAT, error)))
        ok = FALSE;
      else if (t->size_bits == 32)
        {
          float f = (float) v->f;
          guint32 raw;
          memcpy (&raw, &f, 4);
          pad_to (e->buf, t->align_bits);
          put_uint (e->buf, raw, 4, t->byte_order);
        }
      else if (t->size_bits == 64)
        {
          guint64 raw;
          memcpy (&raw, &v->f, 8);
          pad_to (e->buf, t->align_bits);
          put_uint (e->buf, raw, 8, t->byte_order);
        }
      else
        ok = bad (error, _("Cannot encode a float of %u bits"), t->size_bits);
      break;
    case TTV_TYPE_STRING:
      if (!(v = take (e, t, TTV_TYPE_STRING, error)))
        ok = FALSE;
      else
        {
          const char *s = v->str ? v->str : "";
          g_byte_array_append (e->buf, (const guint8 *) s, (guint) strlen (s) + 1);
        }
      break;
    case TTV_TYPE_ARRAY:
      pad_to (e->buf, t->element->align_bits);
      for (guint64 i = 0; ok && i < t->length; i++)
        ok = encode (e, t->element, error);
      break;
    case TTV_TYPE_SEQUENCE:
      if (!(v = take (e, t, TTV_TYPE_INTEGER, error)))
        ok = FALSE;
      else
        {
          guint64 n = v->u;
          if (t->prefix)
            ok = encode_integer (e, t->prefix, v, error);
          guint64 per = min_scalars (t->element, 0);
          if (ok && n > 0 && (per ? n > (e->n_values - e->next) / per : n > (1u << 24)))
            ok = bad (error, _("Too few values for a sequence of %" PRIu64 " elements"), n);
          if (ok)
            pad_to (e->buf, t->element->align_bits);
          for (guint64 i = 0; ok && i < n; i++)
            ok = encode (e, t->element, error);
        }
      break;
    case TTV_TYPE_STRUCT:
      pad_to (e->buf, t->align_bits);
      for (guint i = 0; ok && i < t->fields->len; i++)
        ok = encode (e, ((const TtvField *) g_ptr_array_index (t->fields, i))->type, error);
      break;
    case TTV_TYPE_VARIANT:
      if (!(v = take (e, t, TTV_TYPE_INTEGER, error)))
        ok = FALSE;
      else if (v->u >= t->fields->len)
        ok = bad (error, _("Variant option %" PRIu64 " does not exist (%u options)"),
                  v->u, t->fields->len);
      else
        {
          if (t->prefix)
            ok = encode_integer (e, t->prefix, v, error);
          if (ok)
            ok = encode (e, ((const TtvField *) g_ptr_array_index (t->fields, (guint) v->u))->type,
                         error);
        }
      break;
    }
  e->depth--;
  return ok;
}

gboolean
ttv_encode (GByteArray *buf, const TtvType *type, const TtvScalar *values, guint n_values,
            guint *n_consumed, GError **error)
{
  g_return_val_if_fail (buf != NULL && type != NULL, FALSE);
  g_return_val_if_fail (values != NULL || n_values == 0, FALSE);
  Encoder e = { buf, values, n_values, 0, 0 };
  gboolean ok = encode (&e, type, error);
  if (n_consumed)
    *n_consumed = e.next;
  return ok;
}

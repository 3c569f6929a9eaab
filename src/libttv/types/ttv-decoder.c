/* ttv-decoder.c: the one decoder of the common type system (see ttv-decoder.h).
 * Bit-level reads cover CTF; LTT and LTTng 0.x are the byte-aligned case. */
#include "ttv-decoder.h"
#include "ttv-decode-plan.h"
#include "ttv-error.h"
#include "ttv-json-out.h"
#include "ttv-text.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

static void memo_table_new (TtvDecoder *d, guint slots);

TtvDecoder *
ttv_decoder_new (void)
{
  TtvDecoder *d = g_new0 (TtvDecoder, 1);
  d->cap = 64;
  d->nodes = g_new (TtvValue, d->cap);
  d->scopes_cap = 8;
  d->scopes = g_new (TtvDecoderScope, d->scopes_cap);
  d->open_cap = 16;
  d->open = g_new (guint32, d->open_cap * 2);
  d->arena = g_string_chunk_new (256);
  memo_table_new (d, TTV_DECODER_MEMO_SLOTS);
  return d;
}

void
ttv_decoder_free (TtvDecoder *d)
{
  if (d == NULL)
    return;
  g_free (d->nodes);
  g_free (d->scopes);
  g_free (d->open);
  g_string_chunk_free (d->arena);
  for (guint i = 0; i <= d->memo_mask; i++)
    g_free (d->memo[i].nodes);
  g_free (d->memo);
  g_free (d->context_memo);
  g_free (d);
}

/* Rare (strings the bytes do not hold as UTF-8), and out of line: the
 * functions that reset keep the call off their straight line. */
static G_NO_INLINE __attribute__ ((cold)) void
arena_clear (TtvDecoder *d)
{
  g_string_chunk_clear (d->arena);
  d->arena_used = FALSE;
}

/* Inline: ttv_decoder_decode_first_memo starts with it. */
static inline void
decoder_reset (TtvDecoder *d)
{
  d->n_nodes = d->resident_n;
  d->n_open = 0;
  d->n_scopes = 0;
  d->depth = 0;
  if (G_UNLIKELY (d->arena_used))
    arena_clear (d);
}

void
ttv_decoder_reset (TtvDecoder *d)
{
  decoder_reset (d);
}

void
ttv_decoder_grow (TtvDecoder *d, guint32 n)
{
  guint64 want = (guint64) d->n_nodes + n;
  guint64 cap = MAX ((guint64) d->cap, 64);
  while (cap < want)
    cap *= 2;
  d->cap = (guint32) MIN (cap, (guint64) TTV_DECODER_MAX_NODES + 1);
  d->nodes = g_renew (TtvValue, d->nodes, d->cap);
}

const TtvValue *
ttv_decoder_get (const TtvDecoder *d, guint32 index)
{
  g_return_val_if_fail (index < d->n_nodes, NULL);
  return &d->nodes[index];
}

const TtvValue *
ttv_decoder_get_children (const TtvDecoder *d, const TtvValue *compound)
{
  g_return_val_if_fail ((guint64) compound->first_child + compound->n_children <= d->n_nodes, NULL);
  return &d->nodes[compound->first_child];
}

guint32
ttv_value_get_n_elements (const TtvValue *v)
{
  if (v->type->kind != TTV_TYPE_ARRAY && v->type->kind != TTV_TYPE_SEQUENCE)
    return 0;
  return ttv_type_is_text_array (v->type) ? v->v.string.len : v->n_children;
}

const TtvValue *
ttv_decoder_get_element (const TtvDecoder *d, const TtvValue *array, guint32 i, TtvValue *scratch)
{
  g_return_val_if_fail (i < ttv_value_get_n_elements (array), NULL);
  if (!ttv_type_is_text_array (array->type))
    return ttv_decoder_get (d, array->first_child + i);
  memset (scratch, 0, sizeof *scratch);
  scratch->type = array->type->element;
  scratch->v.u = (guint8) array->v.string.str[i];
  return scratch;
}

const TtvValue *
ttv_decoder_get_field (const TtvDecoder *d, const TtvValue *compound, const char *name)
{
  for (guint32 i = 0; i < compound->n_children; i++)
    {
      const TtvValue *c = &d->nodes[compound->first_child + i];
      if (c->name && strcmp (c->name, name) == 0)
        return c;
    }
  return NULL;
}

gboolean
ttv_value_get_int (const TtvValue *v, gint64 *out)
{
  switch (v->type->kind)
    {
    case TTV_TYPE_INTEGER:
    case TTV_TYPE_ENUM:
      *out = v->type->is_signed ? v->v.s : (gint64) v->v.u;
      return TRUE;
    case TTV_TYPE_FLOAT:
      *out = (gint64) v->v.f;
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
ttv_value_get_uint (const TtvValue *v, guint64 *out)
{
  gint64 s;
  if (!ttv_value_get_int (v, &s))
    return FALSE;
  *out = (guint64) s;
  return TRUE;
}

gboolean
ttv_decoder_copy_text (const TtvDecoder *decoder, const TtvValue *v, char *out, gsize size)
{
  g_return_val_if_fail (size > 0, FALSE);
  out[0] = '\0';
  if (v->type->kind == TTV_TYPE_STRING)
    {
      g_strlcpy (out, v->v.string.str, size);
      return TRUE;
    }
  if (v->type->kind != TTV_TYPE_ARRAY && v->type->kind != TTV_TYPE_SEQUENCE)
    return FALSE;
  if (v->type->element->kind != TTV_TYPE_INTEGER || v->type->element->size_bits != 8)
    return FALSE;
  /* A text array is one node viewing its bytes: its elements, not children. */
  gsize n = MIN ((gsize) ttv_value_get_n_elements (v), size - 1), i;
  for (i = 0; i < n; i++)
    {
      TtvValue scratch;
      char c = (char) (guint8) ttv_decoder_get_element (decoder, v, (guint32) i, &scratch)->v.u;
      if (c == '\0')
        break;
      out[i] = c;
    }
  out[i] = '\0';
  return TRUE;
}

guint64
ttv_read_bits (const guint8 *buf, guint64 bit_pos, guint size, TtvByteOrder order)
{
  if ((bit_pos & 7) == 0 && (size & 7) == 0)
    {
      const guint8 *p = buf + (bit_pos >> 3);
      guint64 v = 0;
      switch (size)
        {
        case 8:
          return p[0];
        case 16:
          {
            guint16 x;
            memcpy (&x, p, 2);
            return order == TTV_BYTE_ORDER_LITTLE ? GUINT16_FROM_LE (x) : GUINT16_FROM_BE (x);
          }
        case 32:
          {
            guint32 x;
            memcpy (&x, p, 4);
            return order == TTV_BYTE_ORDER_LITTLE ? GUINT32_FROM_LE (x) : GUINT32_FROM_BE (x);
          }
        case 64:
          memcpy (&v, p, 8);
          return order == TTV_BYTE_ORDER_LITTLE ? GUINT64_FROM_LE (v) : GUINT64_FROM_BE (v);
        default:
          break;
        }
    }
  guint64 first = bit_pos >> 3;
  guint64 last = (bit_pos + size - 1) >> 3;
  guint shift = (guint) (bit_pos & 7);
  if (last - first < 8)
    {
      /* Bit fields (CTF event headers: a 5-bit id and a 27-bit timestamp)
       * mostly span a few bytes: gather them in 64 bits. */
      guint64 acc = 0;
      const guint8 *p = buf + first;
      guint n = (guint) (last - first + 1);
      if (order == TTV_BYTE_ORDER_LITTLE)
        {
          for (guint i = n; i-- > 0;)
            acc = (acc << 8) | p[i];
          acc >>= shift;
        }
      else
        {
          for (guint i = 0; i < n; i++)
            acc = (acc << 8) | p[i];
          acc >>= (8 - ((bit_pos + size) & 7)) & 7;
        }
      return size < 64 ? acc & ((G_GUINT64_CONSTANT (1) << size) - 1) : acc;
    }
  /* Nine bytes: a 64-bit field that does not start on a byte. */
  unsigned __int128 acc = 0;
  if (order == TTV_BYTE_ORDER_LITTLE)
    {
      for (guint64 i = last + 1; i-- > first;)
        acc = (acc << 8) | buf[i];
      acc >>= (bit_pos & 7);
    }
  else
    {
      for (guint64 i = first; i <= last; i++)
        acc = (acc << 8) | buf[i];
      guint trailing = (guint) ((8 - ((bit_pos + size) & 7)) & 7);
      acc >>= trailing;
    }
  if (size < 64)
    acc &= (((unsigned __int128) 1) << size) - 1;
  return (guint64) acc;
}

static gboolean
set_error_at (GError **error, gint code, guint64 bit_pos, const char *what)
{
  g_set_error (error, TTV_FORMAT_ERROR, code, _("%s at byte offset %" PRIu64),
               what, bit_pos / 8);
  return FALSE;
}

static guint32
alloc_nodes (TtvDecoder *d, guint32 n)
{
  return ttv_decoder_alloc (d, n, NULL);
}

/* A reference split into its dot-separated names, without allocating:
 * this runs for every sequence and variant of every event. */
#define MAX_REF_PARTS 16

typedef struct {
  const char *name[MAX_REF_PARTS];
  guint len[MAX_REF_PARTS];
  guint n;
} RefPath;

static gboolean
ref_path_split (const char *ref, RefPath *path)
{
  path->n = 0;
  for (const char *p = ref;;)
    {
      const char *dot = strchr (p, '.');
      guint len = dot ? (guint) (dot - p) : (guint) strlen (p);
      if (path->n == MAX_REF_PARTS)
        return FALSE;
      path->name[path->n] = p;
      path->len[path->n++] = len;
      if (dot == NULL)
        return TRUE;
      p = dot + 1;
    }
}

static gboolean
name_is (const char *name, const RefPath *path, guint i)
{
  return name && strncmp (name, path->name[i], path->len[i]) == 0 && name[path->len[i]] == '\0';
}

static const TtvValue *
child_named (const TtvDecoder *d, const TtvValue *compound, guint32 filled, const RefPath *path, guint i)
{
  const TtvValue *hit = NULL;
  for (guint32 c = 0; c < filled && c < compound->n_children; c++)
    {
      const TtvValue *v = &d->nodes[compound->first_child + c];
      if (name_is (v->name, path, i))
        hit = v;
    }
  return hit;
}

/* The element being decoded of array @node when it is open (-1: none). */
static gint64
open_element (const TtvDecoder *d, const TtvValue *node)
{
  for (guint i = d->n_open; i-- > 0;)
    {
      const guint32 *pair = &d->open[i * 2];
      if (&d->nodes[pair[0]] == node)
        return pair[1] < node->n_children ? (gint64) pair[1] : -1;
    }
  return -1;
}

/* How many children of @node are decoded: all of them unless it is open. */
static guint32
decoded_children (const TtvDecoder *d, guint32 node)
{
  for (guint i = d->n_open; i-- > 0;)
    {
      const guint32 *pair = &d->open[i * 2];
      if (pair[0] == node)
        return pair[1];
    }
  return d->nodes[node].n_children;
}

/* Through a variant to its option, and through an array being decoded to
 * the element being decoded (CTF 2 field locations).  A text array is a
 * view without children, never open: nothing is found in it. */
static const TtvValue *
step_into (const TtvDecoder *d, const TtvValue *v)
{
  while (v)
    {
      if (v->type->kind == TTV_TYPE_VARIANT && v->n_children == 1)
        v = &d->nodes[v->first_child];
      else if (v->type->kind == TTV_TYPE_ARRAY || v->type->kind == TTV_TYPE_SEQUENCE)
        {
          gint64 e = open_element (d, v);
          v = e < 0 ? NULL : &d->nodes[v->first_child + (guint32) e];
        }
      else
        break;
    }
  return v;
}

/* Looks @path (from component @first) up below @node, whose first @filled
 * children are decoded. */
static const TtvValue *
find_in_node (const TtvDecoder *d, guint32 node, guint32 filled, const RefPath *path, guint first)
{
  const TtvValue *hit = child_named (d, &d->nodes[node], filled, path, first);
  for (guint i = first + 1; hit && i < path->n; i++)
    {
      hit = step_into (d, hit);
      hit = hit ? child_named (d, hit, hit->n_children, path, i) : NULL;
    }
  return hit;
}

/* The value a length or selector names, through the variant it may be. */
static const TtvValue *
resolve_value (const TtvValue *v, const TtvDecoder *d)
{
  while (v && v->type->kind == TTV_TYPE_VARIANT && v->n_children == 1)
    v = &d->nodes[v->first_child];
  return v;
}

/* CTF 2 location climbing @climb structures: only the structure that many
 * above the innermost one being decoded is searched. */
static const TtvValue *
resolve_climbing (const TtvDecoder *d, guint climb, const RefPath *path)
{
  guint seen = 0;
  for (guint i = d->n_open; i-- > 0;)
    {
      const guint32 *pair = &d->open[i * 2];
      if (d->nodes[pair[0]].type->kind != TTV_TYPE_STRUCT)
        continue;
      if (seen++ == climb)
        return find_in_node (d, pair[0], pair[1], path, 0);
    }
  return NULL;
}

/* Finds the integer a sequence length or variant tag refers to. */
static const TtvValue *
resolve_ref (const TtvDecoder *d, const char *ref)
{
  guint climb = 0;
  while (*ref == '^')
    {
      climb++;
      ref++;
    }
  RefPath path;
  if (!ref_path_split (ref, &path))
    return NULL;
  if (climb)
    return resolve_value (resolve_climbing (d, climb, &path), d);

  /* Absolute: "<scope>.<path>", longest registered scope prefix first. */
  const TtvDecoderScope *best = NULL;
  gsize best_len = 0;
  for (guint i = 0; i < d->n_scopes; i++)
    {
      const TtvDecoderScope *s = &d->scopes[i];
      gsize n = strlen (s->name);
      if (n > best_len && strncmp (ref, s->name, n) == 0 && ref[n] == '.')
        {
          best = s;
          best_len = n;
        }
    }
  if (best)
    {
      /* Skip the components that make up the scope name. */
      guint first = 0;
      while (first < path.n && path.name[first] < ref + best_len)
        first++;
      /* The scope may be the one being decoded (a reference to an earlier
       * member of the same scope by its absolute path). */
      return first < path.n ? resolve_value (find_in_node (d, best->node, decoded_children (d, best->node),
                                                           &path, first), d)
                            : NULL;
    }

  /* Relative: enclosing compounds innermost first, then scope roots. */
  for (guint i = d->n_open; i-- > 0;)
    {
      const guint32 *pair = &d->open[i * 2];
      const TtvValue *hit = find_in_node (d, pair[0], pair[1], &path, 0);
      if (hit)
        return resolve_value (hit, d);
    }
  for (guint i = d->n_scopes; i-- > 0;)
    {
      const TtvDecoderScope *s = &d->scopes[i];
      const TtvValue *hit = find_in_node (d, s->node, decoded_children (d, s->node), &path, 0);
      if (hit)
        return resolve_value (hit, d);
    }
  return NULL;
}

static gboolean decode_into (TtvDecoder *d, const TtvType *t, guint32 node,
                             const guint8 *buf, guint64 buf_bits, guint64 *pos, GError **error);

/* LEB128 (CTF 2 variable-length integers): 7 bits a byte, least
 * significant first; bits past 64 are dropped. */
static gboolean
read_leb128 (const TtvType *t, const guint8 *buf, guint64 buf_bits, guint64 *pos,
             guint64 *out, GError **error)
{
  guint64 p = ttv_align_up (*pos, 8);
  guint64 v = 0;
  guint shift = 0;
  guint8 b;
  do
    {
      if (p > buf_bits || buf_bits - p < 8)
        return set_error_at (error, TTV_FORMAT_ERROR_TRUNCATED, p,
                             _("Data ends inside a variable-length integer"));
      b = buf[p >> 3];
      p += 8;
      if (shift < 64)
        v |= (guint64) (b & 0x7F) << shift;
      shift += 7;
    }
  while (b & 0x80);
  if (t->is_signed && shift < 64 && (b & 0x40))
    v |= ~(guint64) 0 << shift;
  *out = v;
  *pos = p;
  return TRUE;
}

static guint64
reverse_bits (guint64 v, guint n)
{
  guint64 r = 0;
  for (guint i = 0; i < n; i++, v >>= 1)
    r = (r << 1) | (v & 1);
  return r;
}

static gboolean
read_uint (const TtvType *t, const guint8 *buf, guint64 buf_bits, guint64 *pos,
           guint64 *out, GError **error)
{
  if (G_UNLIKELY (t->leb128))
    return read_leb128 (t, buf, buf_bits, pos, out, error);
  guint64 p = ttv_align_up (*pos, t->align_bits);
  if (p > buf_bits || buf_bits - p < t->size_bits)
    return set_error_at (error, TTV_FORMAT_ERROR_TRUNCATED, p,
                         _("Data ends inside an integer"));
  *out = ttv_read_bits (buf, p, t->size_bits, t->byte_order);
  if (G_UNLIKELY (t->reverse_bits))
    *out = reverse_bits (*out, t->size_bits);
  *pos = p + t->size_bits;
  return TRUE;
}

static gboolean
get_count (TtvDecoder *d, const TtvType *t, const guint8 *buf, guint64 buf_bits,
           guint64 *pos, guint64 *count, GError **error)
{
  if (t->prefix)
    return read_uint (t->prefix, buf, buf_bits, pos, count, error);
  const TtvValue *v = resolve_ref (d, t->ref);
  if (v == NULL || !ttv_value_get_uint (v, count))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                   _("Field “%s” named by a %s is not an integer decoded before it"),
                   t->ref, ttv_type_kind_name (t->kind));
      return FALSE;
    }
  return TRUE;
}

gint
ttv_decoder_variant_option (const TtvType *t, const TtvType *tag_type, guint64 tag)
{
  if (tag_type && tag_type->kind == TTV_TYPE_ENUM)
    {
      const char *label = ttv_type_enum_label (tag_type, tag);
      if (label == NULL)
        return -1;
      gint i = ttv_type_find_field (t, label);
      if (i < 0 && label[0] == '_')
        i = ttv_type_find_field (t, label + 1);
      return i;
    }
  return tag < t->fields->len ? (gint) tag : -1;
}

/* IEEE 754 binary16 to double. */
static double
half_to_double (guint16 h)
{
  guint e = (h >> 10) & 0x1F, m = h & 0x3FF;
  double v;
  if (e == 0)
    v = ldexp ((double) m, -24);
  else if (e == 31)
    v = m ? NAN : INFINITY;
  else
    v = ldexp ((double) (m | 0x400), (int) e - 25);
  return (h & 0x8000) ? -v : v;
}

static guint
encoding_unit (TtvEncoding e)
{
  switch (e)
    {
    case TTV_ENCODING_UTF16BE:
    case TTV_ENCODING_UTF16LE:
      return 2;
    case TTV_ENCODING_UTF32BE:
    case TTV_ENCODING_UTF32LE:
      return 4;
    default:
      return 1;
    }
}

/* UTF-16/32 code units to UTF-8 in the arena; bad units become U+FFFD. */
static const char *
units_to_utf8 (TtvDecoder *d, TtvEncoding enc, const guint8 *p, gsize units, guint32 *len)
{
  GString *tmp = g_string_sized_new (units + 1);
  gboolean big = enc == TTV_ENCODING_UTF16BE || enc == TTV_ENCODING_UTF32BE;
  guint unit = encoding_unit (enc);
  for (gsize i = 0; i < units; i++)
    {
      const guint8 *u = p + i * unit;
      gunichar c;
      if (unit == 4)
        c = big ? ((gunichar) u[0] << 24 | (gunichar) u[1] << 16 | (gunichar) u[2] << 8 | u[3])
                : ((gunichar) u[3] << 24 | (gunichar) u[2] << 16 | (gunichar) u[1] << 8 | u[0]);
      else
        {
          c = big ? ((gunichar) u[0] << 8 | u[1]) : ((gunichar) u[1] << 8 | u[0]);
          if (c >= 0xD800 && c <= 0xDBFF && i + 1 < units)
            {
              const guint8 *v = u + 2;
              gunichar lo = big ? ((gunichar) v[0] << 8 | v[1]) : ((gunichar) v[1] << 8 | v[0]);
              if (lo >= 0xDC00 && lo <= 0xDFFF)
                {
                  c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
                  i++;
                }
            }
        }
      if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        c = 0xFFFD;
      g_string_append_unichar (tmp, c);
    }
  *len = (guint32) tmp->len;
  const char *r = g_string_chunk_insert_len (d->arena, tmp->str, (gssize) tmp->len);
  d->arena_used = TRUE;
  g_string_free (tmp, TRUE);
  return r;
}

/* Number of whole code units before the first all-zero one, or @units. */
static gsize
units_before_nul (const guint8 *p, gsize units, guint unit)
{
  if (unit == 1)
    {
      const guint8 *nul = memchr (p, 0, units);
      return nul ? (gsize) (nul - p) : units;
    }
  for (gsize i = 0; i < units; i++)
    {
      gboolean zero = TRUE;
      for (guint k = 0; k < unit; k++)
        zero = zero && p[i * unit + k] == 0;
      if (zero)
        return i;
    }
  return units;
}

/* Strings: NUL-terminated, or of a static or dynamic number of bytes (CTF 2),
 * in UTF-8 or UTF-16/32.  The value is always NUL-terminated UTF-8: a view
 * into @buf when the bytes are that, else a copy in the arena. */
static gboolean
decode_string (TtvDecoder *d, const TtvType *t, TtvValue *self, const guint8 *buf,
               guint64 buf_bits, guint64 *pos, GError **error)
{
  guint unit = encoding_unit (t->encoding);
  guint64 p = ttv_align_up (*pos, 8);
  if (p > buf_bits)
    return set_error_at (error, TTV_FORMAT_ERROR_TRUNCATED, p, _("Data ends before a string"));
  const guint8 *s = buf + p / 8;
  guint64 avail = (buf_bits - p) / 8;
  gsize units, bytes;
  if (t->static_length || t->ref)
    {
      guint64 n = t->length;
      if (t->ref && !get_count (d, t, buf, buf_bits, pos, &n, error))
        return FALSE;
      if (n > avail)
        return set_error_at (error, TTV_FORMAT_ERROR_TRUNCATED, p, _("Data ends inside a string"));
      units = units_before_nul (s, (gsize) n / unit, unit);
      if (units == n / unit && n % unit)
        return set_error_at (error, TTV_FORMAT_ERROR_CORRUPT, p,
                             _("String length is not a whole number of code units"));
      bytes = (gsize) n;
    }
  else
    {
      units = units_before_nul (s, (gsize) (avail / unit), unit);
      if (units == avail / unit)
        return set_error_at (error, TTV_FORMAT_ERROR_TRUNCATED, p,
                             _("String has no terminating NUL before the end of the data"));
      bytes = (units + 1) * unit;
    }
  if (unit > 1)
    self->v.string.str = units_to_utf8 (d, t->encoding, s, units, &self->v.string.len);
  else if (units < bytes)
    {
      self->v.string.str = (const char *) s;   /* NUL-terminated in place */
      self->v.string.len = (guint32) units;
    }
  else
    {
      self->v.string.str = g_string_chunk_insert_len (d->arena, (const char *) s, (gssize) units);
      self->v.string.len = (guint32) units;
      d->arena_used = TRUE;
    }
  *pos = p + (guint64) bytes * 8;
  return TRUE;
}

static gboolean
decode_compound_children (TtvDecoder *d, const TtvType *t, guint32 node, guint32 n,
                          const TtvType *elem, const guint8 *buf, guint64 buf_bits,
                          guint64 *pos, GError **error)
{
  if (n > TTV_DECODER_MAX_NODES - d->n_nodes)
    return set_error_at (error, TTV_FORMAT_ERROR_CORRUPT, *pos,
                         _("Too many values in one event"));
  guint32 first = alloc_nodes (d, n);
  TtvValue *self = &d->nodes[node];
  self->first_child = first;
  self->n_children = n;
  if (d->n_open == d->open_cap)
    {
      d->open_cap *= 2;
      d->open = g_renew (guint32, d->open, d->open_cap * 2);
    }
  guint open_index = d->n_open++;
  d->open[open_index * 2] = node;
  d->open[open_index * 2 + 1] = 0;
  for (guint32 i = 0; i < n; i++)
    {
      const TtvType *ct = elem;
      const char *name = NULL;
      if (ct == NULL)
        {
          const TtvField *f = g_ptr_array_index (t->fields, i);
          ct = f->type;
          name = f->name;
        }
      TtvValue *c = &d->nodes[first + i];
      c->type = ct;
      c->name = name;
      if (!decode_into (d, ct, first + i, buf, buf_bits, pos, error))
        return FALSE;
      d->open[open_index * 2 + 1] = i + 1;
    }
  d->n_open = open_index;
  return TRUE;
}

static gboolean
decode_into (TtvDecoder *d, const TtvType *t, guint32 node,
             const guint8 *buf, guint64 buf_bits, guint64 *pos, GError **error)
{
  TtvValue *self = &d->nodes[node];
  self->type = t;
  if (++d->depth > TTV_DECODER_MAX_DEPTH)
    return set_error_at (error, TTV_FORMAT_ERROR_INVALID, *pos, _("Types nested too deeply"));

  gboolean ok = TRUE;
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
    case TTV_TYPE_ENUM:
      {
        guint64 raw;
        /* An enum's encoding (LEB128, bit order) is its container's. */
        ok = read_uint (t->container ? t->container : t, buf, buf_bits, pos, &raw, error);
        if (ok && t->is_signed && t->size_bits < 64 && (raw >> (t->size_bits - 1)) & 1)
          raw |= ~(guint64) 0 << t->size_bits;
        self->v.u = raw;
      }
      break;
    case TTV_TYPE_FLOAT:
      {
        guint64 raw;
        ok = read_uint (t, buf, buf_bits, pos, &raw, error);
        if (t->size_bits == 16)
          self->v.f = half_to_double ((guint16) raw);
        else if (t->size_bits == 32)
          {
            guint32 r32 = (guint32) raw;
            float f;
            memcpy (&f, &r32, 4);
            self->v.f = f;
          }
        else
          memcpy (&self->v.f, &raw, 8);
      }
      break;
    case TTV_TYPE_STRING:
      ok = decode_string (d, t, self, buf, buf_bits, pos, error);
      break;
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      {
        guint64 n = t->length;
        if (t->kind == TTV_TYPE_SEQUENCE && !get_count (d, t, buf, buf_bits, pos, &n, error))
          {
            ok = FALSE;
            break;
          }
        /* Each element takes at least one bit (a byte for strings): refuse
         * lengths the remaining data cannot hold before allocating. */
        guint64 min_bits = t->element->fixed_size_bits > 0 ? (guint64) t->element->fixed_size_bits
                           : t->element->kind == TTV_TYPE_STRING ? 8 : 1;
        guint64 left = buf_bits > *pos ? buf_bits - *pos : 0;
        if (n > left / min_bits && n > 0)
          {
            g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                         _("%s of %" PRIu64 " elements runs past the end of the data at byte offset %" PRIu64),
                         t->kind == TTV_TYPE_ARRAY ? _("Array") : _("Sequence"), n, *pos / 8);
            ok = FALSE;
            break;
          }
        *pos = ttv_align_up (*pos, t->element->align_bits);
        if (ttv_type_is_text_array (t))
          {
            /* Text: one node viewing the bytes. */
            if (*pos > buf_bits || (buf_bits - *pos) / 8 < n)
              {
                guint64 at = *pos + ((*pos > buf_bits ? 0 : (buf_bits - *pos) / 8) * 8);
                ok = set_error_at (error, TTV_FORMAT_ERROR_TRUNCATED, at, _("Data ends inside an integer"));
                break;
              }
            self->v.string.str = (const char *) buf + *pos / 8;
            self->v.string.len = (guint32) n;
            *pos += n * 8;
            break;
          }
        ok = decode_compound_children (d, t, node, (guint32) n, t->element, buf, buf_bits, pos, error);
      }
      break;
    case TTV_TYPE_STRUCT:
      *pos = ttv_align_up (*pos, t->align_bits);
      ok = decode_compound_children (d, t, node, t->fields->len, NULL, buf, buf_bits, pos, error);
      break;
    case TTV_TYPE_VARIANT:
      {
        guint64 tag;
        const TtvValue *tag_value = NULL;
        if (t->prefix)
          ok = read_uint (t->prefix, buf, buf_bits, pos, &tag, error);
        else
          {
            tag_value = resolve_ref (d, t->ref);
            ok = tag_value && ttv_value_get_uint (tag_value, &tag);
            if (!ok)
              g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_INVALID,
                           _("Variant tag “%s” is not an integer or enum decoded before it"), t->ref);
          }
        if (!ok)
          break;
        gint opt;
        if (t->option_ranges == NULL)
          opt = ttv_decoder_variant_option (t, tag_value ? tag_value->type : NULL, tag);
        else if (t->optional && tag_value && tag_value->type->int_kind == TTV_INT_BOOLEAN)
          opt = tag != 0 ? 0 : -1;
        else
          opt = ttv_type_select_option (t, tag, tag_value && tag_value->type->is_signed);
        if (opt < 0 && t->optional)
          {
            self->v.u = tag;    /* absent: no child */
            break;
          }
        if (opt < 0)
          {
            g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                         _("Variant tag value %" PRIu64 " selects no option at byte offset %" PRIu64),
                         tag, *pos / 8);
            ok = FALSE;
            break;
          }
        self->v.u = tag;
        guint32 child = alloc_nodes (d, 1);
        self = &d->nodes[node];
        self->first_child = child;
        self->n_children = 1;
        const TtvField *f = g_ptr_array_index (t->fields, opt);
        TtvValue *c = &d->nodes[child];
        c->type = f->type;
        c->name = f->name;
        ok = decode_into (d, f->type, child, buf, buf_bits, pos, error);
      }
      break;
    }
  d->depth--;
  return ok;
}

/* The walk of the type tree: the reference for what plans do, and what
 * decodes types that have no plan (and finds the exact error when a plan
 * fails). */
static gint32
decode_walk (TtvDecoder *d, const TtvType *type, guint32 root, const guint8 *buf, guint64 buf_bits,
             guint64 *bit_pos, GError **error)
{
  d->nodes[root].type = type;
  d->n_open = 0;
  d->depth = 0;
  if (!decode_into (d, type, root, buf, buf_bits, bit_pos, error))
    return -1;
  return (gint32) root;
}

void
ttv_decoder_grow_scopes (TtvDecoder *d)
{
  d->scopes_cap *= 2;
  d->scopes = g_renew (TtvDecoderScope, d->scopes, d->scopes_cap);
}

/* Without a plan, or when it fails, the walk (which finds what went wrong,
 * with its message). */
static G_NO_INLINE gint32
decode_slow (TtvDecoder *d, const TtvType *type, const char *scope_name, const guint8 *buf,
             guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  if (G_UNLIKELY (d->n_nodes >= TTV_DECODER_MAX_NODES))
    return set_error_at (error, TTV_FORMAT_ERROR_CORRUPT, *bit_pos, _("Too many values in one event")), -1;
  guint32 root = alloc_nodes (d, 1);
  /* Registered first: its own members may name earlier ones by path. */
  if (scope_name)
    ttv_decoder_add_scope (d, scope_name, root);
  if (decode_walk (d, type, root, buf, buf_bits, bit_pos, error) < 0)
    {
      if (scope_name)
        d->n_scopes--;
      return -1;
    }
  return (gint32) root;
}

/* ttv_decoder_decode of a type whose plan is not compiled yet: once per
 * type, out of the way so that the usual call keeps no frame. */
static G_NO_INLINE gint32
decode_compiling (TtvDecoder *d, const TtvType *type, const char *scope_name, const guint8 *buf,
                  guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  const TtvDecodePlan *plan = ttv_decode_plan_compile (type);
  if (plan != NULL)
    return ttv_decode_plan_decode (plan, d, scope_name, buf, buf_bits, bit_pos, error);
  return decode_slow (d, type, scope_name, buf, buf_bits, bit_pos, error);
}

gint32
ttv_decoder_decode (TtvDecoder *d, const TtvType *type, const char *scope_name,
                    const guint8 *buf, guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  /* Every call in tail position and none that returns here (the compile
   * is decode_compiling's): no frame of its own. */
  const TtvDecodePlan *plan = g_atomic_pointer_get ((TtvDecodePlan **) &type->plan);
  if (G_LIKELY (plan != NULL && plan != &ttv_decode_no_plan))
    return ttv_decode_plan_decode (plan, d, scope_name, buf, buf_bits, bit_pos, error);
  if (plan == NULL)
    return decode_compiling (d, type, scope_name, buf, buf_bits, bit_pos, error);
  return decode_slow (d, type, scope_name, buf, buf_bits, bit_pos, error);
}

static inline TtvDecoderMemo *
memo_slot (TtvDecoder *d, guint stream)
{
  return &d->memo[stream & d->memo_mask];
}

/* @slots empty memos (a power of two), and the resident nodes' limit that
 * goes with them: each memo's nodes, and room for new packets. */
static void
memo_table_new (TtvDecoder *d, guint slots)
{
  d->memo = g_new0 (TtvDecoderMemo, slots);
  d->context_memo = g_new0 (TtvDecoderMemo, slots);
  for (guint i = 0; i < slots; i++)
    d->memo[i].at = d->context_memo[i].at = TTV_DECODER_NOT_RESIDENT;
  d->memo_mask = slots - 1;
  d->refills = d->evictions = 0;
  d->resident_max = MAX (TTV_DECODER_RESIDENT_MAX, slots * TTV_DECODER_RESIDENT_PER_SLOT);
}

/* Twice the slots, each memo moved to its stream's (slot i goes to i or
 * i + the old count: no two meet).  Resident nodes stay where they are. */
static G_NO_INLINE void
memo_grow (TtvDecoder *d)
{
  guint n = d->memo_mask + 1;
  g_autofree TtvDecoderMemo *old = d->memo;
  g_autofree TtvDecoderMemo *old_contexts = d->context_memo;
  memo_table_new (d, n * 2);
  for (guint i = 0; i < n; i++)
    {
      if (old[i].valid)
        *memo_slot (d, old[i].stream) = old[i];
      else
        g_free (old[i].nodes);
      /* Context memos keep no copy of their nodes. */
      if (old_contexts[i].valid)
        d->context_memo[old_contexts[i].stream & d->memo_mask] = old_contexts[i];
    }
}

/* Counts the refill of @m for @stream; TRUE when the slots should grow:
 * at least half the refills since they were made took the slot of
 * another stream's memo, more of them than there are slots.  Streams read
 * together that share a slot would decode their packet contexts again at
 * each switch between them (a merged read of more streams than slots);
 * streams read one after the other (traces opened in turn) evict far
 * less often than they refill. */
static inline gboolean
memo_count_refill (TtvDecoder *d, const TtvDecoderMemo *m, guint stream)
{
  d->refills++;
  if (!m->valid || m->stream == stream)
    return FALSE;
  d->evictions++;
  return d->evictions > d->memo_mask && d->evictions * 2 > d->refills
         && d->memo_mask + 1 < TTV_DECODER_MEMO_SLOTS_MAX;
}

/* Gives up every resident node, at the start of an event (the memos keep
 * their copies). */
static void
memo_drop_resident (TtvDecoder *d)
{
  for (guint i = 0; i <= d->memo_mask; i++)
    {
      d->memo[i].at = TTV_DECODER_NOT_RESIDENT;
      /* Without a copy to make it resident again, a context's memo goes. */
      d->context_memo[i].valid = FALSE;
      d->context_memo[i].at = TTV_DECODER_NOT_RESIDENT;
    }
  d->resident_n = 0;
  d->n_nodes = 0;
}

/* The @n nodes at @at, copied from nodes that stood at @base: their
 * children's indices moved with them. */
static void
move_children (TtvDecoder *d, guint32 at, guint32 n, guint32 base)
{
  for (guint32 i = 0; i < n; i++)
    if (d->nodes[at + i].n_children > 0)
      d->nodes[at + i].first_child = d->nodes[at + i].first_child - base + at;
}

/* Puts a memo's nodes back among the resident ones, their children's
 * indices moved with them. */
static G_NO_INLINE void
memo_make_resident (TtvDecoder *d, TtvDecoderMemo *m)
{
  if (d->resident_n + m->n > d->resident_max)
    memo_drop_resident (d);
  guint32 at = ttv_decoder_alloc (d, m->n, m->nodes);
  move_children (d, at, m->n, m->base);
  m->at = at;
  d->resident_n = d->n_nodes;
}

/* Zero when @m was decoded from these bytes of this packet (a valid
 * memo's key, but its start): the differences or'ed together rather than
 * a branch each, so that the key's values need no registers of their
 * own. */
static inline guint64
memo_key_diff (const TtvDecoderMemo *m, guint64 packet, guint stream, const TtvType *type, const guint8 *buf,
               guint64 buf_bits)
{
  return (m->packet ^ packet) | (m->stream ^ stream) | ((guintptr) m->type ^ (guintptr) type)
         | ((guintptr) m->buf ^ (guintptr) buf) | (m->buf_bits ^ buf_bits);
}

/* Whether @m holds the scope of these arguments (its nodes resident or
 * not). */
static inline gboolean
memo_holds (const TtvDecoderMemo *m, guint64 packet, guint stream, const TtvType *type,
            const guint8 *buf, guint64 buf_bits, guint64 start)
{
  return m->valid && (memo_key_diff (m, packet, stream, type, buf, buf_bits) | (m->start ^ start)) == 0;
}

/* The resident nodes of a memo that holds the scope, as the first scope
 * after a reset: scopes[0], there since ttv_decoder_new (no test of the
 * room, no call on the usual event's way). */
static inline gint32
memo_reuse (TtvDecoder *d, const TtvDecoderMemo *m, const char *scope_name, guint64 *bit_pos)
{
  if (scope_name)
    {
      d->scopes[0].name = scope_name;
      d->scopes[0].node = m->at;
      d->n_scopes = 1;
    }
  *bit_pos = m->end;
  return (gint32) m->at;
}

/* ttv_decoder_decode_first_memo when its memo does not hold the scope:
 * decodes it after the resident nodes, where its nodes then stay, and
 * keeps a copy.  (Its own function, with the same arguments: the reuse,
 * once per event, keeps a small frame and calls it last.) */
static G_NO_INLINE gint32
memo_refill (TtvDecoder *d, guint64 packet, guint stream, const TtvType *type, const char *scope_name,
             const guint8 *buf, guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  TtvDecoderMemo *m = memo_slot (d, stream);
  if (G_UNLIKELY (memo_count_refill (d, m, stream)))
    {
      memo_grow (d);
      m = memo_slot (d, stream);
    }
  m->valid = FALSE;
  /* The last resident nodes are given back; others stay until the limit. */
  if (m->at != TTV_DECODER_NOT_RESIDENT && m->at + m->n == d->resident_n)
    d->resident_n = d->n_nodes = m->at;
  m->at = TTV_DECODER_NOT_RESIDENT;
  if (d->resident_n > d->resident_max)
    memo_drop_resident (d);
  guint64 start = *bit_pos;
  gint32 r = ttv_decoder_decode (d, type, scope_name, buf, buf_bits, bit_pos, error);
  /* Strings converted into the arena go with the next reset: not kept. */
  if (r < 0 || d->arena_used)
    return r;
  guint32 n = d->n_nodes - (guint32) r;
  m->nodes = g_renew (TtvValue, m->nodes, n);
  memcpy (m->nodes, d->nodes + r, sizeof (TtvValue) * n);
  *m = (TtvDecoderMemo) { TRUE, packet, stream, type, buf, buf_bits, start, *bit_pos, m->nodes, n,
                          (guint32) r, (guint32) r };
  d->resident_n = d->n_nodes;
  return r;
}

/* ttv_decoder_decode_first_memo past its reset, when the memo's nodes are
 * not resident (put back from its copy) or the memo does not hold the
 * scope (decoded anew). */
static G_NO_INLINE gint32
memo_miss (TtvDecoder *d, guint64 packet, guint stream, const TtvType *type, const char *scope_name,
           const guint8 *buf, guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  TtvDecoderMemo *m = memo_slot (d, stream);
  if (!memo_holds (m, packet, stream, type, buf, buf_bits, *bit_pos))
    return memo_refill (d, packet, stream, type, scope_name, buf, buf_bits, bit_pos, error);
  memo_make_resident (d, m);
  return memo_reuse (d, m, scope_name, bit_pos);
}

/* Whether @m holds the scope, its nodes resident: a memo's hit, for
 * ttv_decoder_decode_first_memo and ttv_decoder_decode_chain alike. */
static inline gboolean
memo_hit (const TtvDecoderMemo *m, guint64 packet, guint stream, const TtvType *type,
          const guint8 *buf, guint64 buf_bits, guint64 start)
{
  return memo_holds (m, packet, stream, type, buf, buf_bits, start) && m->at != TTV_DECODER_NOT_RESIDENT;
}

gint32
ttv_decoder_decode_first_memo (TtvDecoder *d, guint64 packet, guint stream, const TtvType *type,
                               const char *scope_name, const guint8 *buf, guint64 buf_bits, guint64 *bit_pos,
                               GError **error)
{
  /* The reset here rather than the caller's: one call per event. */
  decoder_reset (d);
  const TtvDecoderMemo *m = memo_slot (d, stream);
  if (G_LIKELY (memo_hit (m, packet, stream, type, buf, buf_bits, *bit_pos)))
    return memo_reuse (d, m, scope_name, bit_pos);
  return memo_miss (d, packet, stream, type, scope_name, buf, buf_bits, bit_pos, error);
}

/* ttv_decoder_decode without an error, for ttv_decoder_decode_chain: six
 * arguments, so that its calls are tail calls. */
static G_NO_INLINE gint32
decode_quiet_slow (TtvDecoder *d, const TtvType *type, const char *scope_name, const guint8 *buf,
                   guint64 buf_bits, guint64 *bit_pos)
{
  return ttv_decoder_decode (d, type, scope_name, buf, buf_bits, bit_pos, NULL);
}

static inline gint32
decode_quiet (TtvDecoder *d, const TtvType *type, const char *scope_name, const guint8 *buf, guint64 buf_bits,
              guint64 *bit_pos)
{
  const TtvDecodePlan *plan = g_atomic_pointer_get ((TtvDecodePlan **) &type->plan);
  if (G_LIKELY (plan != NULL && plan != &ttv_decode_no_plan))
    return ttv_decode_plan_decode_quiet (plan, d, scope_name, buf, buf_bits, bit_pos);
  return decode_quiet_slow (d, type, scope_name, buf, buf_bits, bit_pos);
}

/* Longest context kept by its memo (its bytes are compared per event). */
#define CONTEXT_MEMO_MAX_BITS (64 * 8)

void
ttv_decoder_chain_prepare (TtvDecoderChain *chain)
{
  /* The first context only (a stream's memo is of one scope): LTTng's
   * stream event context, where the thread's ids and name are. */
  const TtvFlatLayout *flat = chain->contexts[0] ? ttv_type_get_flat_layout (chain->contexts[0]) : NULL;
  gboolean kept = flat != NULL && flat->align_bits >= 8 && (flat->align_bits & (flat->align_bits - 1)) == 0
                  && flat->size_bits > 0 && flat->size_bits % 8 == 0 && flat->size_bits <= CONTEXT_MEMO_MAX_BITS;
  chain->context_memo_bits = kept ? (guint32) flat->size_bits : 0;
  chain->context_memo_align = kept ? flat->align_bits : 8;
}

/* The first context of @chain decoded where @bytes stand, right
 * after the resident nodes (the packet's context, if any, is resident),
 * then kept by the stream's context memo: in place of the nodes it kept
 * before (the same type, as many nodes), else after the resident nodes
 * when there is room (else not kept: the packet contexts' memos give the
 * resident nodes up when they pass their limit). */
static G_NO_INLINE gint32
context_memo_refill (TtvDecoder *d, const TtvDecoderChain *chain, TtvDecoderChainBytes *bytes, guint64 start)
{
  TtvDecoderMemo *m = &d->context_memo[bytes->stream & d->memo_mask];
  d->context_refills++;
  gint32 r = decode_quiet (d, chain->contexts[0], chain->context_names[0], bytes->buf, bytes->buf_bits,
                           &bytes->pos);
  if (r < 0 || d->arena_used)
    return r;
  guint32 n = d->n_nodes - (guint32) r;
  guint32 at = (guint32) r;
  if (m->valid && m->at != TTV_DECODER_NOT_RESIDENT && m->n == n)
    {
      /* Over the memo's old nodes, the children's indices moved along;
       * the scope the decode registered names them. */
      at = m->at;
      memcpy (d->nodes + at, d->nodes + r, sizeof (TtvValue) * n);
      move_children (d, at, n, (guint32) r);
      d->n_nodes = d->resident_n;
      if (chain->context_names[0])
        d->scopes[d->n_scopes - 1].node = at;
    }
  else if (d->resident_n + n > d->resident_max)
    return r;
  *m = (TtvDecoderMemo) { TRUE, bytes->packet, bytes->stream, chain->contexts[0], bytes->buf, bytes->buf_bits,
                          start, bytes->pos, NULL, n, at, at };
  d->resident_n = MAX (d->resident_n, at + n);
  return (gint32) at;
}

/* The first context of @chain: the nodes of the stream's context memo
 * when it holds the same bytes in the same packet (an earlier event's,
 * which the memo's strings view), else decoded (and kept where that may
 * be). */
static inline gint32
context_decode (TtvDecoder *d, const TtvDecoderChain *chain, TtvDecoderChainBytes *bytes)
{
  guint64 size = chain->context_memo_bits;
  guint64 start = ttv_align_up_pow2 (bytes->pos, chain->context_memo_align);
  if (size == 0 || d->n_nodes != d->resident_n || start > bytes->buf_bits || bytes->buf_bits - start < size)
    return decode_quiet (d, chain->contexts[0], chain->context_names[0], bytes->buf, bytes->buf_bits,
                         &bytes->pos);
  const TtvDecoderMemo *m = &d->context_memo[bytes->stream & d->memo_mask];
  if (!m->valid || m->at == TTV_DECODER_NOT_RESIDENT
      || memo_key_diff (m, bytes->packet, bytes->stream, chain->contexts[0], bytes->buf, bytes->buf_bits) != 0
      || memcmp (bytes->buf + start / 8, bytes->buf + m->start / 8, size / 8) != 0)
    return context_memo_refill (d, chain, bytes, start);
  ttv_decoder_add_scope (d, chain->context_names[0], m->at);
  bytes->pos = start + size;
  return (gint32) m->at;
}

/* ttv_decoder_decode_chain past its first scope when the chain has
 * contexts (their calls return here: a frame of its own). */
static G_NO_INLINE gint32
chain_contexts (TtvDecoder *d, const TtvDecoderChain *chain, TtvDecoderChainBytes *bytes, gint32 *out)
{
  /* Written out, not a loop: two tests of a pointer, not of an index. */
  gint32 r = -1;
  if (chain->contexts[0] && (r = context_decode (d, chain, bytes)) < 0)
    return -1;
  out[chain->slots[1]] = r;
  r = -1;
  if (chain->contexts[1]
      && (r = decode_quiet (d, chain->contexts[1], chain->context_names[1], bytes->buf, bytes->buf_bits,
                            &bytes->pos)) < 0)
    return -1;
  out[chain->slots[2]] = r;
  return decode_quiet (d, chain->payload, chain->payload_name, bytes->buf, bytes->buf_bits, &bytes->pos);
}

/* ttv_decoder_decode_chain when the memo does not hold the first scope or
 * its nodes are not resident. */
static G_NO_INLINE gint32
chain_memo_miss (TtvDecoder *d, const TtvDecoderChain *chain, TtvDecoderChainBytes *bytes, gint32 *out)
{
  guint64 p = chain->memo_start;
  gint32 r = memo_miss (d, bytes->packet, bytes->stream, chain->memo, chain->memo_name, bytes->buf,
                        bytes->buf_bits, &p, NULL);
  if (r < 0)
    return -1;
  out[chain->slots[0]] = r;
  return chain_contexts (d, chain, bytes, out);
}

/* ttv_decoder_decode_chain when the event before converted strings into
 * the arena: cleared, then the same call. */
static G_NO_INLINE gint32
chain_after_arena (TtvDecoder *d, const TtvDecoderChain *chain, TtvDecoderChainBytes *bytes, gint32 *out)
{
  arena_clear (d);
  return ttv_decoder_decode_chain (d, chain, bytes, out);
}

gint32
ttv_decoder_decode_chain (TtvDecoder *d, const TtvDecoderChain *chain, TtvDecoderChainBytes *bytes, gint32 *out)
{
  /* One call from the reader instead of one a scope; no call here but in
   * tail position (the memo's hit inline, the rest out of line), so no
   * frame: a kernel event's way is this, then its payload's decode. */
  if (G_UNLIKELY (d->arena_used))
    return chain_after_arena (d, chain, bytes, out);
  decoder_reset (d);
  gint32 r = -1;
  if (chain->memo)
    {
      const TtvDecoderMemo *m = memo_slot (d, bytes->stream);
      if (G_UNLIKELY (!memo_hit (m, bytes->packet, bytes->stream, chain->memo, bytes->buf, bytes->buf_bits,
                                 chain->memo_start)))
        return chain_memo_miss (d, chain, bytes, out);
      /* memo_reuse, the name known to be set. */
      TtvDecoderScope *scope = d->scopes;
      r = (gint32) m->at;
      scope->name = chain->memo_name;
      scope->node = m->at;
      d->n_scopes = 1;
    }
  out[chain->slots[0]] = r;
  if (chain->contexts[0] || chain->contexts[1])
    return chain_contexts (d, chain, bytes, out);
  out[chain->slots[1]] = out[chain->slots[2]] = -1;
  return decode_quiet (d, chain->payload, chain->payload_name, bytes->buf, bytes->buf_bits, &bytes->pos);
}

gint32
ttv_decoder_decode_walk (TtvDecoder *d, const TtvType *type, const char *scope_name,
                         const guint8 *buf, guint64 buf_bits, guint64 *bit_pos, GError **error)
{
  return decode_slow (d, type, scope_name, buf, buf_bits, bit_pos, error);
}

gboolean
ttv_decoder_has_plan (const TtvType *type)
{
  return ttv_decode_plan_get (type) != NULL;
}

gboolean
ttv_type_skip_by_plan (const TtvType *type, const guint8 *buf, guint64 buf_bits, guint64 *bit_pos)
{
  const TtvDecodePlan *plan = ttv_decode_plan_get (type);
  guint64 pos = *bit_pos;
  if (plan == NULL || !ttv_decode_plan_skip (plan, buf, buf_bits, &pos))
    return FALSE;
  *bit_pos = pos;
  return TRUE;
}

gboolean
ttv_decoder_skip (TtvDecoder *d, const TtvType *type, const guint8 *buf, guint64 buf_bits,
                  guint64 *bit_pos, GError **error)
{
  if (type->fixed_size_bits >= 0)
    {
      guint64 p = ttv_align_up (*bit_pos, type->align_bits);
      if (p > buf_bits || buf_bits - p < (guint64) type->fixed_size_bits)
        return set_error_at (error, TTV_FORMAT_ERROR_TRUNCATED, p, _("Data ends inside an event"));
      *bit_pos = p + (guint64) type->fixed_size_bits;
      return TRUE;
    }
  if (ttv_type_skip_by_plan (type, buf, buf_bits, bit_pos))
    return TRUE;
  guint32 mark = d->n_nodes;
  guint n_scopes = d->n_scopes;
  gboolean ok = ttv_decoder_decode (d, type, NULL, buf, buf_bits, bit_pos, error) >= 0;
  d->n_nodes = mark;
  d->n_scopes = n_scopes;
  return ok;
}

static void
append_json_string (GString *out, const char *s, gsize len)
{
  ttv_json_append_string (out, s, (gssize) len);
}

/* Text reports quote strings with JSON's escapes for quotes, backslashes
 * and control characters, other bytes as they are. */
static void
append_plain_string (GString *out, const char *s, gsize len)
{
  static const char hex[] = "0123456789abcdef";
  /* At most 6 bytes per byte (\u00XX) and the quotes. */
  char *p = ttv_text_reserve (out, 6 * len + 2);
  *p++ = '"';
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) s[i];
      if (c == '"' || c == '\\')
        {
          *p++ = '\\';
          *p++ = (char) c;
        }
      else if (c < 0x20)
        p = ttv_text_put (p, (char[]) { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] }, 6);
      else
        *p++ = (char) c;
    }
  *p++ = '"';
  ttv_text_commit (out, p);
}

static gboolean
is_text_bytes (const TtvType *t)
{
  const TtvType *e = t->element;
  return e && e->kind == TTV_TYPE_INTEGER && e->size_bits == 8 && e->encoding == TTV_ENCODING_UTF8;
}

static void
append_integer (GString *out, const TtvValue *v, TtvValueStyle style)
{
  const TtvType *t = v->type;
  /* Without printf: fields are formatted for every event a Find reads. */
  char *p = ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX);
  if (t->int_kind == TTV_INT_BOOLEAN)
    p = v->v.u ? ttv_text_put (p, "true", 4) : ttv_text_put (p, "false", 5);
  else if (t->is_signed)
    p = ttv_text_put_i64 (p, v->v.s);
  else if ((t->base == 16 || t->int_kind == TTV_INT_BIT_ARRAY) && style == TTV_VALUE_STYLE_PLAIN)
    p = ttv_text_put_hex (ttv_text_put (p, "0x", 2), v->v.u, FALSE);
  else
    p = ttv_text_put_u64 (p, v->v.u);
  ttv_text_commit (out, p);
}

/* One label, as text or JSON; returns 1, the count of labels written. */
static guint
append_enum_label (GString *out, const char *label, gboolean json)
{
  if (json)
    append_json_string (out, label, strlen (label));
  else
    g_string_append (out, label);
  return 1;
}

/* Every label that applies to an enum value: overlapping mappings give
 * several, each label once, in the order of first declaration. */
static guint
append_enum_labels (GString *out, const TtvType *t, guint64 raw, gboolean json)
{
  /* Ascending mappings (most enums, such as a syscall's hundreds of
   * names): the one that applies, by bisection. */
  gint one = ttv_type_enum_find_ascending (t, raw);
  if (one != -2)
    return one >= 0 ? append_enum_label (out, g_array_index (t->mappings, TtvEnumMapping, one).label, json) : 0;
  guint n = 0;
  for (guint i = 0; i < t->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (t->mappings, TtvEnumMapping, i);
      if (!ttv_type_mapping_matches (t, m, raw))
        continue;
      /* A label printed already for an earlier mapping (none before the
       * first that applies). */
      gboolean seen = FALSE;
      for (guint j = 0; n > 0 && j < i && !seen; j++)
        {
          const TtvEnumMapping *o = &g_array_index (t->mappings, TtvEnumMapping, j);
          seen = ttv_type_mapping_matches (t, o, raw) && strcmp (o->label, m->label) == 0;
        }
      if (seen)
        continue;
      if (n)
        g_string_append (out, json ? "," : "|");
      n += append_enum_label (out, m->label, json);
    }
  return n;
}

static void
append_node (const TtvDecoder *d, const TtvValue *v, TtvValueStyle style, GString *out, gboolean top)
{
  const TtvType *t = v->type;
  gboolean json = style == TTV_VALUE_STYLE_JSON;
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      append_integer (out, v, style);
      break;
    case TTV_TYPE_FLOAT:
      if (json)
        ttv_json_append_double (out, v->v.f, t->size_bits <= 32 ? 32 : 64);
      else
        ttv_text_commit (out, ttv_text_put_double_g (ttv_text_reserve (out, TTV_TEXT_NUMBER_MAX), v->v.f));
      break;
    case TTV_TYPE_STRING:
      if (json)
        append_json_string (out, v->v.string.str, v->v.string.len);
      else
        append_plain_string (out, v->v.string.str, v->v.string.len);
      break;
    case TTV_TYPE_ENUM:
      /* One shape for every value: the number and the labels that apply. */
      if (json)
        {
          g_string_append_len (out, "{\"value\":", 9);
          append_integer (out, v, style);
          g_string_append_len (out, ",\"labels\":[", 11);
          append_enum_labels (out, t, v->v.u, TRUE);
          g_string_append_len (out, "]}", 2);
        }
      else
        {
          if (append_enum_labels (out, t, v->v.u, FALSE) == 0)
            g_string_append_c (out, '?');
          g_string_append (out, " (");
          append_integer (out, v, style);
          g_string_append_c (out, ')');
        }
      break;
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      if (ttv_type_is_text_array (t))
        {
          const char *text = v->v.string.str;
          gsize len = text ? strnlen (text, v->v.string.len) : 0;
          if (json)
            append_json_string (out, text, len);
          else
            append_plain_string (out, text, len);
          break;
        }
      if (is_text_bytes (t))
        {
          GString *s = g_string_new (NULL);
          for (guint32 i = 0; i < v->n_children; i++)
            {
              char c = (char) ttv_decoder_get (d, v->first_child + i)->v.u;
              if (c == '\0')
                break;
              g_string_append_c (s, c);
            }
          if (json)
            append_json_string (out, s->str, s->len);
          else
            append_plain_string (out, s->str, s->len);
          g_string_free (s, TRUE);
          break;
        }
      g_string_append_c (out, '[');
      for (guint32 i = 0; i < v->n_children; i++)
        {
          if (json)
            {
              if (i)
                g_string_append_c (out, ',');
            }
          else
            g_string_append_len (out, i ? ", " : " ", i ? 2 : 1);
          append_node (d, ttv_decoder_get (d, v->first_child + i), style, out, FALSE);
        }
      if (json || v->n_children == 0)
        g_string_append_c (out, ']');
      else
        g_string_append_len (out, " ]", 2);
      break;
    case TTV_TYPE_VARIANT:
      if (t->optional)
        {
          if (v->n_children == 0)
            g_string_append (out, json ? "null" : "<none>");
          else
            append_node (d, ttv_decoder_get (d, v->first_child), style, out, FALSE);
          break;
        }
      G_GNUC_FALLTHROUGH;
    case TTV_TYPE_STRUCT:
      if (json)
        g_string_append_c (out, '{');
      else if (!top)
        TTV_TEXT_APPEND_LITERAL (out, "{ ");
      /* The short pieces inline (ttv_text_append): the event list's
       * Fields column and Find print millions of them. */
      for (guint32 i = 0; i < v->n_children; i++)
        {
          const TtvValue *c = ttv_decoder_get (d, v->first_child + i);
          if (i && json)
            g_string_append_c (out, ',');
          else if (i)
            TTV_TEXT_APPEND_LITERAL (out, ", ");
          if (json)
            {
              append_json_string (out, c->name ? c->name : "", c->name ? strlen (c->name) : 0);
              g_string_append_c (out, ':');
            }
          else
            {
              const char *name = c->name ? c->name : "?";
              ttv_text_append (out, name, strlen (name));
              TTV_TEXT_APPEND_LITERAL (out, " = ");
            }
          append_node (d, c, style, out, FALSE);
        }
      if (json)
        g_string_append_c (out, '}');
      else if (!top)
        TTV_TEXT_APPEND_LITERAL (out, " }");
      break;
    }
}

void
ttv_decoder_append_value (const TtvDecoder *d, guint32 index, TtvValueStyle style, GString *out)
{
  append_node (d, ttv_decoder_get (d, index), style, out, TRUE);
}

void
ttv_decoder_append_node (const TtvDecoder *d, const TtvValue *value, TtvValueStyle style, GString *out)
{
  append_node (d, value, style, out, TRUE);
}

/* --- What plain text can hold ------------------------------------------ */

/* The bytes (ASCII lower case) that the plain text of values of a type can
 * have; any: a string (or text of bytes) that can hold anything. */
typedef struct {
  gboolean any;
  guint8 set[256 / 8];
} TextAlphabet;

static void
alphabet_add (TextAlphabet *a, const char *chars)
{
  for (const guchar *p = (const guchar *) chars; *p; p++)
    {
      guchar c = (guchar) g_ascii_tolower (*p);
      a->set[c / 8] |= (guint8) (1u << (c % 8));
    }
}

static gboolean
alphabet_has (const TextAlphabet *a, guchar c)
{
  c = (guchar) g_ascii_tolower (c);
  return (a->set[c / 8] >> (c % 8)) & 1;
}

/* What append_integer() writes (@plain: TTV_VALUE_STYLE_PLAIN). */
static void
integer_alphabet (const TtvType *t, TextAlphabet *a)
{
  alphabet_add (a, "0123456789-");
  if (t->int_kind == TTV_INT_BOOLEAN)
    alphabet_add (a, "truefalse");
  if (t->base == 16 || t->int_kind == TTV_INT_BIT_ARRAY)
    alphabet_add (a, "xabcdef");
}

/* Follows append_node(): what it can write for @t. */
static void
type_alphabet (const TtvType *t, TextAlphabet *a, guint depth)
{
  if (t == NULL || depth > 64)
    {
      a->any = TRUE;
      return;
    }
  switch (t->kind)
    {
    case TTV_TYPE_INTEGER:
      integer_alphabet (t, a);
      break;
    case TTV_TYPE_FLOAT:
      /* "%g": digits, sign, point, exponent; inf and nan. */
      alphabet_add (a, "0123456789-+.einfa");
      break;
    case TTV_TYPE_ENUM:
      alphabet_add (a, "?|() ");
      integer_alphabet (t->container ? t->container : t, a);
      for (guint i = 0; t->mappings && i < t->mappings->len; i++)
        alphabet_add (a, g_array_index (t->mappings, TtvEnumMapping, i).label);
      break;
    case TTV_TYPE_ARRAY:
    case TTV_TYPE_SEQUENCE:
      if (ttv_type_is_text_array (t) || is_text_bytes (t))
        a->any = TRUE;
      else
        {
          alphabet_add (a, "[], ");
          type_alphabet (t->element, a, depth + 1);
        }
      break;
    case TTV_TYPE_VARIANT:
    case TTV_TYPE_STRUCT:
      alphabet_add (a, "{}, =?<>none");
      for (guint i = 0; t->fields && i < t->fields->len; i++)
        {
          const TtvField *f = g_ptr_array_index (t->fields, i);
          if (f->name)
            alphabet_add (a, f->name);
          type_alphabet (f->type, a, depth + 1);
        }
      break;
    case TTV_TYPE_STRING:
    default:
      a->any = TRUE;
      break;
    }
}

gboolean
ttv_type_plain_text_may_contain (const TtvType *type, const char *needle)
{
  TextAlphabet a = { 0 };

  type_alphabet (type, &a, 0);
  if (a.any)
    return TRUE;
  for (const guchar *p = (const guchar *) needle; *p; p++)
    if (!alphabet_has (&a, *p))
      return FALSE;
  return TRUE;
}

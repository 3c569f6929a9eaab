/* ttv-field-accessor.h: reads one named payload field of an event quickly.
 * Resolved once per event type (a fixed bit offset when the layout allows,
 * else a decode); used by the kernel model, statistics and filters. */
#pragma once

#include "ttv-trace.h"

#include <string.h>

G_BEGIN_DECLS

typedef struct {
  const TtvType *type;      /* weak: the field's type, NULL if the event type lacks the field */
  gint64 fixed_offset_bits; /* from the aligned payload start, or -1: decode needed */
  gint field_index;         /* top-level member index, for the decode path */
  gboolean is_field;        /* FALSE when unresolved */
  /* The common case read inline: an integer of 1, 2, 4 or 8 bytes at a
   * fixed byte offset, loaded as the decode plans load flat members;
   * load_bytes 0 otherwise.  (The kernel model, the filters and the
   * statistics read a field or two of most events: the general path
   * costs about 75 instructions a field, this one about 15.) */
  guint8 load_bytes;
  TtvFlatMember load;       /* byte: the field's offset from the aligned payload start */
} TtvFieldAccessor;

/* Resolves @name (a top-level payload member) for @event_type. */
void     ttv_field_accessor_init (TtvFieldAccessor *acc, const TtvEventType *event_type, const char *name);
gboolean ttv_field_accessor_is_valid (const TtvFieldAccessor *acc);
/* Bit offset of top-level member @idx of struct @s from the aligned payload
 * start, or -1 when a member before it varies in size. */
gint64   ttv_field_fixed_offset (const TtvType *s, gint idx);
/* Integer or enum value (sign-extended for signed types).  FALSE if the
 * field is missing, not numeric, or the event is damaged. */
gboolean ttv_field_accessor_get_int_slow (const TtvFieldAccessor *acc, const TtvEvent *event,
                                          TtvDecoder *scratch, gint64 *out);

static inline gboolean
ttv_field_accessor_get_int (const TtvFieldAccessor *acc, const TtvEvent *event,
                            TtvDecoder *scratch, gint64 *out)
{
  if (G_LIKELY (acc->load_bytes != 0))
    {
      guint64 align = event->type->fields->align_bits;
      guint64 start = (event->payload_bit + align - 1) & ~(align - 1);
      guint64 end = start + acc->load.byte * 8ull + acc->load_bytes * 8ull;
      if (G_LIKELY ((start & 7) == 0 && end <= event->data_bits))
        {
          TtvValue v;
          ttv_flat_member_load (&acc->load, event->data + start / 8, &v);
          *out = v.v.s;
          return TRUE;
        }
    }
  return ttv_field_accessor_get_int_slow (acc, event, scratch, out);
}
/* String value (borrowed from the trace data, valid while the event is;
 * not always NUL-terminated: use *len); an enum gives its label, a fixed
 * char array (CTF "char name[16]") its text; NULL on failure. */
const char *ttv_field_accessor_get_string (const TtvFieldAccessor *acc, const TtvEvent *event,
                                           TtvDecoder *scratch, gsize *len);

/* Where a string field at a fixed offset begins, and in *avail how many
 * bytes the event's data holds from there, its NUL somewhere among them
 * or not: the caller that knows what the string should say compares
 * those bytes, without the search for the NUL over the packet's rest that
 * ttv_field_accessor_get_string() makes.  NULL when the field is no such
 * string or begins past the data (where that function fails too). */
static inline const char *
ttv_field_accessor_string_start (const TtvFieldAccessor *acc, const TtvEvent *event, gsize *avail)
{
  if (!acc->is_field || acc->type->kind != TTV_TYPE_STRING || acc->fixed_offset_bits < 0)
    return NULL;
  guint64 base = ttv_align_up (event->payload_bit, event->type->fields->align_bits);
  guint64 pos = ttv_align_up (base + (guint64) acc->fixed_offset_bits, 8);
  if (pos >= event->data_bits)
    return NULL;
  *avail = (gsize) ((event->data_bits - pos) / 8);
  return (const char *) event->data + pos / 8;
}

G_END_DECLS

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
  /* The common case read inline: a little-endian integer of 1, 2, 4 or 8
   * bytes at a fixed offset; 0 otherwise.  (The kernel model, the filters
   * and the statistics read a field or two of most events: the general
   * path costs about 75 instructions a field, this one about 15.) */
  guint8 load_bytes;
  guint8 sign_shift;        /* 64 - size in bits for a signed type narrower than 64, else 0 */
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
      guint64 pos = ((event->payload_bit + align - 1) & ~(align - 1)) + (guint64) acc->fixed_offset_bits;
      guint64 size = (guint64) acc->load_bytes * 8;
      if (G_LIKELY ((pos & 7) == 0 && pos <= event->data_bits && event->data_bits - pos >= size))
        {
          const guint8 *p = event->data + pos / 8;
          guint64 raw;
          switch (acc->load_bytes)
            {
            case 1:
              raw = p[0];
              break;
            case 2:
              {
                guint16 x;
                memcpy (&x, p, 2);
                raw = GUINT16_FROM_LE (x);
              }
              break;
            case 4:
              {
                guint32 x;
                memcpy (&x, p, 4);
                raw = GUINT32_FROM_LE (x);
              }
              break;
            default:
              memcpy (&raw, p, 8);
              raw = GUINT64_FROM_LE (raw);
              break;
            }
          /* Sign extension by shifts, on the unsigned value (no UB). */
          if (acc->sign_shift)
            raw = (guint64) ((gint64) (raw << acc->sign_shift) >> acc->sign_shift);
          *out = (gint64) raw;
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

G_END_DECLS

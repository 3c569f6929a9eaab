/* ttv-position-digits.h: a position token's base32 digits 32 at a time
 * with AVX2 (x86 only, where the CPU has it): the report's token writer
 * (ttv-position-bytes.c) writes one token an event, and the digits of four
 * 5-byte groups take about 15 instructions this way against about 100 by
 * the table of pairs (ttv_position_put_digits(), the general path, which
 * ttv_position_append_token() keeps). */
#pragma once

#include "ttv-position-private.h"
#include "ttv-cpu.h"

G_BEGIN_DECLS

/* Room the wide digits need at @s (whole fours of groups), enough for
 * ttv_position_put_digits() too. */
#define TTV_POSITION_DIGITS_WIDE_ROOM(len) (((len) + 4) / 5 * 8 + 24)

#if defined(__x86_64__) || defined(__i386__)
#define TTV_POSITION_DIGITS_WIDE 1

/* As ttv_position_put_digits() (the same digits and return), four groups
 * a turn, where ttv_cpu_has_avx2 (): @s has TTV_POSITION_DIGITS_WIDE_ROOM
 * (@len) bytes of room, and @b TTV_POSITION_TOKEN_DIGITS_SLACK bytes
 * after the token's @len. */
gsize ttv_position_put_digits_wide (char *s, guint8 *b, gsize len, gsize first_group);
/* The same when the four bytes after the token are zeros already (it
 * writes none: its loads then wait for no store of the bytes it reads,
 * which a wide load overlapping a recent narrower store does). */
gsize ttv_position_put_digits_wide_padded (char *s, const guint8 *b, gsize len, gsize first_group);
#endif

/* ttv_position_put_digits() by the wide way where @wide
 * (ttv_cpu_has_avx2 ()): @s has TTV_POSITION_DIGITS_WIDE_ROOM
 * (@len) bytes of room, and @b TTV_POSITION_TOKEN_DIGITS_SLACK bytes after
 * the token's @len. */
static inline gsize
ttv_position_put_digits_either (char *s, guint8 *b, gsize len, gsize first_group, gboolean wide,
                                const char (*pairs)[2])
{
#ifdef TTV_POSITION_DIGITS_WIDE
  if (G_LIKELY (wide))
    return ttv_position_put_digits_wide (s, b, len, first_group);
#else
  (void) wide;
#endif
  return ttv_position_put_digits (s, b, len, first_group, pairs);
}

/* The same, the first @head_groups groups' digits being @head_digits (the
 * head's, the same in every token of a traceset). */
static inline gsize
ttv_position_put_digits_after_head (char *s, guint8 *b, gsize len, const char head_digits[16], gsize head_groups,
                                    gboolean wide, const char (*pairs)[2])
{
  memcpy (s, head_digits, 16);
  return ttv_position_put_digits_either (s, b, len, head_groups, wide, pairs);
}

G_END_DECLS

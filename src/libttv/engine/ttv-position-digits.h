/* ttv-position-digits.h: a position token's base32 digits 32 at a time
 * with AVX2 (x86 only, where the CPU has it): the report's token writer
 * (ttv-position-bytes.c) writes one token an event, and the digits of four
 * 5-byte groups take about 15 instructions this way against about 100 by
 * the table of pairs (ttv_position_put_digits(), the general path, which
 * ttv_position_append_token() keeps). */
#pragma once

#include "ttv-position-private.h"

G_BEGIN_DECLS

/* Room the wide digits need at @s (whole fours of groups), enough for
 * ttv_position_put_digits() too. */
#define TTV_POSITION_DIGITS_WIDE_ROOM(len) (((len) + 4) / 5 * 8 + 24)

#if defined(__x86_64__) || defined(__i386__)
#define TTV_POSITION_DIGITS_WIDE 1

/* Whether ttv_position_put_digits_wide() may run on this CPU. */
gboolean ttv_position_digits_wide_usable (void);

/* As ttv_position_put_digits() (the same digits and return), four groups
 * a turn: @s has TTV_POSITION_DIGITS_WIDE_ROOM (@len) bytes of room, and
 * @b TTV_POSITION_TOKEN_DIGITS_SLACK bytes after the token's @len. */
gsize ttv_position_put_digits_wide (char *s, guint8 *b, gsize len, gsize first_group);
#endif

G_END_DECLS

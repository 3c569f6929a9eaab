/* ttv-defects-tp.h: the LTTng-UST tracepoint provider "ttv_defects" of the
 * recorded-session tests: every ctf_* field macro of lttng-ust 2.13, enums
 * with 64-bit unsigned ranges above INT64_MAX, floats that %g would round,
 * strings that are not UTF-8, and a small event to fill buffers with. */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ttv_defects

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./ttv-defects-tp.h"

#if !defined(TTV_DEFECTS_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TTV_DEFECTS_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

/* Unsigned 64-bit ranges above INT64_MAX (a real trace made ttv refuse the
 * whole session: "expected an integer value"), and overlapping mappings. */
TRACEPOINT_ENUM (ttv_defects, wide,
  TP_ENUM_VALUES (
    ctf_enum_range ("LOW", 0, 9223372036854775807ULL)
    ctf_enum_range ("HIGH", 9223372036854775808ULL, 18446744073709551614ULL)
    ctf_enum_value ("MAX", 18446744073709551615ULL)
    ctf_enum_range ("SMALL", 0, 9)
  )
)

TRACEPOINT_ENUM (ttv_defects, mood,
  TP_ENUM_VALUES (
    ctf_enum_value ("CALM", 0)
    ctf_enum_auto ("ANGRY")
    ctf_enum_range ("MIXED", 5, 8)
    ctf_enum_value ("MINUS", -4)
  )
)

TRACEPOINT_EVENT (ttv_defects, every_field,
  TP_ARGS (int64_t, v, uint64_t, w, const char *, s, const uint8_t *, bytes, unsigned int, n, double, d),
  TP_FIELDS (
    ctf_integer (int32_t, i32, v)
    ctf_integer_hex (uint64_t, h64, w)
    ctf_integer_network (uint32_t, net32, v)
    ctf_integer_network_hex (uint16_t, netx16, v)
    ctf_integer_nowrite (int, hidden_int, v)
    ctf_float (float, f32, d)
    ctf_float (double, f64, d)
    ctf_float_nowrite (double, hidden_float, d)
    ctf_string (str, s)
    ctf_string_nowrite (hidden_str, s)
    ctf_array (uint8_t, arr, bytes, 4)
    ctf_array_hex (uint8_t, arr_hex, bytes, 4)
    ctf_array_network (uint16_t, arr_net, (const uint16_t *) bytes, 2)
    ctf_array_network_hex (uint16_t, arr_net_hex, (const uint16_t *) bytes, 2)
    ctf_array_text (char, arr_text, s, 8)
    ctf_array_nowrite (uint8_t, hidden_arr, bytes, 4)
    ctf_sequence (uint8_t, seq, bytes, unsigned int, n)
    ctf_sequence_hex (uint8_t, seq_hex, bytes, unsigned int, n)
    ctf_sequence_network (uint16_t, seq_net, (const uint16_t *) bytes, unsigned int, n / 2)
    ctf_sequence_network_hex (uint16_t, seq_net_hex, (const uint16_t *) bytes, unsigned int, n / 2)
    ctf_sequence_text (char, seq_text, s, unsigned int, n)
    ctf_sequence_nowrite (uint8_t, hidden_seq, bytes, unsigned int, n)
    ctf_enum (ttv_defects, wide, uint64_t, wide, w)
    ctf_enum (ttv_defects, mood, int8_t, mood, v)
    ctf_enum_nowrite (ttv_defects, mood, int8_t, hidden_mood, v)
    ctf_unused (v)
  )
)

/* Small and frequent: fills sub-buffers for the discard, overwrite,
 * snapshot and rotation sessions. */
TRACEPOINT_EVENT (ttv_defects, tick,
  TP_ARGS (uint64_t, n),
  TP_FIELDS (
    ctf_integer (uint64_t, n, n)
  )
)

#endif /* TTV_DEFECTS_TP_H */

#include <lttng/tracepoint-event.h>

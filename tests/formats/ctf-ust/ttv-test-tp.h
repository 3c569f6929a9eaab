/* ttv-test-tp.h: the LTTng-UST tracepoint provider "ttv_test" of the recorded
 * userspace trace test (every field kind babeltrace2 and ttv must agree on). */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ttv_test

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./ttv-test-tp.h"

#if !defined(TTV_TEST_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TTV_TEST_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

/* v * k wrapping around (no signed overflow), as the signed field type. */
#define TTV_TEST_MUL(v, k) ((int64_t) ((uint64_t) (v) * (uint64_t) (k)))

TRACEPOINT_ENUM (ttv_test, color,
  TP_ENUM_VALUES (
    ctf_enum_value ("RED", 0)
    ctf_enum_value ("GREEN", 1)
    ctf_enum_range ("BLUES", 10, 19)
    ctf_enum_value ("NEGATIVE", -3)
  )
)

TRACEPOINT_EVENT (ttv_test, integers,
  TP_ARGS (int64_t, v),
  TP_FIELDS (
    ctf_integer (int8_t, s8, v)
    ctf_integer (uint8_t, u8, v)
    ctf_integer (int16_t, s16, TTV_TEST_MUL (v, 3))
    ctf_integer (uint16_t, u16, TTV_TEST_MUL (v, 3))
    ctf_integer (int32_t, s32, TTV_TEST_MUL (v, 100003))
    ctf_integer (uint32_t, u32, TTV_TEST_MUL (v, 100003))
    ctf_integer (int64_t, s64, TTV_TEST_MUL (v, 1000000007))
    ctf_integer (uint64_t, u64, (uint64_t) v * 1000000007ULL)
    ctf_integer_hex (uint8_t, x8, v)
    ctf_integer_hex (uint16_t, x16, TTV_TEST_MUL (v, 3))
    ctf_integer_hex (uint32_t, x32, TTV_TEST_MUL (v, 100003))
    ctf_integer_hex (uint64_t, x64, (uint64_t) v * 1000000007ULL)
    ctf_integer_hex (int32_t, sx32, v)
    ctf_integer_network (uint32_t, net32, TTV_TEST_MUL (v, 100003))
    ctf_integer_network_hex (uint16_t, netx16, TTV_TEST_MUL (v, 3))
  )
)

TRACEPOINT_EVENT (ttv_test, enums_floats,
  TP_ARGS (int, v, double, d),
  TP_FIELDS (
    ctf_enum (ttv_test, color, int, color, v)
    ctf_enum (ttv_test, color, int8_t, small_color, v)
    ctf_float (float, f, (float) d)
    ctf_float (double, d, d)
  )
)

TRACEPOINT_EVENT (ttv_test, texts,
  TP_ARGS (const char *, s, const char *, padded, const int32_t *, values, unsigned int, n),
  TP_FIELDS (
    ctf_string (str, s)
    ctf_sequence (int32_t, seq, values, unsigned int, n)
    ctf_sequence_hex (uint8_t, seq_hex, (const uint8_t *) values, size_t, n)
    ctf_array (int32_t, arr, values, 4)
    ctf_array_hex (uint16_t, arr_hex, (const uint16_t *) values, 3)
    ctf_sequence_text (char, seq_text, s, unsigned int, n)
    ctf_array_text (char, arr_text, padded, 8)
    ctf_string (empty, "")
  )
)

TRACEPOINT_EVENT (ttv_test, empty,
  TP_ARGS (),
  TP_FIELDS ()
)

#endif /* TTV_TEST_TP_H */

#include <lttng/tracepoint-event.h>

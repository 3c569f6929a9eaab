/* ttv-bench-tp.h: the LTTng-UST tracepoint provider "ttv_bench" of the
 * recorded userspace benchmark trace (bench/record-ust): the field kinds of
 * real applications (integers, strings, floats, sequences, enums). */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ttv_bench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./ttv-bench-tp.h"

#if !defined(TTV_BENCH_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define TTV_BENCH_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

TRACEPOINT_ENUM (ttv_bench, outcome,
  TP_ENUM_VALUES (
    ctf_enum_value ("OK", 0)
    ctf_enum_value ("RETRY", 1)
    ctf_enum_range ("CLIENT_ERROR", 400, 499)
    ctf_enum_range ("SERVER_ERROR", 500, 599)
  )
)

/* A request arrives: ids, a path string, a small header array. */
TRACEPOINT_EVENT (ttv_bench, request_begin,
  TP_ARGS (uint64_t, id, const char *, path, int32_t, client, const uint16_t *, ports),
  TP_FIELDS (
    ctf_integer (uint64_t, id, id)
    ctf_string (path, path)
    ctf_integer (int32_t, client, client)
    ctf_array (uint16_t, ports, ports, 2)
  )
)

/* A request ends: its outcome (an enum), its latency (a double), bytes. */
TRACEPOINT_EVENT (ttv_bench, request_end,
  TP_ARGS (uint64_t, id, int, outcome, double, latency, uint32_t, bytes),
  TP_FIELDS (
    ctf_integer (uint64_t, id, id)
    ctf_enum (ttv_bench, outcome, int, outcome, outcome)
    ctf_float (double, latency_ms, latency)
    ctf_integer (uint32_t, bytes, bytes)
  )
)

/* A batch of samples: a sequence of integers and one of floats-as-ints, a float. */
TRACEPOINT_EVENT (ttv_bench, samples,
  TP_ARGS (const int32_t *, values, unsigned int, n, float, mean),
  TP_FIELDS (
    ctf_sequence (int32_t, values, values, unsigned int, n)
    ctf_float (float, mean, mean)
    ctf_integer_hex (uint32_t, flags, n * 0x11u)
  )
)

/* A log message: a level, a short text array and a string. */
TRACEPOINT_EVENT (ttv_bench, log,
  TP_ARGS (int, level, const char *, module, const char *, msg),
  TP_FIELDS (
    ctf_integer (int8_t, level, level)
    ctf_array_text (char, module, module, 8)
    ctf_string (msg, msg)
  )
)

/* A lock taken: an address and a wait time (a hot, small event). */
TRACEPOINT_EVENT (ttv_bench, lock,
  TP_ARGS (const void *, addr, uint32_t, wait_ns),
  TP_FIELDS (
    ctf_integer_hex (uintptr_t, addr, (uintptr_t) addr)
    ctf_integer (uint32_t, wait_ns, wait_ns)
  )
)

#endif /* TTV_BENCH_TP_H */

#include <lttng/tracepoint-event.h>

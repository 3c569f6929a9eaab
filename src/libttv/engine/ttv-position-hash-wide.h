/* ttv-position-hash-wide.h: the checksums of sixteen position tokens at
 * once with AVX2 (x86 only, where the CPU has it).  A token's checksum is
 * a chain of dependent multiplications, one a byte (FNV-1a); sixteen
 * tokens' chains run in the 32-bit lanes of two registers, so that one
 * multiplication's latency serves sixteen bytes, not one or eight.  The
 * deferred token writer (ttv-position-token.c) hashes its tokens so. */
#pragma once

#include "ttv-position-private.h"
#include "ttv-cpu.h"

G_BEGIN_DECLS

/* Tokens hashed at once. */
#define TTV_POSITION_HASH_WIDE_N 16

#if defined(__x86_64__) || defined(__i386__)
#define TTV_POSITION_HASH_WIDE 1

/* Where ttv_cpu_has_avx2 (), sets @h[i] to ttv_position_token_hash
 * (@start, @base + i * @stride, @len[i]) for the sixteen i.  Reads whole
 * 16-byte rows of every token: the longest @len rounded up to 16 bytes
 * must be readable from each @base + i * @stride (the bytes past a
 * token's @len[i] do not count).  Each @len[i] is below 2^31. */
void ttv_position_token_hash_sixteen (const guint8 *base, gsize stride, const guint32 len[TTV_POSITION_HASH_WIDE_N],
                                      guint32 start, guint32 h[TTV_POSITION_HASH_WIDE_N]);
#endif

G_END_DECLS

/* ttv-position-hash-wide.c: sixteen tokens' checksums with AVX2 (see
 * ttv-position-hash-wide.h).  The tokens lie in rows, one a token; each
 * turn reads 16 bytes of each of the sixteen rows and transposes that
 * 16 x 16 block, so that each of its columns holds one byte position of
 * the sixteen tokens; a column widened to 32-bit lanes (eight tokens a
 * register) is one FNV-1a step of eight chains: an xor and a 32-bit
 * multiplication.  A token shorter than the column's position keeps its
 * hash (a compare and a blend, no branch). */
#include "ttv-position-hash-wide.h"

#ifdef TTV_POSITION_HASH_WIDE

#include <immintrin.h>

/* Transposes the 16 x 16 bytes of @r in place: byte j of row i goes to
 * byte i of row j.  Four rounds of interleaving, each doubling the width
 * of what is interleaved (bytes, pairs, fours, eights). */
__attribute__ ((target ("avx2"))) static inline void
transpose_16x16 (__m128i r[16])
{
  __m128i a[16], b[16];
  /* a[2p]: the pairs (row 2p, row 2p + 1) of bytes 0-7; a[2p + 1]: 8-15. */
  for (guint p = 0; p < 8; p++)
    {
      a[2 * p] = _mm_unpacklo_epi8 (r[2 * p], r[2 * p + 1]);
      a[2 * p + 1] = _mm_unpackhi_epi8 (r[2 * p], r[2 * p + 1]);
    }
  /* b[4q + m]: the fours (rows 4q to 4q + 3) of bytes 4m to 4m + 3. */
  for (guint q = 0; q < 4; q++)
    {
      b[4 * q + 0] = _mm_unpacklo_epi16 (a[4 * q], a[4 * q + 2]);
      b[4 * q + 1] = _mm_unpackhi_epi16 (a[4 * q], a[4 * q + 2]);
      b[4 * q + 2] = _mm_unpacklo_epi16 (a[4 * q + 1], a[4 * q + 3]);
      b[4 * q + 3] = _mm_unpackhi_epi16 (a[4 * q + 1], a[4 * q + 3]);
    }
  /* a[t] (rows 0-7) and a[8 + t] (rows 8-15): the eights of bytes 2t and
   * 2t + 1. */
  for (guint m = 0; m < 4; m++)
    {
      a[2 * m] = _mm_unpacklo_epi32 (b[m], b[4 + m]);
      a[2 * m + 1] = _mm_unpackhi_epi32 (b[m], b[4 + m]);
      a[8 + 2 * m] = _mm_unpacklo_epi32 (b[8 + m], b[12 + m]);
      a[8 + 2 * m + 1] = _mm_unpackhi_epi32 (b[8 + m], b[12 + m]);
    }
  for (guint t = 0; t < 8; t++)
    {
      r[2 * t] = _mm_unpacklo_epi64 (a[t], a[8 + t]);
      r[2 * t + 1] = _mm_unpackhi_epi64 (a[t], a[8 + t]);
    }
}

/* One step of eight chains @h: of the bytes @bytes (widened), where the
 * token is longer than the step's position (@live). */
__attribute__ ((target ("avx2"))) static inline __m256i
step_eight (__m256i h, __m256i bytes, __m256i live, __m256i prime)
{
  __m256i next = _mm256_mullo_epi32 (_mm256_xor_si256 (h, bytes), prime);
  return _mm256_blendv_epi8 (h, next, live);
}

__attribute__ ((target ("avx2"))) void
ttv_position_token_hash_sixteen (const guint8 *base, gsize stride, const guint32 len[TTV_POSITION_HASH_WIDE_N],
                                 guint32 start, guint32 h[TTV_POSITION_HASH_WIDE_N])
{
  const __m256i prime = _mm256_set1_epi32 (16777619);
  const __m256i len_lo = _mm256_loadu_si256 ((const __m256i *) len);
  const __m256i len_hi = _mm256_loadu_si256 ((const __m256i *) (len + 8));
  __m256i h_lo = _mm256_set1_epi32 ((int) start), h_hi = h_lo;
  guint32 shortest = G_MAXUINT32, longest = 0;
  for (guint i = 0; i < TTV_POSITION_HASH_WIDE_N; i++)
    {
      shortest = MIN (shortest, len[i]);
      longest = MAX (longest, len[i]);
    }
  for (guint32 k = 0; k < longest; k += 16)
    {
      __m128i r[16];
      for (guint i = 0; i < 16; i++)
        r[i] = _mm_loadu_si128 ((const __m128i *) (base + i * stride + k));
      transpose_16x16 (r);
      guint32 n = MIN (16, longest - k), j = 0;
      /* Every token is longer than k + j: the chains' steps alone (an
       * xor and a multiplication of latency), no blend after them. */
      for (; k + j < shortest && j < n; j++)
        {
          h_lo = _mm256_mullo_epi32 (_mm256_xor_si256 (h_lo, _mm256_cvtepu8_epi32 (r[j])), prime);
          h_hi = _mm256_mullo_epi32 (_mm256_xor_si256 (h_hi, _mm256_cvtepu8_epi32 (_mm_srli_si128 (r[j], 8))),
                                     prime);
        }
      for (; j < n; j++)
        {
          /* The tokens longer than k + j: len > k + j, as signed. */
          __m256i at = _mm256_set1_epi32 ((int) (k + j));
          __m256i live_lo = _mm256_cmpgt_epi32 (len_lo, at), live_hi = _mm256_cmpgt_epi32 (len_hi, at);
          h_lo = step_eight (h_lo, _mm256_cvtepu8_epi32 (r[j]), live_lo, prime);
          h_hi = step_eight (h_hi, _mm256_cvtepu8_epi32 (_mm_srli_si128 (r[j], 8)), live_hi, prime);
        }
    }
  _mm256_storeu_si256 ((__m256i *) h, h_lo);
  _mm256_storeu_si256 ((__m256i *) (h + 8), h_hi);
}

#endif

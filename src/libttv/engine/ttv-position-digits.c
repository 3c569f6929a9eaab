/* ttv-position-digits.c: a token's base32 digits with AVX2 (see
 * ttv-position-digits.h).  Ten bytes give sixteen digits: a shuffle puts,
 * for each digit, the two bytes its five bits lie in into a 16-bit lane
 * (big-endian), a multiply by a power of two per lane shifts its bits to
 * the bottom of the lane's high half, and two 16-byte table lookups (the
 * alphabet's two halves) turn the values into letters; the register's two
 * halves do that for twenty bytes. */
#include "ttv-position-digits.h"

#ifdef TTV_POSITION_DIGITS_WIDE

#include <immintrin.h>

/* Digit k (0 to 15) of ten bytes is their bits 5k to 5k + 4, most
 * significant first: in byte 5k / 8 and the next, at 5k % 8 from the
 * top.  Lane k gets those two bytes, the first as its high byte (the
 * ten bytes' last digit lies in the last byte: 0x80 writes a zero). */
static const guint8 lanes_lo[16] = { 1, 0, 1, 0, 2, 1, 2, 1, 3, 2, 4, 3, 4, 3, 5, 4 };
static const guint8 lanes_hi[16] = { 6, 5, 6, 5, 7, 6, 7, 6, 8, 7, 9, 8, 9, 8, 0x80, 9 };
/* The lane times 2^(5 + 5k % 8), high half: the lane shifted right by
 * 11 - 5k % 8, the digit's bits lowest. */
static const guint16 shifts[8] = { 1 << 5, 1 << 10, 1 << 7, 1 << 12, 1 << 9, 1 << 6, 1 << 11, 1 << 8 };

/* The same 16 bytes in both halves of a 256-bit register (the shuffles
 * and lookups work within each half). */
__attribute__ ((target ("avx2"))) static inline __m256i
both_halves (const void *p)
{
  return _mm256_broadcastsi128_si256 (_mm_loadu_si128 ((const __m128i *) p));
}

__attribute__ ((target ("avx2"))) gsize
ttv_position_put_digits_wide (char *s, guint8 *b, gsize len, gsize first_group)
{
  memset (b + len, 0, 4);
  return ttv_position_put_digits_wide_padded (s, b, len, first_group);
}

__attribute__ ((target ("avx2"))) gsize
ttv_position_put_digits_wide_padded (char *s, const guint8 *b, gsize len, gsize first_group)
{
  const __m256i lo_lanes = both_halves (lanes_lo);
  const __m256i hi_lanes = both_halves (lanes_hi);
  const __m256i mul = both_halves (shifts);
  const __m256i five_bits = _mm256_set1_epi16 (31);
  const __m256i low_half = both_halves ("0123456789abcdef");
  const __m256i high_half = both_halves ("ghjkmnpqrstvwxyz");
  /* Added to a value (0 to 31), the index of each half's lookup: its
   * value in the low nibble, the top bit (a zero) for the other half. */
  const __m256i to_low = _mm256_set1_epi8 (0x70);
  const __m256i to_high = _mm256_set1_epi8 ((char) 0xf0);
  gsize groups = (len + 4) / 5;
  /* Four groups a turn: ten bytes in each half. */
  for (gsize g = first_group; g < groups; g += 4)
    {
      const guint8 *at = b + g * 5;
      __m256i bytes = _mm256_inserti128_si256 (_mm256_castsi128_si256 (_mm_loadu_si128 ((const __m128i *) at)),
                                               _mm_loadu_si128 ((const __m128i *) (at + 10)), 1);
      __m256i lo = _mm256_and_si256 (_mm256_mulhi_epu16 (_mm256_shuffle_epi8 (bytes, lo_lanes), mul), five_bits);
      __m256i hi = _mm256_and_si256 (_mm256_mulhi_epu16 (_mm256_shuffle_epi8 (bytes, hi_lanes), mul), five_bits);
      __m256i v = _mm256_packus_epi16 (lo, hi);
      __m256i text = _mm256_or_si256 (_mm256_shuffle_epi8 (low_half, _mm256_add_epi8 (v, to_low)),
                                      _mm256_shuffle_epi8 (high_half, _mm256_add_epi8 (v, to_high)));
      _mm256_storeu_si256 ((__m256i *) (s + g * 8), text);
    }
  return (len * 8 + 4) / 5;
}

#endif

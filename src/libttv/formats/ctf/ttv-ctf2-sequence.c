/* ttv-ctf2-sequence.c: the first pass of the CTF 2 metadata reader: the
 * metadata text (a plain file or unpacked from metadata packets by
 * ttv-ctf-metadata.c) as an RFC 7464 JSON text sequence of fragments. */
#include "ttv-ctf2-private.h"

#include <string.h>

#define RS '\x1e'

gboolean
ttv_ctf2_text_is_json_sequence (const char *text, gsize len)
{
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == RS)
        return TRUE;
      if (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r')
        return FALSE;
    }
  return FALSE;
}

GArray *
ttv_ctf2_split_sequence (const char *text, gsize len)
{
  GArray *records = g_array_new (FALSE, FALSE, sizeof (Ctf2Record));
  const char *p = memchr (text, RS, len);
  while (p)
    {
      gsize start = (gsize) (p - text) + 1;
      const char *next = memchr (text + start, RS, len - start);
      gsize end = next ? (gsize) (next - text) : len;
      /* RS alone or with white space only: nothing (RFC 7464 allows it). */
      gboolean blank = TRUE;
      for (gsize i = start; i < end && blank; i++)
        blank = text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r';
      if (!blank)
        {
          /* RFC 7464 ends each text with a line feed; the last one
           * without it may still be being written. */
          Ctf2Record r = { start, end - start, next != NULL || text[end - 1] == '\n' };
          g_array_append_val (records, r);
        }
      p = next;
    }
  return records;
}

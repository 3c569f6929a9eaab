/* fuzz-ctf-metadata.c: libFuzzer target feeding arbitrary bytes to the CTF
 * metadata passes (packetized unpacking, TSDL lexer, parser, resolution).
 * Built twice: fuzz-ctf-metadata, and with TTV_FUZZ_TSDL_ONLY fuzz-ctf-tsdl,
 * which feeds the TSDL passes text alone, with a dictionary of TSDL's
 * words (tsdl.dict). */
#include "ttv-ctf-private.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GError *error = NULL;
  char *text;
  gsize len = 0;
#ifdef TTV_FUZZ_TSDL_ONLY
  if (FALSE)
#else
  if (size >= 4 && ttv_ctf_metadata_looks_valid (data, size) && memcmp (data, "/* CTF", MIN (size, 6)) != 0)
#endif
    {
      text = ttv_ctf_metadata_unpack (data, size, "fuzz-metadata", &len, &error);
      if (text == NULL)
        {
          g_assert (error != NULL && strncmp (error->message, "fuzz-metadata", 13) == 0);
          g_error_free (error);
          return 0;
        }
    }
  else
    {
      /* The reader refuses NUL bytes in text metadata; the parser sees text. */
      len = strnlen ((const char *) data, size);
      text = g_strndup ((const char *) data, len);
    }
  CtfMeta *m = ttv_ctf_parse (text, len, "fuzz-metadata", &error);
  if (m == NULL)
    {
      /* Every refusal is a GError naming the file (and a line and column). */
      g_assert (error != NULL && strncmp (error->message, "fuzz-metadata", 13) == 0);
      g_error_free (error);
      g_free (text);
      return 0;
    }
  g_assert (error == NULL);
  for (guint i = 0; i < m->events->len; i++)
    {
      CtfEventClass *ec = g_ptr_array_index (m->events, i);
      if (ec->fields)
        g_free (ttv_type_dup_signature (ec->fields));
    }
  for (guint i = 0; i < m->clocks->len; i++)
    (void) ttv_ctf_clock_to_time (g_ptr_array_index (m->clocks, i), G_MAXUINT64);
  ttv_ctf_meta_free (m);
  g_free (text);
  return 0;
}

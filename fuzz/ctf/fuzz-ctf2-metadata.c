/* fuzz-ctf2-metadata.c: libFuzzer target for the CTF 2 metadata reader:
 * arbitrary bytes through the JSON text sequence, the JSON parser, the
 * validation and the conversion (plain and packetized, whole and
 * following a live trace); then each event's fields decoded from the
 * input's own bytes, which exercises the CTF 2 field classes. */
#include "ttv-ctf2-private.h"

#include <string.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
decode_all (const CtfMeta *m, const guint8 *data, size_t size)
{
  TtvDecoder *d = ttv_decoder_new ();
  for (guint i = 0; i < m->events->len; i++)
    {
      const CtfEventClass *ec = g_ptr_array_index (m->events, i);
      if (ec->fields == NULL)
        continue;
      GError *error = NULL;
      guint64 pos = 0;
      ttv_decoder_reset (d);
      gint32 root = ttv_decoder_decode (d, ec->fields, "event.fields", data, (guint64) size * 8, &pos, &error);
      if (root >= 0)
        {
          GString *out = g_string_new (NULL);
          ttv_decoder_append_value (d, (guint32) root, TTV_VALUE_STYLE_JSON, out);
          ttv_decoder_append_value (d, (guint32) root, TTV_VALUE_STYLE_PLAIN, out);
          g_string_free (out, TRUE);
        }
      else
        g_error_free (error);
      g_free (ttv_type_dup_signature (ec->fields));
    }
  ttv_decoder_free (d);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  GError *error = NULL;
  char *text;
  gsize len = 0;
  if (size >= 4 && ttv_ctf_metadata_looks_valid (data, size) && data[0] != 0x1E)
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
    text = g_strndup ((const char *) data, len = strnlen ((const char *) data, size));
  for (int whole_only = 0; whole_only < 2; whole_only++)
    {
      CtfMeta *m = ttv_ctf2_parse (text, len, "fuzz-metadata", whole_only, &error);
      if (m == NULL)
        {
          /* Every refusal is a GError naming the file (and where in it). */
          g_assert (error != NULL && strncmp (error->message, "fuzz-metadata", 13) == 0);
          g_clear_error (&error);
          continue;
        }
      g_assert (error == NULL);
      decode_all (m, data, size);
      for (guint i = 0; i < m->clocks->len; i++)
        (void) ttv_ctf_clock_to_time (g_ptr_array_index (m->clocks, i), G_MAXUINT64);
      ttv_ctf_meta_free (m);
    }
  g_free (text);
  return 0;
}

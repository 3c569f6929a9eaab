/* ttv-ctf-metadata.c: the first pass of the CTF reader, bytes in: a metadata
 * file, plain text or packetized (magic 0x75D11D57, either byte order), whose
 * text is TSDL (CTF 1.8) or a JSON text sequence (CTF 2). */
#include "ttv-ctf2-private.h"
#include "ttv-regular-file.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* magic, uuid[16], checksum, content_size, packet_size (bits),
 * compression, encryption, checksum schemes, major, minor. */
#define METADATA_HEADER_BYTES 37

static guint32
read_u32 (const guint8 *p, gboolean big)
{
  guint32 v;
  memcpy (&v, p, 4);
  return big ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

gboolean
ttv_ctf_metadata_looks_valid (const guint8 *data, gsize len)
{
  if (len >= 4 && (read_u32 (data, FALSE) == TTV_CTF_METADATA_MAGIC
                   || read_u32 (data, TRUE) == TTV_CTF_METADATA_MAGIC))
    return TRUE;
  if (ttv_ctf2_text_is_json_sequence ((const char *) data, len))
    return TRUE;
  return len >= 6 && memcmp (data, "/* CTF", 6) == 0;
}

CtfMeta *
ttv_ctf_metadata_parse (const char *text, gsize len, const char *path, gboolean whole_only,
                        GError **error)
{
  if (ttv_ctf2_text_is_json_sequence (text, len))
    return ttv_ctf2_parse (text, len, path, whole_only, error);
  return ttv_ctf_parse (text, len, path, error);
}

char *
ttv_ctf_metadata_unpack (const guint8 *data, gsize len, const char *path, gsize *out_len,
                         GError **error)
{
  g_autoptr (GString) text = g_string_new (NULL);
  gsize pos = 0;
  gboolean big = read_u32 (data, TRUE) == TTV_CTF_METADATA_MAGIC;
  while (pos < len)
    {
      if (len - pos < METADATA_HEADER_BYTES)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_TRUNCATED,
                       _("%s: metadata packet header truncated at byte offset %zu"),
                       path, pos);
          return NULL;
        }
      const guint8 *p = data + pos;
      if (read_u32 (p, big) != TTV_CTF_METADATA_MAGIC)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                       _("%s: bad metadata packet magic 0x%08x at byte offset %zu"),
                       path, read_u32 (p, big), pos);
          return NULL;
        }
      guint32 content_bits = read_u32 (p + 24, big);
      guint32 packet_bits = read_u32 (p + 28, big);
      guint8 compression = p[32], encryption = p[33];
      if (compression != 0 || encryption != 0)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_UNSUPPORTED,
                       _("%s: compressed or encrypted metadata packet at byte offset %zu"),
                       path, pos);
          return NULL;
        }
      if (content_bits % 8 || packet_bits % 8 || content_bits > packet_bits
          || content_bits / 8 < METADATA_HEADER_BYTES || packet_bits / 8 > len - pos)
        {
          g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                       _("%s: metadata packet at byte offset %zu has inconsistent sizes"
                         " (content %u bits, packet %u bits, %zu bytes left)"),
                       path, pos, content_bits, packet_bits, len - pos);
          return NULL;
        }
      g_string_append_len (text, (const char *) p + METADATA_HEADER_BYTES,
                           content_bits / 8 - METADATA_HEADER_BYTES);
      pos += packet_bits / 8;
    }
  /* The lexer stops at a NUL: a packet padded with zeros would end the text. */
  const char *nul = memchr (text->str, '\0', text->len);
  if (nul)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: the metadata text holds a NUL byte at offset %zu of the text"), path,
                   (gsize) (nul - text->str));
      return NULL;
    }
  *out_len = text->len;
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* Bytes of @data that are whole metadata packets: a packet still being
 * written is left for later.  Damage stays in the prefix, for the unpacker
 * to report. */
static gsize
whole_metadata_packets (const guint8 *data, gsize len)
{
  gboolean big = read_u32 (data, TRUE) == TTV_CTF_METADATA_MAGIC;
  gsize pos = 0;
  while (pos < len)
    {
      if (len - pos < METADATA_HEADER_BYTES)
        return pos;
      const guint8 *p = data + pos;
      guint32 packet_bits = read_u32 (p + 28, big);
      if (read_u32 (p, big) != TTV_CTF_METADATA_MAGIC || packet_bits < METADATA_HEADER_BYTES * 8)
        return len;
      if (packet_bits / 8 > len - pos)
        return pos;
      pos += packet_bits / 8;
    }
  return pos;
}

#define TTV_CTF_METADATA_MAX_BYTES ((gsize) 1 << 30)

char *
ttv_ctf_metadata_load (const char *path, gboolean live, gsize *len, gboolean *packetized,
                       guint64 *file_size, GError **error)
{
  g_autofree char *contents = NULL;
  gsize size = 0;
  g_autoptr (GError) local = NULL;
  /* A metadata file is text of a few megabytes at most: a FIFO or a
   * device in its place must neither block nor be read forever. */
  if (!ttv_regular_file_read (path, TTV_CTF_METADATA_MAX_BYTES, &contents, &size, &local))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO, "%s", local->message);
      return NULL;
    }
  if (file_size)
    *file_size = size;
  const guint8 *data = (const guint8 *) contents;
  *packetized = size >= 4 && (read_u32 (data, FALSE) == TTV_CTF_METADATA_MAGIC
                              || read_u32 (data, TRUE) == TTV_CTF_METADATA_MAGIC);
  if (*packetized)
    return ttv_ctf_metadata_unpack (data, live ? whole_metadata_packets (data, size) : size, path, len,
                                    error);
  *len = size;
  return g_steal_pointer (&contents);
}

char *
ttv_ctf_metadata_read (const char *path, gsize *len, GError **error)
{
  gboolean packetized = FALSE;
  gsize size = 0;
  g_autofree char *text = ttv_ctf_metadata_load (path, FALSE, &size, &packetized, NULL, error);
  if (text == NULL)
    return NULL;
  const char *nul = packetized ? NULL : memchr (text, '\0', size);
  if (nul)
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: neither packetized metadata nor text (NUL byte at byte offset %zu)"), path,
                   (gsize) (nul - text));
      return NULL;
    }
  *len = size;
  return g_steal_pointer (&text);
}

/* LTTng cuts its metadata into packets anywhere, even inside a
 * declaration or a JSON fragment; the rest comes with the next packet. */
char *
ttv_ctf_metadata_read_complete (const char *path, gsize *out_len, guint64 *size, GError **error)
{
  gsize len = 0;
  gboolean packetized;
  g_autofree char *contents = ttv_ctf_metadata_load (path, TRUE, &len, &packetized, size, error);
  if (contents == NULL)
    return NULL;
  if (ttv_ctf2_text_is_json_sequence (contents, len))
    {
      /* CTF 2: whole fragments, up to the last one ended by a line feed. */
      const char *last_rs = memrchr (contents, '\x1e', len);
      gsize cut = len > 0 && contents[len - 1] == '\n' ? len : (gsize) (last_rs - contents);
      contents[cut] = '\0';
      *out_len = cut;
      return g_steal_pointer (&contents);
    }
  gsize cut = 0;
  for (gsize i = 0; i + 2 < len; i++)
    if (contents[i] == '\n' && contents[i + 1] == '}' && contents[i + 2] == ';')
      cut = i + 3;
  if (memchr (contents, '\0', cut))
    {
      g_set_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT,
                   _("%s: neither packetized metadata nor text (NUL byte found)"), path);
      return NULL;
    }
  contents[cut] = '\0';
  *out_len = cut;
  return g_steal_pointer (&contents);
}

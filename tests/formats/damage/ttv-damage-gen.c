/* ttv-damage-gen.c: the damaged-trace generator (see ttv-damage-gen.h).
 * Knows of each format only where its files and size fields are. */
#include "ttv-damage-gen.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void
ttv_damage_variant_free (TtvDamageVariant *v)
{
  if (v == NULL)
    return;
  g_free (v->name);
  g_free (v->file);
  g_free (v->source);
  g_free (v);
}

/* --- Reading the good trace -------------------------------------------------- */

static gint
compare_paths (gconstpointer a, gconstpointer b)
{
  const char *x = *(char * const *) a, *y = *(char * const *) b;
  /* cpu/10 after cpu/9: shorter first, then by bytes. */
  gsize lx = strlen (x), ly = strlen (y);
  return lx != ly ? (lx < ly ? -1 : 1) : strcmp (x, y);
}

/* The tracefiles of the trace, relative to it, in the reader's order. */
static GPtrArray *
list_tracefiles (const char *trace_dir, const char *format)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  gboolean ltt = strcmp (format, "ltt") == 0;
  g_autofree char *dir = ltt ? g_build_filename (trace_dir, "cpu", NULL) : g_strdup (trace_dir);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *full = g_build_filename (dir, name, NULL);
      if (!g_file_test (full, G_FILE_TEST_IS_REGULAR) || name[0] == '.')
        continue;
      if (strcmp (format, "lttng") == 0 && !g_str_has_prefix (name, "cpu_"))
        continue;
      if (strcmp (format, "ctf") == 0 && strcmp (name, "metadata") == 0)
        continue;
      g_ptr_array_add (out, ltt ? g_build_filename ("cpu", name, NULL) : g_strdup (name));
    }
  g_ptr_array_sort (out, compare_paths);
  return out;
}

static guint8 *
read_file (const char *trace_dir, const char *rel, gsize *len)
{
  g_autofree char *path = g_build_filename (trace_dir, rel, NULL);
  char *data = NULL;
  if (!g_file_get_contents (path, &data, len, NULL))
    g_error ("cannot read %s", path);
  return (guint8 *) data;
}

static guint64
read_uint (const guint8 *p, guint width, gboolean big)
{
  guint64 v = 0;
  for (guint i = 0; i < width; i++)
    v |= (guint64) p[big ? width - 1 - i : i] << (8 * i);
  return v;
}

/* --- Building the list ---------------------------------------------------------- */

static TtvDamageVariant *
add (GPtrArray *out, TtvDamageKind kind, const char *file, gboolean loses, const char *fmt, ...)
  G_GNUC_PRINTF (5, 6);

static TtvDamageVariant *
add (GPtrArray *out, TtvDamageKind kind, const char *file, gboolean loses, const char *fmt, ...)
{
  TtvDamageVariant *v = g_new0 (TtvDamageVariant, 1);
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *what = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  v->name = g_strdup_printf ("%s: %s", file, what);
  v->kind = kind;
  v->file = g_strdup (file);
  v->loses_events = loses;
  g_ptr_array_add (out, v);
  return v;
}

static void
add_zero (GPtrArray *out, const char *file, guint64 offset, guint width, gboolean loses, const char *field)
{
  TtvDamageVariant *v = add (out, TTV_DAMAGE_ZERO, file, loses, "%s at byte %" G_GUINT64_FORMAT " set to 0",
                             field, offset);
  v->offset = offset;
  v->width = width;
}

/* Cuts inside the first block, in the middle, and one byte short: never
 * at a block or packet boundary, which sizes in multiples of 8 rule out.
 * A CTF cut may fall in a packet's padding and lose nothing (@loses). */
static void
add_cuts (GPtrArray *out, const char *file, gsize len, gsize block, gboolean loses)
{
  guint64 at[] = { MIN (block / 2, len / 2) + 13, len / 2 + 7, len - 1 };
  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    if (at[i] < len && (i == 0 || at[i] != at[i - 1]))
      add (out, TTV_DAMAGE_TRUNCATE, file, loses, "truncated at %" G_GUINT64_FORMAT, at[i])->offset = at[i];
}

/* Half of the flips in block headers (where sizes and clocks are), the
 * others anywhere. */
static void
add_flips (GPtrArray *out, const char *file, gsize len, gsize block, GRand *r, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 off;
      if (i % 2 == 0)
        {
          guint64 n_blocks = MAX (len / block, 1);
          off = (guint64) g_rand_int_range (r, 0, (gint32) MIN (n_blocks, 1000)) * block
                + (guint64) g_rand_int_range (r, 0, 64);
        }
      else
        off = (guint64) g_rand_int_range (r, 0, (gint32) MIN (len, (gsize) G_MAXINT32));
      if (off >= len)
        off = len - 1;
      guint bit = (guint) g_rand_int_range (r, 0, 8);
      TtvDamageVariant *v = add (out, TTV_DAMAGE_FLIP, file, FALSE, "bit %u of byte %" G_GUINT64_FORMAT
                                 " flipped", bit, off);
      v->offset = off;
      v->bit = bit;
    }
}

static void
add_not_files (GPtrArray *out, const char *file, gboolean empty_loses)
{
  add (out, TTV_DAMAGE_FOLDER, file, TRUE, "a folder");
  add (out, TTV_DAMAGE_FIFO, file, TRUE, "a FIFO");
  add (out, TTV_DAMAGE_LINK_LOOP, file, TRUE, "a symbolic link to itself");
  add (out, TTV_DAMAGE_LINK_DEVICE, file, TRUE, "a symbolic link to /dev/zero");
  add (out, TTV_DAMAGE_EMPTY, file, empty_loses, "an empty file")->only_warned = !empty_loses;
}

static guint
ltt_block_size (const char *trace_dir)
{
  g_autofree char *sys = g_build_filename (trace_dir, "info", "system.xml", NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents (sys, &text, NULL, NULL))
    g_error ("cannot read %s", sys);
  const char *p = strstr (text, "ltt_block_size=");
  g_assert_nonnull (p);
  p += strlen ("ltt_block_size=");
  if (*p == '"' || *p == '\'')
    p++;
  return (guint) strtoul (p, NULL, 10);
}

static void
add_ltt (GPtrArray *out, const char *trace_dir, const char *file, gsize len, GRand *r, guint n_flips)
{
  guint block = ltt_block_size (trace_dir);
  add_cuts (out, file, len, block, TRUE);
  add_flips (out, file, len, block, r, n_flips);
  /* The offset of block_end, in the last 4 bytes of the last block. */
  if (len >= block)
    add_zero (out, file, (len / block) * block - 4, 4, TRUE, "the last-event offset");
}

static void
add_lttng (GPtrArray *out, const char *file, const guint8 *data, gsize len, GRand *r, guint n_flips)
{
  enum { OFF_LOST_SIZE = 32, OFF_BUF_SIZE = 36, OFF_MAGIC = 40 };
  gboolean big = read_uint (data + OFF_MAGIC, 4, FALSE) != 0x00D6B7EDu;
  guint block = (guint) read_uint (data + OFF_BUF_SIZE, 4, big);
  g_assert_cmpuint (block, >, 0);
  add_cuts (out, file, len, block, TRUE);
  add_flips (out, file, len, block, r, n_flips);
  add_zero (out, file, OFF_BUF_SIZE, 4, TRUE, "the first block's buf_size");
  /* Not always damage (a full block has no padding), so only checked to
   * add no event. */
  add_zero (out, file, (len / block - 1) * block + OFF_LOST_SIZE, 4, FALSE, "the last block's lost_size");
}

/* Whether the CTF stream @file has an LTTng index that lists packets
 * (more than its 16-byte header), which says the stream should be there. */
static gboolean
ctf_index_lists_packets (const char *trace_dir, const char *file)
{
  g_autofree char *idx_name = g_strconcat (file, ".idx", NULL);
  g_autofree char *idx = g_build_filename (trace_dir, "index", idx_name, NULL);
  GStatBuf st;
  return g_stat (idx, &st) == 0 && S_ISREG (st.st_mode) && st.st_size > 16;
}

/* Where the CTF packet context holds content_size and packet_size: the
 * first pair of 64-bit values after the header with content <= packet, a
 * whole number of bytes no larger than the file (LTTng's layout, which
 * ttv-gen writes). */
static gboolean
find_ctf_sizes (const guint8 *data, gsize len, gboolean big, guint *content_off)
{
  for (guint off = 24; off + 16 <= MIN (len, 160); off += 8)
    {
      guint64 content = read_uint (data + off, 8, big), packet = read_uint (data + off + 8, 8, big);
      if (packet >= 512 && packet % 8 == 0 && packet / 8 <= len && content <= packet && content > off * 8)
        {
          *content_off = off;
          return TRUE;
        }
    }
  return FALSE;
}

static void
add_ctf (GPtrArray *out, const char *trace_dir, const char *file, const guint8 *data, gsize len, GRand *r,
         guint n_flips)
{
  gboolean big = read_uint (data, 4, FALSE) != 0xC1FC1FC1u;
  guint content_off = 0;
  if (!find_ctf_sizes (data, len, big, &content_off))
    g_error ("%s: no packet_size field found in the first packet", file);
  guint64 first_packet = read_uint (data + content_off + 8, 8, big) / 8;
  add_cuts (out, file, len, first_packet, FALSE);
  add_flips (out, file, len, first_packet, r, n_flips);
  /* The first and the last packet's sizes. */
  guint64 last = 0;
  for (guint64 at = 0; at + content_off + 16 <= len;)
    {
      guint64 size = read_uint (data + at + content_off + 8, 8, big) / 8;
      if (size == 0 || at + size >= len)
        break;
      last = at += size;
    }
  /* A reader may take the sizes from LTTng's index instead, and lose
   * nothing. */
  gboolean loses = !ctf_index_lists_packets (trace_dir, file);
  add_zero (out, file, content_off + 8, 8, loses, "the first packet's packet_size");
  add_zero (out, file, content_off, 8, loses, "the first packet's content_size");
  if (last > 0)
    {
      add_zero (out, file, last + content_off + 8, 8, loses, "the last packet's packet_size");
      add_zero (out, file, last + content_off, 8, loses, "the last packet's content_size");
    }
}

/* The last tracefile removed, where the trace says it should be there;
 * for LTT also every CPU's file.  LTT's system.xml gives the number of
 * CPUs, LTTng 0.x's control files are per CPU, and a CTF stream may have
 * an index; a CTF stream without one can go without a trace (nothing says
 * the stream existed). */
static void
add_missing (GPtrArray *out, const char *trace_dir, const char *format, GPtrArray *files)
{
  const char *last = files->pdata[files->len - 1];
  if (strcmp (format, "ctf") == 0)
    {
      for (guint i = files->len; i-- > 0;)
        if (ctf_index_lists_packets (trace_dir, files->pdata[i]))
          {
            add (out, TTV_DAMAGE_MISSING, files->pdata[i], TRUE, "removed, its index kept");
            break;
          }
      return;
    }
  if (strcmp (format, "lttng") == 0)
    {
      g_autofree char *control = g_strdup_printf ("control/facilities_%s", last + strlen ("cpu_"));
      g_autofree char *path = g_build_filename (trace_dir, control, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        add (out, TTV_DAMAGE_MISSING, last, TRUE, "removed, %s kept", control);
      return;
    }
  g_autofree char *sys = g_build_filename (trace_dir, "info", "system.xml", NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents (sys, &text, NULL, NULL) || strstr (text, " cpu=") == NULL)
    return;
  add (out, TTV_DAMAGE_MISSING, last, TRUE, "removed (system.xml gives the number of CPUs)");
  add (out, TTV_DAMAGE_EMPTIED, "cpu", TRUE, "every CPU's file removed");
}

GPtrArray *
ttv_damage_list (const char *trace_dir, const char *format, guint32 seed, guint n_flips)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ttv_damage_variant_free);
  g_autoptr (GPtrArray) files = list_tracefiles (trace_dir, format);
  g_autoptr (GRand) r = g_rand_new_with_seed (seed);
  g_assert_cmpuint (files->len, >, 0);
  for (guint i = 0; i < files->len; i++)
    {
      if (i != 0 && i != files->len - 1)
        continue;
      const char *file = files->pdata[i];
      gsize len;
      g_autofree guint8 *data = read_file (trace_dir, file, &len);
      g_assert_cmpuint (len, >=, 128);
      if (strcmp (format, "ltt") == 0)
        add_ltt (out, trace_dir, file, len, r, n_flips);
      else if (strcmp (format, "lttng") == 0)
        add_lttng (out, file, data, len, r, n_flips);
      else
        add_ctf (out, trace_dir, file, data, len, r, n_flips);
      if (i == files->len - 1)
        add_not_files (out, file, strcmp (format, "ctf") != 0);
    }
  if (strcmp (format, "ctf") == 0)
    {
      /* Every event at one time, and damage after some were read: reading
       * on past it must move forward (it once sought back to the same
       * time, forever).  The statedump's process events follow its
       * interrupts at the start of LTTng's kernel traces. */
      TtvDamageVariant *v = add (out, TTV_DAMAGE_EQUAL_TIMES, "metadata", TRUE,
                                 "every event at the last time there is, an event class damaged");
      v->source = g_strdup ("lttng_statedump_process_state");
    }
  add_missing (out, trace_dir, format, files);
  if (strcmp (format, "ltt") == 0)
    {
      const char *last = files->pdata[files->len - 1];
      TtvDamageVariant *v = add (out, TTV_DAMAGE_COPY, last, TRUE, "a copy of control/facilities");
      v->source = g_strdup ("control/facilities");
      v = add (out, TTV_DAMAGE_COPY, last, TRUE, "a copy of control/processes");
      v->source = g_strdup ("control/processes");
    }
  return out;
}

/* --- Writing a damaged copy ----------------------------------------------------- */

static gboolean
copy_tree (const char *from, const char *to, GError **error)
{
  if (g_mkdir_with_parents (to, 0755) != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", to, g_strerror (errno));
      return FALSE;
    }
  g_autoptr (GDir) d = g_dir_open (from, 0, error);
  if (d == NULL)
    return FALSE;
  const char *name;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *a = g_build_filename (from, name, NULL), *b = g_build_filename (to, name, NULL);
      if (g_file_test (a, G_FILE_TEST_IS_DIR))
        {
          if (!copy_tree (a, b, error))
            return FALSE;
          continue;
        }
      g_autofree char *data = NULL;
      gsize len;
      if (!g_file_get_contents (a, &data, &len, error) || !g_file_set_contents (b, data, (gssize) len, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
patch (const char *path, guint64 offset, const guint8 *bytes, gsize n, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;
  if (!g_file_get_contents (path, &data, &len, error))
    return FALSE;
  g_assert_cmpuint (offset + n, <=, len);
  memcpy (data + offset, bytes, n);
  return g_file_set_contents (path, data, (gssize) len, error);
}

static gboolean
errno_error (GError **error, const char *path)
{
  int errsv = errno;
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errsv), "%s: %s", path, g_strerror (errsv));
  return FALSE;
}

gboolean
ttv_damage_copy_short (const char *trace_dir, const char *out_dir, gsize max_stream_bytes, GError **error)
{
  if (!copy_tree (trace_dir, out_dir, error))
    return FALSE;
  g_autoptr (GPtrArray) files = list_tracefiles (out_dir, "ctf");
  for (guint i = 0; i < files->len; i++)
    {
      gsize len;
      g_autofree guint8 *data = read_file (out_dir, files->pdata[i], &len);
      guint content_off = 0;
      gboolean big = len >= 4 && read_uint (data, 4, FALSE) != 0xC1FC1FC1u;
      if (len <= max_stream_bytes || !find_ctf_sizes (data, len, big, &content_off))
        continue;
      guint64 at = 0, n_packets = 0;
      while (at + content_off + 16 <= len)
        {
          guint64 size = read_uint (data + at + content_off + 8, 8, big) / 8;
          if (size == 0 || size > len - at || (n_packets > 0 && at + size > max_stream_bytes))
            break;
          at += size;
          n_packets++;
        }
      g_autofree char *path = g_build_filename (out_dir, files->pdata[i], NULL);
      if (truncate (path, (off_t) at) != 0)
        return errno_error (error, path);
      /* LTTng's index: a 16-byte header (entry size at byte 12, big endian),
       * then an entry per packet. */
      g_autofree char *idx_name = g_strconcat (files->pdata[i], ".idx", NULL);
      g_autofree char *idx = g_build_filename (out_dir, "index", idx_name, NULL);
      g_autofree guint8 *head = NULL;
      gsize head_len = 0;
      if (g_file_get_contents (idx, (char **) &head, &head_len, NULL) && head_len >= 16
          && truncate (idx, (off_t) (16 + n_packets * read_uint (head + 12, 4, TRUE))) != 0)
        return errno_error (error, idx);
    }
  return TRUE;
}

/* --- Damaging the metadata ----------------------------------------------------- */

/* A metadata packet's header: magic, uuid[16], checksum, content_size,
 * packet_size (bits), compression, encryption, checksum schemes, major,
 * minor. */
#define METADATA_MAGIC 0x75D11D57u
#define METADATA_HEADER_BYTES 37

/* How the metadata file was written, to write the damaged text back the
 * same way: plain text, or packets of @packet_bytes after @header. */
typedef struct {
  gboolean packetized;
  gboolean big;
  guint8 header[METADATA_HEADER_BYTES];   /* the first packet's */
  gsize packet_bytes;
} MetadataLayout;

static void
store_uint (guint8 *p, guint64 v, guint width, gboolean big)
{
  for (guint i = 0; i < width; i++)
    p[big ? width - 1 - i : i] = (guint8) (v >> (8 * i));
}

/* The text of the metadata file @data: the packets' contents, one after
 * the other, or the file itself. */
static GString *
metadata_text (const guint8 *data, gsize len, MetadataLayout *layout, GError **error)
{
  memset (layout, 0, sizeof *layout);
  if (len < 4 || (read_uint (data, 4, FALSE) != METADATA_MAGIC && read_uint (data, 4, TRUE) != METADATA_MAGIC))
    return g_string_new_len ((const char *) data, (gssize) len);
  layout->packetized = TRUE;
  layout->big = read_uint (data, 4, TRUE) == METADATA_MAGIC;
  GString *text = g_string_new (NULL);
  for (gsize at = 0; at + METADATA_HEADER_BYTES <= len;)
    {
      const guint8 *p = data + at;
      gsize content = read_uint (p + 24, 4, layout->big) / 8, packet = read_uint (p + 28, 4, layout->big) / 8;
      if (read_uint (p, 4, layout->big) != METADATA_MAGIC || content < METADATA_HEADER_BYTES || content > packet
          || packet > len - at)
        {
          g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "bad metadata packet at byte %zu", at);
          g_string_free (text, TRUE);
          return NULL;
        }
      if (at == 0)
        {
          memcpy (layout->header, p, METADATA_HEADER_BYTES);
          layout->packet_bytes = packet;
        }
      g_string_append_len (text, (const char *) p + METADATA_HEADER_BYTES, (gssize) (content - METADATA_HEADER_BYTES));
      at += packet;
    }
  return text;
}

/* @text written as @layout says: in packets of the first one's size, with
 * its header (uuid, version), as many as the longer text needs. */
static gboolean
write_metadata (const char *path, const GString *text, const MetadataLayout *layout, GError **error)
{
  if (!layout->packetized)
    return g_file_set_contents (path, text->str, (gssize) text->len, error);
  g_autoptr (GByteArray) out = g_byte_array_new ();
  gsize room = layout->packet_bytes - METADATA_HEADER_BYTES;
  g_autofree guint8 *packet = g_malloc (layout->packet_bytes);
  for (gsize at = 0; at < text->len; at += room)
    {
      gsize n = MIN (room, text->len - at);
      memset (packet, 0, layout->packet_bytes);
      memcpy (packet, layout->header, METADATA_HEADER_BYTES);
      store_uint (packet + 24, (METADATA_HEADER_BYTES + n) * 8, 4, layout->big);
      memcpy (packet + METADATA_HEADER_BYTES, text->str + at, n);
      g_byte_array_append (out, packet, (guint) layout->packet_bytes);
    }
  return g_file_set_contents (path, (const char *) out->data, (gssize) out->len, error);
}

/* TSDL: every clock at 1 Hz and a 100,000-byte array before the fields of
 * event class @event (else of the second one, else of the only one). */
static void
damage_tsdl (GString *text, const char *event)
{
  const char *fields = "fields := struct {";
  g_autofree char *named = g_strdup_printf ("name = \"%s\";", event);
  const char *at = strstr (text->str, named);
  at = at ? strstr (at, fields) : NULL;
  if (at == NULL)
    {
      const char *first = strstr (text->str, fields);
      at = first ? strstr (first + 1, fields) : NULL;
      at = at ? at : first;
    }
  g_assert_nonnull (at);
  g_string_insert (text, at - text->str + (gssize) strlen (fields),
                   " integer { size = 8; align = 8; signed = 0; } _ttv_damage[100000];");
  /* freq = N; -> freq = 1; */
  for (char *f = strstr (text->str, "freq ="); f; f = strstr (f + 1, "freq ="))
    {
      char *end = strchr (f, ';');
      gsize pos = (gsize) (f - text->str);
      g_string_erase (text, (gssize) pos, end - f);
      g_string_insert (text, (gssize) pos, "freq = 1");
      f = text->str + pos;
    }
}

/* Where the JSON value of key @key starts in @from (NULL when not there):
 * after the colon and the spaces. */
static const char *
json_value (const char *from, const char *key)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", key);
  const char *at = strstr (from, quoted);
  if (at == NULL)
    return NULL;
  at += strlen (quoted);
  while (g_ascii_isspace (*at) || *at == ':')
    at++;
  return at;
}

/* Whether the JSON text @from..@end has the key @key with the string value
 * @value. */
static gboolean
json_has_string (const char *from, const char *end, const char *key, const char *value)
{
  g_autofree char *quoted = g_strdup_printf ("\"%s\"", value);
  for (const char *v = json_value (from, key); v && v < end; v = json_value (v, key))
    if (g_str_has_prefix (v, quoted))
      return TRUE;
  return FALSE;
}

/* CTF 2 (a JSON text sequence, each fragment after a 0x1E): the same
 * damage as damage_tsdl, in the fragments: every clock class at 1 Hz, and
 * the array first among the payload's members of event record class
 * @event (else of the second one with a payload, else of the only one). */
static void
damage_ctf2 (GString *text, const char *event)
{
  static const char array[] =
    "{\"name\":\"_ttv_damage\",\"field-class\":{\"type\":\"static-length-array\",\"length\":100000,"
    "\"element-field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,"
    "\"byte-order\":\"little-endian\",\"alignment\":8}}}";
  gssize insert_at = -1, first_at = -1, second_at = -1;
  guint n_payloads = 0;
  for (char *frag = strchr (text->str, '\x1e'); frag; frag = strchr (frag + 1, '\x1e'))
    {
      char *end = strchr (frag + 1, '\x1e');
      end = end ? end : text->str + text->len;
      const char *payload = json_value (frag, "payload-field-class");
      if (!json_has_string (frag, end, "type", "event-record-class") || payload == NULL || payload >= end)
        continue;
      const char *members = json_value (payload, "member-classes");
      if (members == NULL || members >= end || *members != '[')
        continue;
      gssize pos = members + 1 - text->str;
      if (++n_payloads == 1)
        first_at = pos;
      else if (n_payloads == 2)
        second_at = pos;
      if (json_has_string (frag, end, "name", event))
        insert_at = pos;
    }
  insert_at = insert_at >= 0 ? insert_at : second_at >= 0 ? second_at : first_at;
  g_assert_cmpint (insert_at, >=, 0);
  const char *next = text->str + insert_at;
  while (g_ascii_isspace (*next))
    next++;
  g_string_insert (text, insert_at, *next == ']' ? "" : ",");
  g_string_insert (text, insert_at, array);
  /* "frequency": N -> "frequency": 1 */
  for (const char *f = json_value (text->str, "frequency"); f; f = json_value (f, "frequency"))
    {
      gsize pos = (gsize) (f - text->str), n = strspn (f, "0123456789");
      g_string_erase (text, (gssize) pos, (gssize) n);
      g_string_insert (text, (gssize) pos, "1");
      f = text->str + pos;
    }
}

/* The metadata file @path, TSDL or CTF 2, plain or in packets, with every
 * clock at 1 Hz and an array too long for any packet first in the
 * payload of event class @event (else of the second one); written back
 * in the same form. */
static gboolean
damage_metadata (const char *path, const char *event, GError **error)
{
  g_autofree guint8 *data = NULL;
  gsize len;
  if (!g_file_get_contents (path, (char **) &data, &len, error))
    return FALSE;
  MetadataLayout layout;
  g_autoptr (GString) text = metadata_text (data, len, &layout, error);
  if (text == NULL)
    return FALSE;
  if (text->len > 0 && text->str[0] == '\x1e')
    damage_ctf2 (text, event);
  else
    damage_tsdl (text, event);
  return write_metadata (path, text, &layout, error);
}

gboolean
ttv_damage_write (const char *trace_dir, const TtvDamageVariant *v, const char *out_dir, GError **error)
{
  if (!copy_tree (trace_dir, out_dir, error))
    return FALSE;
  g_autofree char *path = g_build_filename (out_dir, v->file, NULL);
  g_autofree char *data = NULL;
  gsize len = 0;
  static const guint8 zeros[8] = { 0 };

  switch (v->kind)
    {
    case TTV_DAMAGE_TRUNCATE:
      return truncate (path, (off_t) v->offset) == 0 || errno_error (error, path);
    case TTV_DAMAGE_FLIP:
      if (!g_file_get_contents (path, &data, &len, error))
        return FALSE;
      data[v->offset] ^= (char) (1u << v->bit);
      return g_file_set_contents (path, data, (gssize) len, error);
    case TTV_DAMAGE_ZERO:
      return patch (path, v->offset, zeros, v->width, error);
    case TTV_DAMAGE_EQUAL_TIMES:
      return damage_metadata (path, v->source, error);
    case TTV_DAMAGE_COPY:
      {
        g_autofree char *source = g_build_filename (out_dir, v->source, NULL);
        if (!g_file_get_contents (source, &data, &len, error))
          return FALSE;
        return g_file_set_contents (path, data, (gssize) len, error);
      }
    default:
      break;
    }
  if (v->kind == TTV_DAMAGE_EMPTIED)
    {
      g_autoptr (GDir) d = g_dir_open (path, 0, error);
      if (d == NULL)
        return FALSE;
      for (const char *name; (name = g_dir_read_name (d));)
        {
          g_autofree char *file = g_build_filename (path, name, NULL);
          if (g_unlink (file) != 0)
            return errno_error (error, file);
        }
      return TRUE;
    }
  /* The file removed, or replaced by something else. */
  if (g_unlink (path) != 0)
    return errno_error (error, path);
  switch (v->kind)
    {
    case TTV_DAMAGE_MISSING:
      return TRUE;
    case TTV_DAMAGE_FOLDER:
      return g_mkdir (path, 0755) == 0 || errno_error (error, path);
    case TTV_DAMAGE_FIFO:
      return mkfifo (path, 0644) == 0 || errno_error (error, path);
    case TTV_DAMAGE_LINK_LOOP:
      {
        g_autofree char *base = g_path_get_basename (path);
        return symlink (base, path) == 0 || errno_error (error, path);
      }
    case TTV_DAMAGE_LINK_DEVICE:
      return symlink ("/dev/zero", path) == 0 || errno_error (error, path);
    case TTV_DAMAGE_EMPTY:
      return g_file_set_contents (path, "", 0, error);
    default:
      g_assert_not_reached ();
    }
}

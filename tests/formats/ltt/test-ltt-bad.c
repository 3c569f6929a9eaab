/* test-ltt-bad.c: damaged LTT traces (written good, then broken) must give a
 * clear GError naming the file and offset, never a crash. */
#include "ttv-ltt.h"
#include "ttv-ltt-private.h"
#include "ttv-error.h"
#include "ltt-test-util.h"

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define START ((TtvTime) 1600000000 * TTV_NSEC_PER_SEC)
#define BLOCK 512

/* cpu/0 with @n events "tick" { uint32 n; uint32 m } (fixed) and "name"
 * { string s }, in blocks of @block bytes; little endian. */
static char *
write_good_blocks (guint block, guint n)
{
  char *dir = ltt_test_tmp_trace ("bad");
  TtvLttWriterOptions o = { .byte_order = TTV_BYTE_ORDER_LITTLE, .arch_size = TTV_LTT_ARCH_ILP32,
                            .block_size = block, .start_time = START };
  g_autoptr (GError) error = NULL;
  TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
  g_assert_no_error (error);
  guint f = ttv_ltt_writer_add_facility (w, "core", NULL);
  g_autoptr (TtvType) tick = ttv_type_new_struct ();
  ttv_type_add_field (tick, "n", ttv_type_new_integer (32, FALSE, TTV_BYTE_ORDER_LITTLE, 32), NULL);
  ttv_type_add_field (tick, "m", ttv_type_new_integer (32, FALSE, TTV_BYTE_ORDER_LITTLE, 32), NULL);
  g_autoptr (TtvType) name = ttv_type_new_struct ();
  ttv_type_add_field (name, "s", ttv_type_new_string (), NULL);
  gint e1 = ttv_ltt_writer_add_event (w, f, "tick", NULL, tick, &error);
  gint e2 = ttv_ltt_writer_add_event (w, f, "name", NULL, name, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      TtvScalar v[] = { TTV_SCALAR_UINT (i), TTV_SCALAR_UINT (i * 2) };
      TtvScalar s = TTV_SCALAR_STRING ("abc");
      gboolean ok = i % 5 == 4
        ? ttv_ltt_writer_write_event (w, 0, START + i, (guint) e2, &s, 1, &error)
        : ttv_ltt_writer_write_event (w, 0, START + i, (guint) e1, v, 2, &error);
      g_assert_true (ok);
    }
  g_assert_true (ttv_ltt_writer_close (w, &error));
  g_assert_no_error (error);
  return dir;
}

/* 200 events in blocks of 512 bytes (several blocks). */
static char *
write_good (void)
{
  return write_good_blocks (BLOCK, 200);
}

static char *
file_in (const char *dir, const char *rel)
{
  return g_build_filename (dir, rel, NULL);
}

static char *
load (const char *path, gsize *len)
{
  g_autoptr (GError) error = NULL;
  char *data = NULL;
  gboolean ok = g_file_get_contents (path, &data, len, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  return data;
}

static void
patch (const char *path, gsize offset, const void *bytes, gsize n)
{
  gsize len;
  g_autofree char *data = load (path, &len);
  g_assert_cmpuint (offset + n, <=, len);
  memcpy (data + offset, bytes, n);
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
}

/* Reads every event and decodes it; returns the count or -1 with @error. */
static gint
read_all (TtvTrace *t, GError **error)
{
  gint n = 0;
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  for (guint f = 0; f < t->tracefiles->len; f++)
    {
      g_autoptr (TtvCursor) c = ttv_cursor_new (g_ptr_array_index (t->tracefiles, f), error);
      if (c == NULL)
        return -1;
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, error))
        {
          ttv_decoder_reset (d);
          if (ttv_event_decode_fields (&ev, d, error) < 0)
            return -1;
          n++;
        }
      if (error && *error)
        return -1;
    }
  return n;
}

static TtvTrace *
open_ok (const char *dir)
{
  g_autoptr (GError) error = NULL;
  TtvTrace *t = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static void
assert_open_fails (const char *dir, gint code, const char *file_part)
{
  g_autoptr (GError) error = NULL;
  TtvTrace *t = ttv_trace_open (dir, &error);
  g_assert_null (t);
  g_assert_error (error, TTV_FORMAT_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, file_part));
}

/* @dir opens, but reading its events fails with the TTV_FORMAT_ERROR @code
 * (-1: any error) and a message holding each of the NULL-terminated strings
 * that follow. */
static void assert_read_fails (const char *dir, gint code, ...) G_GNUC_NULL_TERMINATED;

static void
assert_read_fails (const char *dir, gint code, ...)
{
  g_autoptr (TtvTrace) t = open_ok (dir);
  g_autoptr (GError) error = NULL;
  g_assert_cmpint (read_all (t, &error), ==, -1);
  g_assert_nonnull (error);
  if (code >= 0)
    g_assert_error (error, TTV_FORMAT_ERROR, code);
  g_test_message ("%s", error->message);
  va_list ap;
  va_start (ap, code);
  for (const char *part = va_arg (ap, const char *); part; part = va_arg (ap, const char *))
    g_assert_nonnull (strstr (error->message, part));
  va_end (ap);
}

static void
test_good (void)
{
  g_autofree char *dir = write_good ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = open_ok (dir);
  g_assert_cmpint (read_all (t, &error), ==, 200);
  g_assert_no_error (error);
  g_clear_pointer (&t, ttv_trace_close);
}

static void
test_truncated (void)
{
  g_autofree char *dir = write_good ();
  g_autofree char *cpu = file_in (dir, "cpu/0");
  gsize len;
  g_autofree char *data = load (cpu, &len);
  g_assert_cmpuint (len, >=, 3 * BLOCK);
  /* Cut inside the last block. */
  g_assert_true (g_file_set_contents (cpu, data, (gssize) (len - 100), NULL));
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = open_ok (dir);
  g_assert_cmpuint (t->warnings->len, ==, 1);
  const char *warning = g_ptr_array_index (t->warnings, 0);
  g_test_message ("%s", warning);
  g_assert_nonnull (strstr (warning, "cpu/0"));
  g_assert_nonnull (strstr (warning, "truncated"));
  gint n = read_all (t, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, >, 0);
  g_assert_cmpint (n, <, 200);
  g_clear_pointer (&t, ttv_trace_close);
}

static void
test_last_event_offset (void)
{
  g_autofree char *dir = write_good ();
  g_autofree char *cpu = file_in (dir, "cpu/0");
  guint32 off = GUINT32_TO_LE (100);   /* not where block_end is */
  patch (cpu, 2 * BLOCK - 4, &off, 4);
  assert_open_fails (dir, TTV_FORMAT_ERROR_CORRUPT, "cpu/0");
  off = GUINT32_TO_LE (0xFFFFFFF0);    /* outside the block */
  patch (cpu, 2 * BLOCK - 4, &off, 4);
  assert_open_fails (dir, TTV_FORMAT_ERROR_CORRUPT, "byte offset");
}

static void
test_unknown_event (void)
{
  g_autofree char *dir = write_good ();
  g_autofree char *cpu = file_in (dir, "cpu/0");
  guint16 id = GUINT16_TO_LE (9999);
  patch (cpu, BLOCK + 28, &id, 2);   /* first event of block 1 */
  g_autofree char *where = g_strdup_printf ("byte offset %u", BLOCK + 28);
  assert_read_fails (dir, TTV_FORMAT_ERROR_CORRUPT, "cpu/0", "9999", where, NULL);
}

static void
test_event_past_end (void)
{
  g_autofree char *dir = write_good ();
  g_autofree char *cpu = file_in (dir, "cpu/0");
  /* First event of block 0: "tick" at 28, payload 34 aligned to 36, ends at
   * 44.  Put a fake block_end at 40, inside it. */
  guint16 id = GUINT16_TO_LE (2);
  patch (cpu, 40, &id, 2);
  guint32 off = GUINT32_TO_LE (40);
  patch (cpu, BLOCK - 4, &off, 4);
  assert_read_fails (dir, TTV_FORMAT_ERROR_CORRUPT, "runs past", "cpu/0", NULL);
}

static void
test_string_without_nul (void)
{
  g_autofree char *dir = write_good ();
  g_autofree char *cpu = file_in (dir, "cpu/0");
  gsize len;
  g_autofree char *data = load (cpu, &len);
  /* Replace every "abc\0" of block 0 by "abcd" up to its block_end. */
  for (gsize i = 0; i + 4 < BLOCK; i++)
    if (memcmp (data + i, "abc", 4) == 0)
      data[i + 3] = 'd';
  g_assert_true (g_file_set_contents (cpu, data, (gssize) len, NULL));
  assert_read_fails (dir, -1, "cpu/0", NULL);
}

static void
test_checksum (void)
{
  g_autofree char *dir = write_good ();
  g_autofree char *xml = file_in (dir, "eventdefs/core.xml");
  g_autofree char *text = load (xml, NULL);
  /* Same events, one size changed: the facility no longer matches. */
  char *p = strstr (text, "size=\"4\"");
  g_assert_nonnull (p);
  p[6] = '8';
  g_assert_true (g_file_set_contents (xml, text, -1, NULL));
  assert_open_fails (dir, TTV_FORMAT_ERROR_INVALID, "checksum mismatch");
  assert_open_fails (dir, TTV_FORMAT_ERROR_INVALID, "control/facilities");
  /* Descriptions and formats do not count. */
  p[6] = '4';
  g_autofree char *described = g_strdup_printf ("%.*s<description>new</description>%s",
                                                (int) (strstr (text, "<event ") - text), text,
                                                strstr (text, "<event "));
  g_assert_true (g_file_set_contents (xml, described, -1, NULL));
  ttv_trace_close (open_ok (dir));
}

static void
test_malformed_xml (void)
{
  /* In order: each damage stays while the next is tried. */
  static const struct {
    const char *file, *contents;
    gint code;
    const char *part;
  } cases[] = {
    { "eventdefs/core.xml", "<eventdefs>\n<facility name=\"core\">\n<event>\n</eventdefs>\n",
      TTV_FORMAT_ERROR_SYNTAX, "core.xml:" },
    /* Well-formed but wrong: an unknown type element, with its line. */
    { "eventdefs/core.xml", "<facility name=\"core\">\n<event name=\"x\">\n<blob/>\n</event>\n</facility>\n",
      TTV_FORMAT_ERROR_INVALID, "core.xml:3:" },
    { "eventdefs/core.xml", "<facility name=\"core\"><type name=\"a\"><typeref name=\"a\"/></type>"
      "<event name=\"x\"><typeref name=\"a\"/></event></facility>",
      TTV_FORMAT_ERROR_INVALID, "refers to itself" },
    { "info/system.xml", "<system arch_size=\"ILP32\" ltt_block_size=\"512\"",
      TTV_FORMAT_ERROR_SYNTAX, "system.xml" },
    { "info/system.xml", "<system arch_size=\"IP16\" ltt_block_size=\"512\"/>",
      TTV_FORMAT_ERROR_INVALID, "arch_size" },
    /* Entity bombs are refused with their DTD. */
    { "info/system.xml", "<!DOCTYPE s [<!ENTITY a \"aaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>\n"
      "<system arch_size=\"ILP32\" ltt_block_size=\"512\">&b;</system>",
      TTV_FORMAT_ERROR_UNSUPPORTED, "DTD" },
  };
  g_autofree char *dir = write_good ();
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = file_in (dir, cases[i].file);
      g_assert_true (g_file_set_contents (path, cases[i].contents, -1, NULL));
      assert_open_fails (dir, cases[i].code, cases[i].part);
    }
}

/* Hostile XML in place of system.xml and an eventdefs file: refused at
 * once, before libxml2's quadratic duplicate-attribute check or its
 * nesting, and a FIFO or /dev/zero in their place neither blocks nor
 * grows without bound. */
static void
test_hostile_xml (void)
{
  g_autofree char *dir = write_good ();
  g_autofree char *sys = file_in (dir, "info/system.xml");
  g_autofree char *core = file_in (dir, "eventdefs/core.xml");
  g_autofree char *good_sys = NULL;
  g_assert_true (g_file_get_contents (sys, &good_sys, NULL, NULL));

  /* 200,000 attributes on one element. */
  g_autoptr (GString) many = g_string_new ("<system arch_size=\"ILP32\" ltt_block_size=\"512\"");
  for (guint i = 0; i < 200000; i++)
    g_string_append_printf (many, " a%u=\"1\"", i);
  g_string_append (many, "/>");
  g_assert_true (g_file_set_contents (sys, many->str, (gssize) many->len, NULL));
  gint64 t0 = g_get_monotonic_time ();
  assert_open_fails (dir, TTV_FORMAT_ERROR_UNSUPPORTED, "more than 64 attributes");
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);

  /* Elements nested 100,000 deep in an eventdefs file. */
  g_assert_true (g_file_set_contents (sys, good_sys, -1, NULL));
  g_autoptr (GString) deep = g_string_new ("<facility name=\"core\">");
  for (guint i = 0; i < 100000; i++)
    g_string_append (deep, "<a>");
  g_assert_true (g_file_set_contents (core, deep->str, (gssize) deep->len, NULL));
  assert_open_fails (dir, TTV_FORMAT_ERROR_UNSUPPORTED, "nested more than 128 deep");

  /* A FIFO, then /dev/zero, as system.xml. */
  g_assert_cmpint (g_unlink (sys), ==, 0);
  g_assert_cmpint (mkfifo (sys, 0644), ==, 0);
  assert_open_fails (dir, TTV_FORMAT_ERROR_IO, "FIFO");
  g_assert_cmpint (g_unlink (sys), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", sys), ==, 0);
  assert_open_fails (dir, TTV_FORMAT_ERROR_IO, "character device");
  g_assert_cmpint (g_unlink (sys), ==, 0);
  ttv_test_remove_tree (dir);
}

static void
test_missing_system (void)
{
  g_autofree char *dir = write_good ();
  g_autofree char *sys = file_in (dir, "info/system.xml");
  g_assert_cmpint (g_unlink (sys), ==, 0);
  assert_open_fails (dir, TTV_FORMAT_ERROR_MISSING, "system.xml");
}

static void
test_hostile_sequence (void)
{
  /* A sequence whose length prefix claims 2^32-1 elements. */
  g_autofree char *dir = ltt_test_tmp_trace ("seq");
  TtvLttWriterOptions o = { .block_size = BLOCK, .start_time = START };
  g_autoptr (GError) error = NULL;
  TtvLttWriter *w = ttv_ltt_writer_new (dir, &o, &error);
  guint f = ttv_ltt_writer_add_facility (w, "core", NULL);
  g_autoptr (TtvType) s = ttv_type_new_struct ();
  ttv_type_add_field (s, "v", ttv_type_new_sequence_prefixed (
                        ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8),
                        ttv_type_new_integer (32, FALSE, TTV_BYTE_ORDER_LITTLE, 32)), NULL);
  gint e = ttv_ltt_writer_add_event (w, f, "seq", NULL, s, &error);
  TtvScalar v[] = { TTV_SCALAR_UINT (1), TTV_SCALAR_UINT (5) };
  g_assert_true (ttv_ltt_writer_write_event (w, 0, START, (guint) e, v, 2, &error));
  g_assert_true (ttv_ltt_writer_close (w, &error));
  g_autofree char *cpu = file_in (dir, "cpu/0");
  guint32 n = 0xFFFFFFFF;
  patch (cpu, 36, &n, 4);   /* header 28..34, prefix aligned to 36 */
  assert_read_fails (dir, TTV_FORMAT_ERROR_CORRUPT, "cpu/0", NULL);
}

/* Blocks of 64 KiB are indexed by the pages of their two ends, not read
 * whole (the opening read every event of the trace): few bytes are read
 * at open, every event is read after, and a damaged index is reported as
 * with small blocks, at the same offsets. */
#define BIG_BLOCK (64u << 10)

static char *
write_big_blocks (void)
{
  /* About 4,300 events a block, 47 blocks. */
  return write_good_blocks (BIG_BLOCK, 200000);
}

static void
test_index_sparse (void)
{
  g_autofree char *dir = write_big_blocks ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = open_ok (dir);
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      const TtvTracefile *tf = g_ptr_array_index (t->tracefiles, i);
      const TtvLttFile *f = tf->priv;
      if (f->blocks->len < 8)
        continue;
      /* cpu/0: two pages a block (or three, where block_end is not in the
       * last page); besides, the opening reads the events of the first
       * block (a window) and of the last (the trace's first and last
       * times). */
      guint64 read = ttv_windowed_file_get_bytes_read (f->file);
      g_test_message ("%s: %" G_GUINT64_FORMAT " bytes read at open, of %" G_GUINT64_FORMAT, f->path, read,
                      f->size);
      g_assert_cmpuint (read, <=, (guint64) f->blocks->len * 3 * 4096 + TTV_FILE_WINDOW_BYTES + BIG_BLOCK);
      g_assert_cmpuint (read, <, f->size / 3);
    }
  g_assert_cmpint (read_all (t, &error), ==, 200000);
  g_assert_no_error (error);
}

static void
test_index_sparse_damage (void)
{
  g_autofree char *dir = write_big_blocks ();
  g_autofree char *cpu = file_in (dir, "cpu/0");
  gsize len;
  g_autofree char *data = load (cpu, &len);
  g_assert_cmpuint (len, >=, 4 * BIG_BLOCK);
  guint32 end;
  memcpy (&end, data + 3 * BIG_BLOCK - 4, 4);
  end = GUINT32_FROM_LE (end);

  /* block_end's offset pointing at another event, then outside the block. */
  guint32 off = GUINT32_TO_LE (100);
  patch (cpu, 3 * BIG_BLOCK - 4, &off, 4);
  g_autofree char *at_100 = g_strdup_printf ("byte offset %u: wrong last-event offset 100 in block 2",
                                             2 * BIG_BLOCK + 100);
  assert_open_fails (dir, TTV_FORMAT_ERROR_CORRUPT, at_100);
  off = GUINT32_TO_LE (BIG_BLOCK - 10);
  patch (cpu, 3 * BIG_BLOCK - 4, &off, 4);
  g_autofree char *outside = g_strdup_printf ("byte offset %u: last-event offset %u of block 2 lies outside",
                                              3 * BIG_BLOCK - 4, BIG_BLOCK - 10);
  assert_open_fails (dir, TTV_FORMAT_ERROR_CORRUPT, outside);
  off = GUINT32_TO_LE (end);
  patch (cpu, 3 * BIG_BLOCK - 4, &off, 4);
  g_autoptr (TtvTrace) t = open_ok (dir);
  g_clear_pointer (&t, ttv_trace_close);

  /* A block that does not start with block_start. */
  guint16 id = GUINT16_TO_LE (7);
  patch (cpu, 3 * BIG_BLOCK, &id, 2);
  g_autofree char *start = g_strdup_printf ("byte offset %u: block 3 starts with event id 7", 3 * BIG_BLOCK);
  assert_open_fails (dir, TTV_FORMAT_ERROR_CORRUPT, start);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ltt/bad/good-baseline", test_good);
  g_test_add_func ("/ltt/bad/index-sparse", test_index_sparse);
  g_test_add_func ("/ltt/bad/index-sparse-damage", test_index_sparse_damage);
  g_test_add_func ("/ltt/bad/truncated-cpu-file", test_truncated);
  g_test_add_func ("/ltt/bad/last-event-offset", test_last_event_offset);
  g_test_add_func ("/ltt/bad/unknown-event-id", test_unknown_event);
  g_test_add_func ("/ltt/bad/event-past-block-end", test_event_past_end);
  g_test_add_func ("/ltt/bad/string-without-nul", test_string_without_nul);
  g_test_add_func ("/ltt/bad/checksum-mismatch", test_checksum);
  g_test_add_func ("/ltt/bad/malformed-xml", test_malformed_xml);
  g_test_add_func ("/ltt/bad/missing-system-xml", test_missing_system);
  g_test_add_func ("/ltt/bad/hostile-xml", test_hostile_xml);
  g_test_add_func ("/ltt/bad/hostile-sequence", test_hostile_sequence);
  return g_test_run ();
}

/* ttv-test-util.c: helpers shared by the tests (see ttv-test-util.h). */
#include "ttv-test-util.h"
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-traceset.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void
ttv_test_remove_tree (const char *path)
{
  GStatBuf st;

  /* A test may have made a folder read-only (a read-only trace). */
  if (g_lstat (path, &st) == 0 && S_ISDIR (st.st_mode) && (st.st_mode & 0700) != 0700)
    g_chmod (path, st.st_mode | 0700);
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  if (dir)
    {
      const char *name;
      while ((name = g_dir_read_name (dir)))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            ttv_test_remove_tree (child);
          else
            g_remove (child);
        }
    }
  g_remove (path);
}

void
ttv_test_write_ltt_simulation (const char *trace_dir, TtvSim *sim, guint32 block_size,
                               guint n_cpu_slots, TtvSimEmitFunc tap, gpointer tap_data)
{
  g_autoptr (GError) error = NULL;
  TtvLttWriterOptions wo = {
    .byte_order = TTV_BYTE_ORDER_LITTLE,
    .arch_size = TTV_LTT_ARCH_LP64,
    .block_size = block_size,
    .start_time = ttv_sim_get_time (sim),
    .n_cpu_slots = n_cpu_slots,
  };
  g_assert_true (ttv_ltt_write_simulation (trace_dir, sim, &wo, tap, tap_data, NULL, &error));
  g_assert_no_error (error);
}

/* --- Files and text ---------------------------------------------------- */

char *
ttv_test_json_raw (const char *line, const char *key)
{
  g_autofree char *pattern = g_strdup_printf ("\"%s\":", key);
  const char *p = strstr (line, pattern);
  if (p == NULL)
    return NULL;
  p += strlen (pattern);
  const char *e = p;
  if (*p == '"')
    {
      for (e = p + 1; *e && *e != '"'; e++)
        if (*e == '\\' && e[1])
          e++;
      e++;
    }
  else
    while (*e && *e != ',' && *e != '}')
      e++;
  return g_strndup (p, (gsize) (e - p));
}

char *
ttv_test_json_text (const char *line, const char *key)
{
  char *raw = ttv_test_json_raw (line, key);
  if (raw == NULL || raw[0] != '"')
    return raw;
  char *text = g_strndup (raw + 1, strlen (raw) - 2);
  g_free (raw);
  return text;
}

char *
ttv_test_run_ok (const char *const *argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed: %s", argv[0], err);
  return out;
}

void
ttv_test_generate_machine (const char *gen_path, const char *out, const char *format, const char *host,
                           const char *seed, const char *cpus, const char *start)
{
  const char *argv[] = { gen_path, "-q", "-f", format, "--host", host, "-s", seed, "-c", cpus,
                         "-p", "12", "-n", "3000", "--start-time", start, "-o", out, NULL };
  g_free (ttv_test_run_ok (argv));
}

void
ttv_test_run_clear (TtvTestRun *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

void
ttv_test_run (TtvTestRun *r, const char *cwd, char **envp, const char *const *argv)
{
  g_autoptr (GError) error = NULL;
  int wait_status = 0;

  memset (r, 0, sizeof *r);
  g_assert_true (g_spawn_sync (cwd, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL, &r->out, &r->err,
                               &wait_status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  r->status = WEXITSTATUS (wait_status);
}

void
ttv_test_assert_runs_fail (const char *program, const TtvTestBadRun *cases, guint n_cases)
{
  for (guint c = 0; c < n_cases; c++)
    {
      const char *const *args = cases[c].args;
      g_autoptr (GPtrArray) argv = g_ptr_array_new ();
      g_autofree char *shown = NULL;
      g_auto (TtvTestRun) r = { 0 };

      g_ptr_array_add (argv, (gpointer) program);
      for (guint i = 0; i < G_N_ELEMENTS (cases[c].args) && args[i]; i++)
        g_ptr_array_add (argv, (gpointer) args[i]);
      g_ptr_array_add (argv, NULL);
      /* Escaped: a case may hold bytes that are not UTF-8, which the TAP
       * reader would reject in the message. */
      g_autofree char *joined = g_strjoinv (" ", (char **) argv->pdata + 1);
      shown = g_strescape (joined, NULL);
      ttv_test_run (&r, NULL, NULL, (const char *const *) argv->pdata);
      g_test_message ("%s: exit %d: %s", shown, r.status, r.err);
      if (r.status != cases[c].status || !strstr (r.err, cases[c].message) || *r.out)
        g_error ("%s: exit %d (want %d), stderr «%s» (want «%s»), %" G_GSIZE_FORMAT " bytes of output (want none)",
                 shown, r.status, cases[c].status, r.err, cases[c].message, strlen (r.out));
    }
}

char *
ttv_test_dup_seconds (gint64 ns)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, ns / 1000000000, ns % 1000000000);
}

void
ttv_test_copy_file (const char *from, const char *to)
{
  g_autofree char *data = NULL;
  gsize len;
  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  g_assert_true (g_file_set_contents (to, data, (gssize) len, NULL));
}

void
ttv_test_copy_dir (const char *from, const char *to)
{
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  g_assert_nonnull (d);
  const char *name;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *a = g_build_filename (from, name, NULL), *b = g_build_filename (to, name, NULL);
      if (g_file_test (a, G_FILE_TEST_IS_DIR))
        ttv_test_copy_dir (a, b);
      else
        ttv_test_copy_file (a, b);
    }
}

void
ttv_test_patch_file (const char *dir, const char *name, gsize offset, const void *bytes, gsize n)
{
  g_autofree char *p = g_build_filename (dir, name, NULL);
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (p, &data, &len, NULL));
  g_assert_cmpuint (offset + n, <=, len);
  memcpy (data + offset, bytes, n);
  g_assert_true (g_file_set_contents (p, data, (gssize) len, NULL));
}

void
ttv_test_append_file (const char *path, const void *data, gsize len)
{
  FILE *f = fopen (path, "ab");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (data, 1, len, f), ==, len);
  fclose (f);
}

GPtrArray *
ttv_test_split (const char *text, const char *separators)
{
  GPtrArray *pieces = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) v = g_strsplit_set (text, separators, -1);
  for (guint i = 0; v[i]; i++)
    if (v[i][0])
      g_ptr_array_add (pieces, g_strdup (v[i]));
  return pieces;
}

GPtrArray *
ttv_test_lines_of (const char *text)
{
  return ttv_test_split (text, "\n");
}

void
ttv_test_assert_same_lines (GPtrArray *got, GPtrArray *want)
{
  for (guint i = 0; i < MIN (got->len, want->len); i++)
    if (strcmp (g_ptr_array_index (got, i), g_ptr_array_index (want, i)) != 0)
      g_error ("line %u:\n got  %s\n want %s", i + 1, (char *) g_ptr_array_index (got, i),
               (char *) g_ptr_array_index (want, i));
  g_assert_cmpuint (got->len, ==, want->len);
}

void
ttv_test_trace_span (const char *trace, gint64 *first, gint64 *last)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();

  g_assert_true (ttv_traceset_add_path (ts, trace, &error));
  g_assert_no_error (error);
  *first = ttv_traceset_get_start (ts);
  *last = ttv_traceset_get_end (ts);
}

guint64
ttv_test_decode_all (TtvTrace *t)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  guint64 decoded = 0;
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      g_autoptr (TtvCursor) c = ttv_cursor_new (g_ptr_array_index (t->tracefiles, i), &error);
      g_assert_no_error (error);
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, &error))
        {
          ttv_decoder_reset (d);
          g_assert_cmpint (ttv_event_decode_fields (&ev, d, &error), >=, 0);
          g_assert_no_error (error);
          decoded++;
        }
      g_assert_no_error (error);
    }
  return decoded;
}

GArray *
ttv_test_event_times (TtvTraceset *ts)
{
  g_autoptr (GError) error = NULL;
  GArray *times = g_array_new (FALSE, FALSE, sizeof (TtvTime));
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    g_array_append_val (times, ev->time);
  g_assert_no_error (error);
  return times;
}

/* --- Small kernel traces written event by event ---------------------------- */

TtvCtfWriter *
ttv_test_kernel_ctf_writer_new (const char *path)
{
  g_autoptr (GError) error = NULL;
  TtvCtfWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .header = TTV_CTF_HEADER_COMPACT,
                             .packet_size = 4096, .long_bits = 64, .hostname = "test" };
  TtvCtfWriter *w = ttv_ctf_writer_new (path, &wo, &error);
  g_assert_no_error (error);
  return w;
}

TtvType *
ttv_test_kernel_fields (const char *const *names)
{
  TtvType *s = ttv_type_new_struct ();
  for (guint i = 0; names[i]; i++)
    {
      TtvType *t;
      if (g_str_has_suffix (names[i], "comm"))
        {
          TtvType *c = ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8);
          c->encoding = TTV_ENCODING_UTF8;
          t = ttv_type_new_array (c, 16);
        }
      else
        {
          guint bits = strcmp (names[i], "prev_state") == 0 ? 64 : 32;
          t = ttv_type_new_integer (bits, TRUE, TTV_BYTE_ORDER_LITTLE, bits);
        }
      ttv_type_add_field (s, names[i], t, NULL);
    }
  ttv_type_finish (s);
  return s;
}

/* --- A live trace ------------------------------------------------------ */

static void
stream_free (TtvTestStream *s)
{
  g_free (s->name);
  g_free (s->data);
  g_array_unref (s->packets);
  if (s->f)
    fclose (s->f);
  g_free (s);
}

TtvTestLive *
ttv_test_live_new (const char *src_dir, const char *dir, gsize packet_size,
                   TtvTestFileBlockFunc file_block, TtvTestBlockCountFunc n_file_blocks)
{
  TtvTestLive *l = g_new0 (TtvTestLive, 1);
  l->src_dir = g_strdup (src_dir);
  l->dir = g_strdup (dir);
  l->packet_size = packet_size;
  l->n_file_blocks = n_file_blocks;
  g_assert_cmpint (g_mkdir_with_parents (l->dir, 0755), ==, 0);
  l->streams = g_ptr_array_new_with_free_func ((GDestroyNotify) stream_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (t->tracefiles, i);
      TtvTestStream *s = g_new0 (TtvTestStream, 1);
      s->name = g_strdup (tf->name);
      g_autofree char *path = g_build_filename (src_dir, tf->name, NULL);
      g_assert_true (g_file_get_contents (path, &s->data, &s->len, NULL));
      g_assert_cmpuint (s->len % packet_size, ==, 0);
      s->packets = g_array_new (FALSE, TRUE, sizeof (TtvTestPacket));
      g_array_set_size (s->packets, (guint) (s->len / packet_size));
      g_assert_cmpuint (n_file_blocks (tf), ==, s->packets->len);
      g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
      g_assert_no_error (error);
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, &error))
        {
          guint b = file_block (tf, &ev);
          g_assert_cmpuint (b, <, s->packets->len);
          TtvTestPacket *p = &g_array_index (s->packets, TtvTestPacket, b);
          p->n_events++;
          p->last = ev.time;
        }
      g_assert_no_error (error);
      g_ptr_array_add (l->streams, s);
    }
  return l;
}

void
ttv_test_live_free (TtvTestLive *l)
{
  g_ptr_array_unref (l->streams);
  g_free (l->src_dir);
  g_free (l->dir);
  g_free (l);
}

void
ttv_test_live_write (TtvTestLive *l, guint i, gsize upto)
{
  TtvTestStream *s = g_ptr_array_index (l->streams, i);
  upto = MIN (upto, s->len);
  if (s->f == NULL)
    {
      g_autofree char *path = g_build_filename (l->dir, s->name, NULL);
      s->f = fopen (path, "ab");
      g_assert_nonnull (s->f);
    }
  if (upto > s->written)
    g_assert_cmpuint (fwrite (s->data + s->written, 1, upto - s->written, s->f), ==, upto - s->written);
  fflush (s->f);
  s->written = MAX (s->written, upto);
}

void
ttv_test_live_packets (TtvTestLive *l, guint i, guint n)
{
  TtvTestStream *s = g_ptr_array_index (l->streams, i);
  gsize size = l->packet_size;
  ttv_test_live_write (l, i, (s->written + size - 1) / size * size + (gsize) n * size);
}

gboolean
ttv_test_live_done (const TtvTestLive *l)
{
  for (guint i = 0; i < l->streams->len; i++)
    {
      const TtvTestStream *s = g_ptr_array_index (l->streams, i);
      if (s->written < s->len)
        return FALSE;
    }
  return TRUE;
}

void
ttv_test_live_check (const TtvTestLive *l, TtvTrace *t)
{
  guint64 total = 0, want_total = 0;
  for (guint i = 0; i < l->streams->len; i++)
    {
      const TtvTestStream *s = g_ptr_array_index (l->streams, i);
      guint whole = (guint) (s->written / l->packet_size);
      guint64 want = 0;
      TtvTime want_last = TTV_TIME_MIN;
      for (guint p = 0; p < whole; p++)
        {
          const TtvTestPacket *pi = &g_array_index (s->packets, TtvTestPacket, p);
          want += pi->n_events;
          if (pi->n_events)
            want_last = pi->last;
        }
      want_total += want;
      TtvTracefile *tf = NULL;
      for (guint j = 0; j < t->tracefiles->len; j++)
        if (strcmp (((TtvTracefile *) g_ptr_array_index (t->tracefiles, j))->name, s->name) == 0)
          tf = g_ptr_array_index (t->tracefiles, j);
      if (whole == 0)
        {
          g_assert_true (tf == NULL || tf->n_blocks == 0);
          continue;
        }
      g_assert_nonnull (tf);
      g_assert_cmpuint (l->n_file_blocks (tf), ==, whole);
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
      g_assert_no_error (error);
      TtvEvent ev;
      guint64 n = 0;
      TtvTime last = TTV_TIME_MIN;
      while (ttv_cursor_next (c, &ev, &error))
        {
          n++;
          last = ev.time;
        }
      g_assert_no_error (error);
      g_assert_cmpuint (n, ==, want);
      g_assert_cmpint (last, ==, want_last);
      total += n;
    }
  g_assert_cmpuint (total, ==, want_total);
}

void
ttv_test_live_finish (TtvTestLive *l, TtvTrace *t)
{
  for (guint i = 0; i < l->streams->len; i++)
    ttv_test_live_write (l, i, G_MAXSIZE);
  gboolean changed = FALSE;
  g_autoptr (GError) error = NULL;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  ttv_test_live_check (l, t);
}

void
ttv_test_live_refresh_rest (TtvTestLive *l, TtvTrace *t)
{
  g_assert_cmpuint (l->streams->len, ==, 3);
  gboolean changed = FALSE;
  g_autoptr (GError) error = NULL;
  /* The block cut short completed, the next one written up to its last byte. */
  ttv_test_live_packets (l, 0, 0);
  ttv_test_live_write (l, 0, 3 * l->packet_size - 1);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  ttv_test_live_check (l, t);

  /* A new stream file, first with a part of a block only. */
  ttv_test_live_write (l, 2, 100);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  g_assert_cmpuint (t->tracefiles->len, ==, 2);
  ttv_test_live_packets (l, 2, 0);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->tracefiles->len, ==, 3);
  ttv_test_live_check (l, t);

  /* Then a block at a time, round robin, with half blocks between. */
  guint steps = 0;
  for (guint round = 0; !ttv_test_live_done (l); round++)
    for (guint i = 0; i < l->streams->len; i++)
      {
        TtvTestStream *s = g_ptr_array_index (l->streams, i);
        if (s->written >= s->len)
          continue;
        ttv_test_live_packets (l, i, 1);
        ttv_test_live_write (l, i, s->written + l->packet_size / 2);
        g_assert_true (ttv_trace_refresh (t, &changed, &error));
        g_assert_no_error (error);
        ttv_test_live_check (l, t);
        steps++;
      }
  g_assert_cmpuint (steps, >, 3);
  g_autoptr (TtvTrace) src = ttv_trace_open (l->src_dir, &error);
  g_assert_no_error (error);
  g_assert_cmpint (t->start, ==, src->start);
  g_assert_cmpint (t->end, ==, src->end);
}

void
ttv_test_live_corrupt (TtvTestLive *l, const char *report, const char *tmp_dir, gsize magic_offset)
{
  g_assert_cmpuint (l->streams->len, >=, 2);
  for (guint i = 0; i < l->streams->len; i++)
    ttv_test_live_packets (l, i, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  ttv_test_live_check (l, t);
  /* ttv-report --follow reads along (its errors go to a file). */
  g_autofree char *err_path = g_build_filename (tmp_dir, "corrupt-err.txt", NULL);
  g_autofree char *out_path = g_build_filename (tmp_dir, "corrupt-out.txt", NULL);
  GPid pid = ttv_test_follow_start (report, l->dir, out_path, err_path);
  ttv_test_follow_wait_output (out_path);

  /* Stream 1's second block with a bad magic. */
  TtvTestStream *s = g_ptr_array_index (l->streams, 1);
  g_assert_cmpuint (s->len, >=, 2 * l->packet_size);
  gsize at = l->packet_size + magic_offset;
  s->data[at] ^= 0x5a;
  ttv_test_live_packets (l, 1, 1);
  gboolean changed;
  g_assert_false (ttv_trace_refresh (t, &changed, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_autofree char *offset = g_strdup_printf ("byte offset %" G_GSIZE_FORMAT, at);
  g_assert_nonnull (strstr (error->message, s->name));
  g_assert_nonnull (strstr (error->message, offset));
  g_assert_nonnull (strstr (error->message, "magic"));
  g_test_message ("%s", error->message);

  /* ttv-report stops with that message. */
  ttv_test_follow_assert_failed (pid, err_path, s->name, offset);
}

void
ttv_test_live_follow_report (TtvTestLive *l, const char *report, const char *out_path, gboolean wait_first)
{
  GPid pid = ttv_test_follow_start (report, l->dir, out_path, "/dev/null");
  if (wait_first)
    ttv_test_follow_wait_output (out_path);
  gsize seen_midway = 0;
  guint round = 0;
  while (!ttv_test_live_done (l))
    {
      for (guint i = 0; i < l->streams->len; i++)
        {
          ttv_test_live_packets (l, i, 1);
          if (round % 2 == 0)
            ttv_test_live_write (l, i, ((TtvTestStream *) g_ptr_array_index (l->streams, i))->written + 200);
        }
      g_usleep (60000);
      if (++round == 3)
        seen_midway = ttv_test_follow_midway (out_path);
    }
  ttv_test_follow_stop (pid, 300);
  g_assert_cmpuint (round, >, 3);
  guint n_lines = ttv_test_follow_assert_complete (report, l->src_dir, out_path, seen_midway);
  g_assert_cmpuint (n_lines, >, 1000);
}

/* --- ttv-report --follow as a subprocess ------------------------------- */

GPid
ttv_test_follow_start (const char *report, const char *trace_dir, const char *out_path, const char *err_path)
{
  const char *argv[] = { report, "--follow", "-o", out_path, trace_dir, NULL };
  int err_fd = -1;
  if (err_path)
    {
      err_fd = open (err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      g_assert_cmpint (err_fd, >=, 0);
    }
  GPid pid;
  g_autoptr (GError) error = NULL;
  gboolean ok = g_spawn_async_with_fds (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                        &pid, -1, -1, err_fd, &error);
  if (err_fd >= 0)
    close (err_fd);
  g_assert_no_error (error);
  g_assert_true (ok);
  return pid;
}

/* Whether @out_path has content within @seconds. */
static gboolean
output_within (const char *out_path, guint seconds)
{
  for (guint i = 0; i < seconds * 40; i++)
    {
      GStatBuf st;
      if (g_stat (out_path, &st) == 0 && st.st_size > 0)
        return TRUE;
      g_usleep (25000);
    }
  return FALSE;
}

void
ttv_test_follow_wait_output (const char *out_path)
{
  if (!output_within (out_path, 10))
    g_error ("ttv-report --follow wrote nothing to %s", out_path);
}

int
ttv_test_follow_wait_exit (GPid pid)
{
  int status = 0;
  for (guint i = 0; i < 400; i++)
    {
      pid_t r = waitpid (pid, &status, WNOHANG);
      g_assert_cmpint (r, >=, 0);
      if (r == pid)
        {
          g_spawn_close_pid (pid);
          return status;
        }
      g_usleep (50000);
    }
  kill (pid, SIGKILL);
  waitpid (pid, &status, 0);
  g_spawn_close_pid (pid);
  g_error ("ttv-report --follow did not stop");
  return status;
}

gsize
ttv_test_follow_midway (const char *out_path)
{
  g_usleep (300000);
  /* A report slow to start (a sanitizer build on a loaded machine takes
   * most of a second) has written nothing yet: wait for its first lines.
   * The writer waits too, so whatever they are, they came midway. */
  output_within (out_path, 20);
  g_autofree char *so_far = NULL;
  gsize len = 0;
  g_file_get_contents (out_path, &so_far, &len, NULL);
  return len;
}

void
ttv_test_follow_stop (GPid pid, guint settle_ms)
{
  g_usleep ((gulong) settle_ms * 1000);
  kill (pid, SIGINT);
  int status = ttv_test_follow_wait_exit (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

void
ttv_test_follow_assert_failed (GPid pid, const char *err_path, const char *what, const char *where)
{
  int status = ttv_test_follow_wait_exit (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), !=, 0);
  g_autofree char *err = NULL;
  g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
  g_assert_nonnull (strstr (err, what));
  g_assert_nonnull (strstr (err, where));
}

guint
ttv_test_follow_assert_complete (const char *report, const char *trace_dir, const char *out_path,
                                 gsize seen_midway)
{
  const char *plain[] = { report, trace_dir, NULL };
  g_autofree char *want = NULL, *got = NULL;
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) plain, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &want,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_true (g_file_get_contents (out_path, &got, NULL, NULL));
  g_autoptr (GPtrArray) gl = ttv_test_lines_of (got), wl = ttv_test_lines_of (want);
  g_test_message ("follow: %u lines, %" G_GSIZE_FORMAT " bytes midway", gl->len, seen_midway);
  ttv_test_assert_same_lines (gl, wl);
  /* Output came while the trace grew, and more of it after. */
  g_assert_cmpuint (seen_midway, >, 0);
  g_assert_cmpuint (seen_midway, <, strlen (got));
  return wl->len;
}

void
ttv_test_assert_same_event (const TtvEvent *a, const TtvEvent *b)
{
  g_assert_cmpint (a->time, ==, b->time);
  g_assert_cmpuint (a->cycles, ==, b->cycles);
  g_assert_true (a->type == b->type);
  g_assert_true (a->tracefile == b->tracefile);
  g_assert_cmpuint (a->pos.block, ==, b->pos.block);
  g_assert_cmpuint (a->pos.offset, ==, b->pos.offset);
  g_assert_cmpuint (a->pos.index, ==, b->pos.index);
  g_assert_cmpuint (a->data_bits, ==, b->data_bits);
  g_assert_cmpmem (a->data, (a->data_bits + 7) / 8, b->data, (b->data_bits + 7) / 8);
  g_assert_cmpuint (a->payload_bit, ==, b->payload_bit);
  g_assert_true (a->priv == b->priv);
}

/* test-lttng-follow.c: LTTng 0.x traces still being written: a writer in the
 * test appends the blocks (and markers) of a generated trace to a live copy
 * while the library refreshes it and while ttv-report --follow reads it. */
#include "ttv-test-util.h"
#include "formats/lttng/ttv-lttng-sim.h"
#include "formats/lttng/ttv-lttng-private.h"
#include "ttv-error.h"
#include "ttv-trace.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#define PACKET 1024u   /* buf_size: the writer's blocks */

static char *tmp_dir;
static char *src_dir;   /* the finished trace */

/* --- The finished trace, block by block ------------------------------- */

typedef struct {
  guint64 n_events;
  TtvTime last;
} PacketInfo;

typedef struct {
  char *name;
  char *data;           /* owned: the whole stream file */
  gsize len;
  GArray *packets;      /* of PacketInfo, from reading the finished trace */
  gsize written;        /* bytes in the live copy */
  FILE *f;
} Stream;

typedef struct {
  char *dir;
  GPtrArray *streams;   /* of Stream *, by name */
} Live;

static void
stream_free (Stream *s)
{
  g_free (s->name);
  g_free (s->data);
  g_array_unref (s->packets);
  if (s->f)
    fclose (s->f);
  g_free (s);
}

static void
make_source (void)
{
  static const guint cpu_ids[] = { 0, 1, 3 };
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 7;
  so.cpu_ids = cpu_ids;
  so.n_cpus = G_N_ELEMENTS (cpu_ids);
  so.n_processes = 20;
  so.max_events = 5000;
  TtvLttngWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .arch_size = 8, .buf_size = PACKET };
  g_autoptr (GError) error = NULL;
  g_assert_true (ttv_lttng_write_simulation (src_dir, &so, &wo, NULL, &error));
  g_assert_no_error (error);
}

static Live *
live_new (const char *name)
{
  Live *l = g_new0 (Live, 1);
  l->dir = g_build_filename (tmp_dir, name, NULL);
  g_assert_cmpint (g_mkdir_with_parents (l->dir, 0755), ==, 0);
  l->streams = g_ptr_array_new_with_free_func ((GDestroyNotify) stream_free);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      TtvTracefile *tf = g_ptr_array_index (t->tracefiles, i);
      Stream *s = g_new0 (Stream, 1);
      s->name = g_strdup (tf->name);
      g_autofree char *path = g_build_filename (src_dir, tf->name, NULL);
      g_assert_true (g_file_get_contents (path, &s->data, &s->len, NULL));
      g_assert_cmpuint (s->len % PACKET, ==, 0);
      s->packets = g_array_new (FALSE, TRUE, sizeof (PacketInfo));
      g_array_set_size (s->packets, s->len / PACKET);
      g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
      g_assert_no_error (error);
      const TtvLttngFile *f = tf->priv;
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, &error))
        {
          /* Cursor blocks are the non-empty ones in time order: back to file blocks. */
          g_assert_cmpuint (ev.pos.block, <, f->blocks->len);
          guint fb = g_array_index (f->blocks, TtvLttngBlock, ev.pos.block).file_block;
          g_assert_cmpuint (fb, <, s->packets->len);
          PacketInfo *p = &g_array_index (s->packets, PacketInfo, fb);
          p->n_events++;
          p->last = ev.time;
        }
      g_assert_no_error (error);
      g_ptr_array_add (l->streams, s);
    }
  g_assert_cmpuint (l->streams->len, ==, 3);
  return l;
}

static void
live_free (Live *l)
{
  g_ptr_array_unref (l->streams);
  g_free (l->dir);
  g_free (l);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Live, live_free)

/* Appends bytes [written, @upto) of stream @i to its live file. */
static void
live_write (Live *l, guint i, gsize upto)
{
  Stream *s = g_ptr_array_index (l->streams, i);
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

/* Completes the block being written and appends @n more. */
static void
live_packets (Live *l, guint i, guint n)
{
  Stream *s = g_ptr_array_index (l->streams, i);
  live_write (l, i, (s->written + PACKET - 1) / PACKET * PACKET + (gsize) n * PACKET);
}

static gboolean
live_done (const Live *l)
{
  for (guint i = 0; i < l->streams->len; i++)
    {
      const Stream *s = g_ptr_array_index (l->streams, i);
      if (s->written < s->len)
        return FALSE;
    }
  return TRUE;
}

/* The control files (markers, processes, interrupts) of the finished trace;
 * with @first_facility_block, only the first block of facilities_0 (the
 * other control files would use markers it does not describe yet). */
static void
copy_control (const char *to_dir, gboolean first_facility_block)
{
  g_autofree char *from = g_build_filename (src_dir, "control", NULL);
  g_autofree char *to = g_build_filename (to_dir, "control", NULL);
  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  g_assert_nonnull (d);
  const char *name;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *a = g_build_filename (from, name, NULL), *b = g_build_filename (to, name, NULL);
      g_autofree char *data = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (a, &data, &len, NULL));
      if (first_facility_block)
        {
          if (strcmp (name, "facilities_0") != 0)
            continue;
          g_assert_cmpuint (len, >=, 2 * PACKET);
          len = PACKET;
        }
      g_assert_true (g_file_set_contents (b, data, (gssize) len, NULL));
    }
}

/* The live trace holds, per cpu file, the events of its whole blocks. */
static void
check_trace (const Live *l, TtvTrace *t)
{
  guint64 total = 0, want_total = 0;
  for (guint i = 0; i < l->streams->len; i++)
    {
      const Stream *s = g_ptr_array_index (l->streams, i);
      guint whole = (guint) (s->written / PACKET);
      guint64 want = 0;
      TtvTime want_last = TTV_TIME_MIN;
      for (guint p = 0; p < whole; p++)
        {
          const PacketInfo *pi = &g_array_index (s->packets, PacketInfo, p);
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
      g_assert_cmpuint (((const TtvLttngFile *) tf->priv)->n_file_blocks, ==, whole);
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

/* --- (a) the library refresh ------------------------------------------ */

static void
test_refresh (void)
{
  g_autoptr (Live) l = live_new ("live-refresh");
  copy_control (l->dir, FALSE);
  /* cpu_0 and cpu_1 have a block; cpu_3 does not exist yet. */
  live_packets (l, 0, 1);
  live_packets (l, 1, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (t->tracefiles->len, ==, 2);
  check_trace (l, t);

  /* The first bytes of the next block: nothing to read yet. */
  live_write (l, 0, PACKET + 40);
  gboolean changed = TRUE;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);

  /* That block completed, the next one written up to its last byte. */
  live_packets (l, 0, 0);
  live_write (l, 0, 3 * PACKET - 1);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  check_trace (l, t);

  /* A new cpu file, first with a part of a block only. */
  live_write (l, 2, 100);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  g_assert_cmpuint (t->tracefiles->len, ==, 2);
  live_packets (l, 2, 0);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->tracefiles->len, ==, 3);
  check_trace (l, t);

  /* Then a block at a time, round robin, with half blocks between. */
  guint steps = 0;
  for (guint round = 0; !live_done (l); round++)
    for (guint i = 0; i < l->streams->len; i++)
      {
        Stream *s = g_ptr_array_index (l->streams, i);
        if (s->written >= s->len)
          continue;
        live_packets (l, i, 1);
        live_write (l, i, s->written + PACKET / 2);
        g_assert_true (ttv_trace_refresh (t, &changed, &error));
        g_assert_no_error (error);
        check_trace (l, t);
        steps++;
      }
  g_assert_cmpuint (steps, >, 3);
  g_autoptr (TtvTrace) src = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  g_assert_cmpint (t->start, ==, src->start);
  g_assert_cmpint (t->end, ==, src->end);
}

/* --- Markers registered while tracing ---------------------------------- */

static void
test_markers (void)
{
  g_autoptr (Live) l = live_new ("live-markers");
  copy_control (l->dir, TRUE);
  live_packets (l, 0, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) src = ttv_trace_open (src_dir, &error);
  g_assert_no_error (error);
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  guint n_open = t->event_types->len;
  g_assert_cmpuint (n_open, <, src->event_types->len);

  /* The rest of the facilities files, a part of a block first. */
  g_autofree char *from = g_build_filename (src_dir, "control", NULL);
  g_autofree char *to = g_build_filename (l->dir, "control", NULL);
  g_autoptr (GDir) d = g_dir_open (from, 0, NULL);
  const char *name;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)))
    if (g_str_has_prefix (name, "facilities_"))
      g_ptr_array_add (names, g_strdup (name));
  g_autofree char *f0 = g_build_filename (from, "facilities_0", NULL);
  g_autofree char *live_f0 = g_build_filename (to, "facilities_0", NULL);
  g_autofree char *f0_data = NULL;
  gsize f0_len;
  g_assert_true (g_file_get_contents (f0, &f0_data, &f0_len, NULL));
  FILE *f = fopen (live_f0, "ab");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (f0_data + PACKET, 1, 300, f), ==, 300);
  fflush (f);
  gboolean changed = TRUE;
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_false (changed);
  g_assert_cmpuint (t->event_types->len, ==, n_open);
  g_assert_cmpuint (fwrite (f0_data + PACKET + 300, 1, f0_len - PACKET - 300, f), ==, f0_len - PACKET - 300);
  fclose (f);
  for (guint i = 0; i < names->len; i++)
    {
      const char *n = g_ptr_array_index (names, i);
      if (strcmp (n, "facilities_0") == 0)
        continue;
      g_autofree char *a = g_build_filename (from, n, NULL), *b = g_build_filename (to, n, NULL);
      g_autofree char *data = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (a, &data, &len, NULL));
      g_assert_true (g_file_set_contents (b, data, (gssize) len, NULL));
    }
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  g_assert_cmpuint (t->event_types->len, ==, src->event_types->len);
  for (guint i = 0; i < src->event_types->len; i++)
    {
      const TtvEventType *want = g_ptr_array_index (src->event_types, i);
      const TtvEventType *got = ttv_trace_find_event_type (t, want->full_name);
      g_assert_nonnull (got);
      g_assert_cmpuint (got->format_id, ==, want->format_id);
      g_assert_cmpuint (got->fields->fields->len, ==, want->fields->fields->len);
    }

  /* Every block: all events decode. */
  for (guint i = 0; i < l->streams->len; i++)
    live_packets (l, i, G_MAXUINT16);
  g_assert_true (ttv_trace_refresh (t, &changed, &error));
  g_assert_no_error (error);
  g_assert_true (changed);
  check_trace (l, t);
  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  guint64 decoded = 0;
  for (guint i = 0; i < t->tracefiles->len; i++)
    {
      g_autoptr (TtvCursor) c = ttv_cursor_new (g_ptr_array_index (t->tracefiles, i), &error);
      TtvEvent ev;
      while (ttv_cursor_next (c, &ev, &error))
        {
          ttv_decoder_reset (dec);
          g_assert_cmpint (ttv_event_decode_fields (&ev, dec, &error), >=, 0);
          g_assert_no_error (error);
          decoded++;
        }
      g_assert_no_error (error);
    }
  g_assert_cmpuint (decoded, >, 1000);
}

/* --- A damaged block appended ----------------------------------------- */

/* Waits (up to 10 s) until ttv-report wrote something to @path: it has
 * opened the trace. */
static void
wait_output (const char *path)
{
  for (guint i = 0; i < 400; i++)
    {
      GStatBuf st;
      if (g_stat (path, &st) == 0 && st.st_size > 0)
        return;
      g_usleep (25000);
    }
  g_error ("ttv-report --follow wrote nothing to %s", path);
}

/* Waits up to 20 s for @pid to exit; returns its wait status. */
static int
wait_exit (GPid pid)
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

static void
test_corrupt (void)
{
  g_autoptr (Live) l = live_new ("live-corrupt");
  copy_control (l->dir, FALSE);
  for (guint i = 0; i < l->streams->len; i++)
    live_packets (l, i, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTrace) t = ttv_trace_open (l->dir, &error);
  g_assert_no_error (error);
  check_trace (l, t);
  /* ttv-report --follow reads along (its errors go to a file). */
  g_autofree char *err_path = g_build_filename (tmp_dir, "corrupt-err.txt", NULL);
  g_autofree char *out_path = g_build_filename (tmp_dir, "corrupt-out.txt", NULL);
  g_autofree char *q_report = g_shell_quote (TTV_REPORT_PATH), *q_dir = g_shell_quote (l->dir);
  g_autofree char *q_err = g_shell_quote (err_path), *q_out = g_shell_quote (out_path);
  g_autofree char *cmd = g_strdup_printf ("exec %s --follow -o %s %s 2>%s", q_report, q_out, q_dir, q_err);
  const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
  GPid pid;
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid,
                                &error));
  g_assert_no_error (error);
  wait_output (out_path);

  /* cpu_1's second block with a bad magic. */
  Stream *s = g_ptr_array_index (l->streams, 1);
  g_assert_cmpuint (s->len, >=, 2 * PACKET);
  s->data[PACKET + TTV_LTTNG_OFF_MAGIC] ^= 0x5a;
  live_packets (l, 1, 1);
  gboolean changed;
  g_assert_false (ttv_trace_refresh (t, &changed, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_autofree char *offset = g_strdup_printf ("byte offset %u", PACKET + TTV_LTTNG_OFF_MAGIC);
  g_assert_nonnull (strstr (error->message, s->name));
  g_assert_nonnull (strstr (error->message, offset));
  g_assert_nonnull (strstr (error->message, "magic"));
  g_test_message ("%s", error->message);

  /* ttv-report stops with that message. */
  int status = wait_exit (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), !=, 0);
  g_autofree char *err = NULL;
  g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
  g_assert_nonnull (strstr (err, s->name));
  g_assert_nonnull (strstr (err, offset));
}

/* --- (b) ttv-report --follow ------------------------------------------ */

static GPtrArray *
lines_of (const char *text)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) v = g_strsplit (text, "\n", -1);
  for (guint i = 0; v[i]; i++)
    if (v[i][0])
      g_ptr_array_add (lines, g_strdup (v[i]));
  return lines;
}

static void
test_report (void)
{
  g_autoptr (Live) l = live_new ("live-report");
  copy_control (l->dir, FALSE);
  /* Every cpu file starts with a block (so that the report knows how far
   * each CPU got). */
  for (guint i = 0; i < l->streams->len; i++)
    live_packets (l, i, 1);
  g_autofree char *out_path = g_build_filename (tmp_dir, "follow-lttng.txt", NULL);
  const char *argv[] = { TTV_REPORT_PATH, "--follow", "-o", out_path, l->dir, NULL };
  GPid pid;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
                                NULL, NULL, &pid, &error));
  g_assert_no_error (error);
  /* Opening refuses a cpu file that ends inside a block (docs/lttng-format.md):
   * half blocks are written once the report has opened the trace and
   * printed what the first blocks hold. */
  wait_output (out_path);
  gsize seen_midway = 0;
  guint round = 0;
  while (!live_done (l))
    {
      for (guint i = 0; i < l->streams->len; i++)
        {
          live_packets (l, i, 1);
          if (round % 2 == 0)
            live_write (l, i, ((Stream *) g_ptr_array_index (l->streams, i))->written + 200);
        }
      g_usleep (60000);
      if (++round == 3)
        {
          g_autofree char *so_far = NULL;
          g_usleep (300000);
          g_file_get_contents (out_path, &so_far, &seen_midway, NULL);
        }
    }
  g_usleep (300000);
  kill (pid, SIGINT);
  int status = wait_exit (pid);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_cmpuint (round, >, 3);
  g_assert_cmpuint (seen_midway, >, 0);

  const char *plain[] = { TTV_REPORT_PATH, src_dir, NULL };
  g_autofree char *want = NULL, *got = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) plain, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &want,
                               NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (out_path, &got, NULL, NULL));
  g_autoptr (GPtrArray) gl = lines_of (got), wl = lines_of (want);
  g_test_message ("follow: %u lines, %" G_GSIZE_FORMAT " bytes midway", gl->len, seen_midway);
  for (guint i = 0; i < MIN (gl->len, wl->len); i++)
    if (strcmp (g_ptr_array_index (gl, i), g_ptr_array_index (wl, i)) != 0)
      g_error ("line %u:\n got  %s\n want %s", i + 1, (char *) g_ptr_array_index (gl, i),
               (char *) g_ptr_array_index (wl, i));
  g_assert_cmpuint (gl->len, ==, wl->len);
  g_assert_cmpuint (wl->len, >, 1000);
  g_assert_cmpuint (seen_midway, <, strlen (got));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("ttv-lttng-follow-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  src_dir = g_build_filename (tmp_dir, "src", NULL);
  make_source ();
  g_test_add_func ("/lttng/follow/refresh", test_refresh);
  g_test_add_func ("/lttng/follow/markers", test_markers);
  g_test_add_func ("/lttng/follow/corrupt", test_corrupt);
  g_test_add_func ("/lttng/follow/report", test_report);
  int status = g_test_run ();
  ttv_test_remove_tree (tmp_dir);
  g_free (src_dir);
  g_free (tmp_dir);
  return status;
}

/* test-damage.c: a trace that skips damage reads on past a damaged block
 * (ttv-trace-damage.c): the events delivered are the intact trace's minus
 * the damaged block's from the damage on, the damage is recorded once with
 * file and byte offset, merged reading and seeks go on; without skipping,
 * reading fails as before.  LTT and LTTng 0.x traces from ttv-gen. */
#include "ttv-context.h"
#include "ttv-error.h"
#include "ttv-test-util.h"
#include "ttv-trace-damage.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  TtvTracefilePosition pos;
  TtvTime time;
} Seen;

static void
gen (const char *format, const char *dir)
{
  g_autofree char *cmd = g_strdup_printf ("'%s' -q -f %s -n 20000 -c 2 -b 4096 -o '%s'",
                                          TTV_GEN_PATH, format, dir);
  int status;

  g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* Every event of tracefile @index of @t, in file order; FALSE with @error
 * when reading fails (what was read is in @out). */
static gboolean
read_tracefile (TtvTrace *t, guint index, GArray *out, GError **error)
{
  TtvTracefile *tf = t->tracefiles->pdata[index];
  g_autoptr (TtvCursor) c = ttv_cursor_new (tf, error);
  TtvEvent ev;

  g_assert_nonnull (c);
  while (ttv_cursor_next (c, &ev, error))
    {
      Seen s = { ev.pos, ev.time };
      g_array_append_val (out, s);
    }
  return error == NULL || *error == NULL;
}

static guint64
count_merged (TtvTraceset *ts, GError **error)
{
  TtvContext *ctx = ttv_context_new (ts, error);
  guint64 n = 0;

  g_assert_nonnull (ctx);
  g_assert_true (ttv_context_seek_begin (ctx, error));
  while (ttv_context_next (ctx, error))
    n++;
  ttv_context_free (ctx);
  return n;
}

/* A traceset of the one trace at @dir (it owns the trace). */
static TtvTraceset *
open_traceset (const char *dir, TtvTrace **trace)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();

  *trace = ttv_trace_open (dir, &error);
  g_assert_no_error (error);
  ttv_traceset_add_trace (ts, *trace);
  return ts;
}

static void
test_skip (gconstpointer data)
{
  const char *format = data;
  g_autofree char *good_dir = g_build_filename (ttv_test_get_tmp_dir (), format, "good", NULL);
  g_autofree char *bad_dir = g_build_filename (ttv_test_get_tmp_dir (), format, "bad", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) good = g_array_new (FALSE, FALSE, sizeof (Seen));
  g_autoptr (GArray) bad = g_array_new (FALSE, FALSE, sizeof (Seen));
  g_autoptr (GArray) partial = g_array_new (FALSE, FALSE, sizeof (Seen));
  g_autoptr (GPtrArray) damage = NULL;
  g_autofree char *file = NULL, *offset_text = NULL;
  g_autoptr (TtvTraceset) good_ts = NULL, bad_ts = NULL;
  TtvTrace *t;
  const Seen *hit = NULL;
  guint64 file_offset, skipped = 0, n_good_total;
  guint block_size = 4096;
  FILE *f;

  gen (format, good_dir);
  {
    g_autofree char *cmd = g_strdup_printf ("cp -r '%s' '%s'", good_dir, bad_dir);
    g_assert_true (g_spawn_command_line_sync (cmd, NULL, NULL, NULL, NULL));
  }

  /* The intact tracefile 1, and an event in its second block to damage. */
  good_ts = open_traceset (good_dir, &t);
  g_assert_true (read_tracefile (t, 1, good, &error));
  n_good_total = count_merged (good_ts, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < good->len && !hit; i++)
    {
      const Seen *s = &g_array_index (good, Seen, i);
      if (s->pos.block == 1 && s->pos.index == 10)
        hit = s;
    }
  g_assert_nonnull (hit);
  file = g_build_filename (bad_dir, ((TtvTracefile *) t->tracefiles->pdata[1])->name, NULL);
  /* Generated blocks lie in file order: block 1 starts at one block size. */
  file_offset = block_size + hit->pos.offset;
  f = fopen (file, "r+b");
  g_assert_nonnull (f);
  g_assert_cmpint (fseek (f, (long) file_offset, SEEK_SET), ==, 0);
  for (int i = 0; i < 16; i++)
    fputc (0xff, f);
  fclose (f);
  offset_text = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT, file_offset);

  /* Without skipping: reading stops there, saying where. */
  bad_ts = open_traceset (bad_dir, &t);
  g_assert_false (ttv_trace_get_skip_damage (t));
  g_assert_cmpuint (count_merged (bad_ts, &error), <, n_good_total);
  g_assert_error (error, TTV_ENGINE_ERROR, TTV_ENGINE_ERROR_READ);
  g_clear_error (&error);
  g_assert_false (read_tracefile (t, 1, partial, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, file));
  g_assert_nonnull (strstr (error->message, offset_text));
  g_clear_error (&error);

  /* Skipping: the intact events minus block 1 from the damaged event on. */
  ttv_trace_set_skip_damage (t, TRUE);
  g_assert_true (read_tracefile (t, 1, bad, &error));
  g_assert_no_error (error);
  for (guint i = 0, j = 0; i < good->len; i++)
    {
      const Seen *s = &g_array_index (good, Seen, i);
      if (s->pos.block == 1 && s->pos.index >= 10)
        {
          skipped++;
          continue;
        }
      g_assert_cmpuint (j, <, bad->len);
      g_assert_cmpuint (g_array_index (bad, Seen, j).pos.block, ==, s->pos.block);
      g_assert_cmpuint (g_array_index (bad, Seen, j).pos.offset, ==, s->pos.offset);
      g_assert_cmpint (g_array_index (bad, Seen, j).time, ==, s->time);
      j++;
    }
  g_assert_cmpuint (bad->len + skipped, ==, good->len);
  g_assert_cmpuint (skipped, >, 0);
  damage = ttv_trace_dup_damage (t);
  g_assert_cmpuint (damage->len, ==, 1);
  g_assert_nonnull (strstr (damage->pdata[0], file));
  g_assert_nonnull (strstr (damage->pdata[0], offset_text));

  /* Merged: the whole traceset reads to its end; the same damage is not
   * recorded twice. */
  g_assert_cmpuint (count_merged (bad_ts, &error), ==, n_good_total - skipped);
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_trace_get_n_damage (t), ==, 1);

  /* Seeking into the damaged part lands after it, on the next block. */
  {
    TtvTracefile *tf = t->tracefiles->pdata[1];
    g_autoptr (TtvCursor) c = ttv_cursor_new (tf, &error);
    TtvEvent ev;
    const Seen *after = NULL;

    for (guint i = 0; i < good->len && !after; i++)
      if (g_array_index (good, Seen, i).pos.block == 2)
        after = &g_array_index (good, Seen, i);
    g_assert_nonnull (after);
    g_assert_true (ttv_cursor_seek_time (c, hit->time + 1, &error));
    g_assert_no_error (error);
    g_assert_true (ttv_cursor_next (c, &ev, &error));
    g_assert_cmpuint (ev.pos.block, ==, 2);
    g_assert_cmpuint (ev.pos.offset, ==, after->pos.offset);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/damage/skip/ltt", "ltt", test_skip);
  g_test_add_data_func ("/damage/skip/lttng", "lttng", test_skip);
  return g_test_run ();
}

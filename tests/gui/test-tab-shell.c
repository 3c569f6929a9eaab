/* test-tab-shell.c: the application shell around the views, in a real
 * window under Xvfb: bookmark saves into a large archive run in the
 * background (the main loop keeps answering, progress, Cancel, the archive
 * untouched until a save succeeds), read-only traces, delete and Undo. */
#include "ttv-config.h"

#include "ttv-archive.h"
#include "ttv-bookmarks.h"
#include "ttv-clock-offset-dialog.h"
#include "ttv-gui-test-util.h"
#include "ttv-test-util.h"
#include "ttv-info-dialog.h"
#include "ttv-marker-colors.h"
#include "ttv-settings.h"
#include "ttv-state-tracker.h"
#include "ttv-tab.h"
#include "ttv-window.h"
#include "ttv-welcome.h"
#include "ttv-application.h"
#include "ttv-bookmark-dialog.h"
#include "ttv-bookmarks-panel.h"

#include <archive.h>
#include <archive_entry.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *tmp_base;    /* the program's temporary directory: traces, archives, XDG folders */

static char *
run_sh (const char *script)
{
  const char *argv[] = { "/bin/sh", "-c", script, NULL };
  char *out = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_strstrip (out);
}

static GSettings *
settings (void)
{
  GSettings *s = ttv_settings_get ();

  g_assert_nonnull (s);   /* the test environment has the compiled schema */
  return s;
}

/* A copy of the sample trace named @name in the run's folder. */
static char *
copy_sample (const char *name)
{
  const char *sample = g_getenv ("TTV_SAMPLE_TRACE");
  g_autofree char *dest = g_build_filename (tmp_base, name, NULL);
  g_autofree char *script = NULL;

  if (!sample || !g_file_test (sample, G_FILE_TEST_IS_DIR))
    return NULL;
  script = g_strdup_printf ("rm -rf '%s' && cp -r '%s' '%s' && rm -f '%s/info/bookmarks.xml'",
                            dest, sample, dest, dest);
  g_free (run_sh (script));
  return g_steal_pointer (&dest);
}

/* Every member of an archive: name, then a checksum of its data. */
static GHashTable *
archive_members (const char *path)
{
  GHashTable *members = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  struct archive *r = archive_read_new ();
  struct archive_entry *e;
  static char buf[65536];

  archive_read_support_filter_all (r);
  archive_read_support_format_all (r);
  g_assert_cmpint (archive_read_open_filename (r, path, 65536), ==, ARCHIVE_OK);
  while (archive_read_next_header (r, &e) == ARCHIVE_OK)
    {
      GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
      la_ssize_t n;

      while ((n = archive_read_data (r, buf, sizeof buf)) > 0)
        g_checksum_update (sum, (const guchar *) buf, n);
      g_hash_table_insert (members, g_strdup (archive_entry_pathname (e)),
                           g_strdup (g_checksum_get_string (sum)));
      g_checksum_free (sum);
    }
  archive_read_free (r);
  return members;
}

/* --- A tab on a traceset in its own window ------------------------------------- */

typedef struct {
  TtvTraceset *ts;
  GtkWidget *window;
  TtvTab *tab;
  TtvTabState *state;
} Shell;

/* @read_only: as a trace on a read-only file system (root, who runs the
 * tests here, ignores permissions). */
static gboolean
bookmarks_loaded (gpointer tab)
{
  return !ttv_tab_bookmarks_is_loading (ttv_tab_get_bookmarks (tab));
}

/* Opens @path in a new window; with @wait, until its bookmarks are read
 * (which lets the first background passes run too). */
static void
shell_open_full (Shell *s, const char *path, gboolean read_only, gboolean wait)
{
  g_autoptr (GError) error = NULL;

  memset (s, 0, sizeof *s);
  s->ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (s->ts, path, &error));
  g_assert_no_error (error);
  if (read_only)
    ttv_traceset_get_trace (s->ts, 0)->flags |= TTV_TRACE_FLAG_READ_ONLY;
  s->window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (s->window), 1100, 700);
  s->tab = TTV_TAB (ttv_tab_new (s->ts));
  gtk_container_add (GTK_CONTAINER (s->window), GTK_WIDGET (s->tab));
  gtk_widget_show_all (s->window);
  s->state = ttv_tab_get_state (s->tab);
  /* The bookmarks are read in the background. */
  if (wait)
    ttv_gui_test_spin_until (bookmarks_loaded, s->tab);
}

static void
shell_open (Shell *s, const char *path)
{
  shell_open_full (s, path, FALSE, TRUE);
}

static void
shell_close (Shell *s)
{
  gtk_widget_destroy (s->window);
  g_clear_pointer (&s->ts, ttv_traceset_unref);
  ttv_gui_test_spin_pending ();
}

static gboolean
saver_idle (gpointer saver)
{
  return !ttv_bookmark_saver_is_busy (saver);
}

static TtvBookmarkSaver *
shell_saver (Shell *s)
{
  return ttv_tab_bookmarks_get_saver (ttv_tab_get_bookmarks (s->tab));
}

/* Adds a bookmark as the dialog does (then the tab saves in the background). */
static void
add_bookmark (Shell *s, const char *name, TtvTime time)
{
  ttv_tab_add_bookmark (s->tab, ttv_viewer_bookmark_new (name, "", -1, time, time));
}

/* --- Saving into a large archive in the background ---------------------------- */

/* The sample trace with a large member that does not compress, as a
 * .tar.gz: rewriting it takes long enough to be seen. */
static char *
make_large_archive (const char *name, guint megabytes)
{
  g_autofree char *dir = copy_sample (name);
  g_autofree char *tgz = NULL;
  g_autofree char *script = NULL;

  if (!dir)
    return NULL;
  tgz = g_strdup_printf ("%s.tar.gz", dir);
  script = g_strdup_printf ("head -c %uM /dev/urandom > '%s/padding' && tar -C '%s' -czf '%s' '%s'",
                            megabytes, dir, tmp_base, tgz, name);
  g_free (run_sh (script));
  return g_steal_pointer (&tgz);
}

typedef struct {
  gint64 first;           /* monotonic time of the first tick during the save */
  gint64 last;            /* monotonic time of the last tick */
  gint64 max_gap;
  guint ticks;
  gdouble max_fraction;
  TtvBookmarkSaver *saver;
} Ticker;

/* While a save runs: how often the main loop gets to run a 10 ms timer. */
static gboolean
tick (gpointer data)
{
  Ticker *t = data;
  gint64 now = g_get_monotonic_time ();

  if (ttv_bookmark_saver_is_busy (t->saver))
    {
      if (!t->first)
        t->first = now;
      if (t->last)
        t->max_gap = MAX (t->max_gap, now - t->last);
      t->ticks++;
      t->max_fraction = MAX (t->max_fraction, ttv_bookmark_saver_get_fraction (t->saver));
    }
  t->last = now;
  return G_SOURCE_CONTINUE;
}

static void
test_save_archive_background (void)
{
  g_autofree char *tgz = make_large_archive ("bg-save", 24);
  g_autoptr (GHashTable) before = NULL, after = NULL;
  Ticker ticker = { 0 };
  guint tick_id;
  Shell s;
  GHashTableIter iter;
  gpointer key, value;
  TtvTime start, end;

  if (!tgz)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  before = archive_members (tgz);
  shell_open (&s, tgz);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  ticker.saver = shell_saver (&s);
  tick_id = g_timeout_add (10, tick, &ticker);

  ttv_tab_state_get_time_span (s.state, &start, &end);
  ttv_tab_state_set_current_time (s.state, start + (end - start) / 3);
  g_assert_false (ttv_tab_undo_delete_bookmark (s.tab));    /* nothing deleted */
  add_bookmark (&s, "in-archive", start + (end - start) / 3);
  g_assert_true (ttv_bookmark_saver_is_busy (ticker.saver));
  g_assert_nonnull (ttv_status_bar_get_job_text (ttv_tab_get_status_bar (s.tab), TTV_STATUS_JOB_SAVE));
  ttv_gui_test_spin_until (saver_idle, ticker.saver);
  g_source_remove (tick_id);

  /* The main loop ran all along: a save on it would make one gap as long as
   * the save (compared with the save's length, so that a slow machine or
   * the sanitizers, where drawing alone takes a few hundred ms, do not
   * matter).  Three ticks are the fewest that can show it: with two, the
   * one gap is the whole save.  A count fixed higher failed under ASan
   * when one frame's drawing held the loop for 640 ms of a 1 s save. */
  g_test_message ("save: %u ticks over %" G_GINT64_FORMAT " us, longest gap %" G_GINT64_FORMAT
                  " us, progress up to %.2f", ticker.ticks, ticker.last - ticker.first,
                  ticker.max_gap, ticker.max_fraction);
  g_assert_cmpuint (ticker.ticks, >=, 3);
  g_assert_cmpint (ticker.max_gap, <, (ticker.last - ticker.first) * 3 / 4);
  g_assert_cmpfloat (ticker.max_fraction, >, 0.2);
  g_assert_null (ttv_status_bar_get_job_text (ttv_tab_get_status_bar (s.tab), TTV_STATUS_JOB_SAVE));
  g_assert_null (ttv_notifications_get_text (ttv_tab_get_notifications (s.tab), "bookmark-save"));

  /* In the archive: the bookmark; every other member unchanged. */
  after = archive_members (tgz);
  g_assert_cmpuint (g_hash_table_size (after), ==, g_hash_table_size (before) + 1);
  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpstr (g_hash_table_lookup (after, key), ==, value);
  {
    g_autofree char *script = g_strdup_printf ("tar -xzOf '%s' bg-save/info/bookmarks.xml", tgz);
    g_autofree char *xml = run_sh (script);
    g_assert_nonnull (strstr (xml, "name=\"in-archive\""));
  }
  shell_close (&s);
}

static gboolean
fraction_above (gpointer saver)
{
  return ttv_bookmark_saver_get_fraction (saver) > 0.05 || !ttv_bookmark_saver_is_busy (saver);
}

static void
test_save_archive_cancel (void)
{
  g_autofree char *tgz = make_large_archive ("cancel-save", 24);
  g_autofree char *data = NULL, *now = NULL;
  gsize len, now_len;
  TtvNotifications *notes;
  TtvStatusBar *bar;
  Shell s;
  TtvTime start, end;

  if (!tgz)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  g_assert_true (g_file_get_contents (tgz, &data, &len, NULL));
  shell_open (&s, tgz);
  notes = ttv_tab_get_notifications (s.tab);
  bar = ttv_tab_get_status_bar (s.tab);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  ttv_tab_state_get_time_span (s.state, &start, &end);
  add_bookmark (&s, "kept-out", start);
  ttv_gui_test_spin_until (fraction_above, shell_saver (&s));
  g_assert_true (ttv_bookmark_saver_is_busy (shell_saver (&s)));

  /* Cancel from the status bar: the archive stays as it was. */
  g_assert_true (ttv_status_bar_activate_job (bar, TTV_STATUS_JOB_SAVE));
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  g_assert_true (g_file_get_contents (tgz, &now, &now_len, NULL));
  g_assert_cmpmem (now, now_len, data, len);
  {
    g_autofree char *dir = g_path_get_dirname (tgz);
    g_autofree char *script = g_strdup_printf ("ls -a '%s' | grep -c '^\\.cancel-save' || true", dir);
    g_autofree char *temps = run_sh (script);
    g_assert_cmpstr (temps, ==, "0");
  }
  g_assert_nonnull (strstr (ttv_notifications_get_text (notes, "bookmark-save"), "cancelled"));

  /* Save Again: now it is in. */
  g_assert_true (ttv_notifications_activate (notes, "bookmark-save"));
  g_assert_true (ttv_bookmark_saver_is_busy (shell_saver (&s)));
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  {
    g_autofree char *script = g_strdup_printf ("tar -xzOf '%s' cancel-save/info/bookmarks.xml", tgz);
    g_autofree char *xml = run_sh (script);
    g_assert_nonnull (strstr (xml, "name=\"kept-out\""));
  }
  shell_close (&s);
}

/* --- Read-only traces ---------------------------------------------------------- */

/* The question a read-only trace's first save asks, once on screen. */
static GtkDialog *
find_read_only_dialog (void)
{
  g_autoptr (GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l; l = l->next)
    if (GTK_IS_DIALOG (l->data) && gtk_widget_get_visible (l->data)
        && g_strcmp0 (gtk_widget_get_name (l->data), "ttv-read-only-dialog") == 0)
      return l->data;
  return NULL;
}

static void
shell_open_read_only (Shell *s, const char *path)
{
  shell_open_full (s, path, TRUE, TRUE);
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  return g_file_get_contents (path, &text, NULL, NULL) ? text : NULL;
}

/* The bookmarks panel's "Saved in …" line, once it has one. */
static gboolean
location_shown (gpointer label)
{
  return *gtk_label_get_text (GTK_LABEL (label)) != '\0';
}

/* A clock offset saved with a trace's bookmarks (ttv-report --offset
 * T=1.5 --save-offsets) stays when the viewer saves a bookmark added to
 * that trace: it used to be dropped. */
static void
test_bookmarks_keep_clock (void)
{
  g_autofree char *dir = copy_sample ("keep-clock");
  g_autofree char *file = NULL, *text = NULL;
  g_autoptr (GError) error = NULL;
  TtvTime start, end;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  {
    g_autoptr (TtvTrace) trace = ttv_trace_open (dir, &error);
    g_autoptr (TtvBookmarks) list = NULL;

    g_assert_no_error (error);
    list = ttv_bookmarks_load_for_trace (trace, &error);
    g_assert_no_error (error);
    ttv_bookmarks_set_clock_offset (list, TRUE, 1500000000);
    g_assert_true (ttv_bookmarks_save_for_trace (list, trace, &error));
    g_assert_no_error (error);
    file = ttv_bookmarks_dup_path (trace, TTV_BOOKMARKS_IN_TRACE);
  }
  shell_open (&s, dir);
  ttv_tab_state_get_time_span (s.state, &start, &end);
  add_bookmark (&s, "with-clock", start + 1000);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  text = read_text (file);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "name=\"with-clock\""));
  g_assert_nonnull (strstr (text, "<clock offset=\"+1.500000000\""));
  shell_close (&s);
}

typedef struct {
  TtvTabState *state;
  TtvTime start;
} SpanStarts;

static gboolean
span_starts_at (gpointer data)
{
  SpanStarts *s = data;
  TtvTime start, end;

  ttv_tab_state_get_time_span (s->state, &start, &end);
  return start == s->start;
}

/* File > Clock Offsets: a typed offset corrects the trace (its span moves
 * by it), is kept with its bookmarks and applies again when the trace is
 * opened next; what is not a number of seconds is refused and said, and
 * changes nothing. */
static void
test_clock_offsets (void)
{
  g_autofree char *dir = copy_sample ("clock-offsets");
  g_autofree char *file = NULL, *text = NULL;
  GtkWidget *dialog, *entry;
  GtkLabel *problem;
  TtvTime start0, start, end;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  shell_open (&s, dir);
  ttv_tab_state_get_time_span (s.state, &start0, &end);
  dialog = ttv_clock_offset_dialog_new (GTK_WINDOW (s.window), s.tab);
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  gtk_widget_show (dialog);
  entry = ttv_gui_test_find_widget (dialog, GTK_TYPE_ENTRY, "clock-offset");
  problem = GTK_LABEL (ttv_gui_test_find_widget (dialog, GTK_TYPE_LABEL, "clock-offset-problem"));
  g_assert_nonnull (entry);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (entry)), ==, "+0.000000000");

  /* Not seconds: said, nothing changes, the dialog stays. */
  gtk_entry_set_text (GTK_ENTRY (entry), "0x10");
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_APPLY);
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (gtk_label_get_text (problem), "“0x10” is not an offset in seconds"));
  g_assert_true (gtk_style_context_has_class (gtk_widget_get_style_context (entry), GTK_STYLE_CLASS_ERROR));
  ttv_tab_state_get_time_span (s.state, &start, &end);
  g_assert_cmpint (start, ==, start0);

  /* +2.5 s: the trace's times move by it, and the offset is saved. */
  gtk_entry_set_text (GTK_ENTRY (entry), "+2.5");
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_APPLY);
  g_assert_null (dialog);
  /* Made once the background passes stopped reading the traceset. */
  {
    SpanStarts moved = { s.state, start0 + 2500000000 };
    ttv_gui_test_spin_until (span_starts_at, &moved);
  }
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  file = ttv_bookmarks_dup_path (ttv_traceset_get_trace (s.ts, 0), TTV_BOOKMARKS_IN_TRACE);
  text = read_text (file);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "<clock offset=\"+2.500000000\""));
  shell_close (&s);

  /* Opened again: corrected from the start. */
  shell_open (&s, dir);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  ttv_tab_state_get_time_span (s.state, &start, &end);
  g_assert_cmpint (start, ==, start0 + 2500000000);
  shell_close (&s);
}

/* A CTF trace's bookmarks go to a hidden file: the panel says which (and
 * it is where they are then saved). */
static void
test_bookmarks_location_ctf (void)
{
  g_autofree char *dir = ttv_test_dup_tmp_path ("ctf-bookmarks-location");
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "-d", "0.01", "-c", "1", "-p", "2",
                         "-o", dir, NULL };
  g_autofree char *canonical = NULL, *file = NULL, *expected = NULL, *text = NULL;
  GtkWidget *label;
  TtvTime start, end;
  Shell s;

  g_free (ttv_test_run_ok (argv));
  canonical = g_canonicalize_filename (dir, NULL);
  file = g_build_filename (canonical, ".ttv-bookmarks.xml", NULL);
  expected = g_strdup_printf ("Saved in %s", file);
  shell_open (&s, dir);
  ttv_tab_set_bookmarks_visible (s.tab, TRUE);
  label = ttv_gui_test_find_widget (GTK_WIDGET (s.tab), GTK_TYPE_LABEL, "bookmarks-location");
  g_assert_nonnull (label);
  ttv_gui_test_spin_until (location_shown, label);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, expected);
  g_assert_true (gtk_widget_get_mapped (label));
  {
    g_autofree char *tip = gtk_widget_get_tooltip_text (label);
    g_assert_cmpstr (tip, ==, expected);
  }

  ttv_tab_state_get_time_span (s.state, &start, &end);
  add_bookmark (&s, "here", start + 1000);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, expected);
  text = read_text (file);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "name=\"here\""));
  shell_close (&s);
}

static void
test_read_only_beside (void)
{
  g_autofree char *dir = copy_sample ("ro-beside");
  g_autofree char *beside = NULL, *in_trace = NULL, *text = NULL;
  TtvNotifications *notes;
  GtkDialog *dialog;
  TtvTime start, end;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  beside = g_strconcat (dir, ".ttv-bookmarks.xml", NULL);
  in_trace = g_build_filename (dir, "info", "bookmarks.xml", NULL);
  shell_open_read_only (&s, dir);
  notes = ttv_tab_get_notifications (s.tab);
  /* Said when the trace opens, before any bookmark. */
  g_assert_nonnull (ttv_notifications_get_text (notes, "read-only"));
  g_assert_nonnull (strstr (ttv_notifications_get_text (notes, "read-only"), dir));
  g_assert_nonnull (strstr (ttv_notifications_get_text (notes, "read-only"), "read-only"));

  ttv_tab_state_get_time_span (s.state, &start, &end);
  add_bookmark (&s, "first", start + 1000);
  dialog = find_read_only_dialog ();
  g_assert_nonnull (dialog);
  g_assert_false (ttv_bookmark_saver_is_busy (shell_saver (&s)));
  g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
  g_assert_cmpint (ttv_tab_bookmarks_get_choice (ttv_tab_get_bookmarks (s.tab), 0), ==,
                   TTV_SAVE_CHOICE_ASK);
  if (g_getenv ("TTV_TEST_PAUSE"))        /* time to take a screenshot by hand */
    ttv_gui_test_spin_for (3000);
  gtk_dialog_response (dialog, 1 /* beside */);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  g_assert_null (find_read_only_dialog ());
  /* The panel says where, from the answer on. */
  {
    GtkWidget *label = ttv_gui_test_find_widget (GTK_WIDGET (s.tab), GTK_TYPE_LABEL, "bookmarks-location");
    g_autofree char *canonical = g_canonicalize_filename (beside, NULL);
    g_autofree char *expected = g_strdup_printf ("Saved in %s", canonical);

    g_assert_nonnull (label);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, expected);
  }
  text = read_text (beside);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "name=\"first\""));
  g_clear_pointer (&text, g_free);

  /* Remembered for the tab: the next one goes there without a question. */
  add_bookmark (&s, "second", start + 2000);
  g_assert_null (find_read_only_dialog ());
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  {
    g_autofree char *where = ttv_tab_bookmarks_dup_location (ttv_tab_get_bookmarks (s.tab));
    g_autofree char *canonical = g_canonicalize_filename (beside, NULL);
    g_autofree char *expected = g_strdup_printf ("Saved in %s", canonical);
    g_assert_cmpstr (where, ==, expected);
  }
  text = read_text (beside);
  g_assert_nonnull (strstr (text, "name=\"first\""));
  g_assert_nonnull (strstr (text, "name=\"second\""));
  g_assert_false (g_file_test (in_trace, G_FILE_TEST_EXISTS));
  shell_close (&s);

  /* Opened again: they are found beside it, and saving goes on there. */
  shell_open_read_only (&s, dir);
  g_assert_cmpuint (ttv_tab_state_get_bookmarks (s.state)->len, ==, 2);
  g_assert_cmpint (ttv_tab_bookmarks_get_choice (ttv_tab_get_bookmarks (s.tab), 0), ==,
                   TTV_SAVE_CHOICE_BESIDE);
  ttv_tab_delete_bookmark (s.tab, 0);
  g_assert_null (find_read_only_dialog ());
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  g_clear_pointer (&text, g_free);
  text = read_text (beside);
  g_assert_null (strstr (text, "name=\"first\""));
  g_assert_nonnull (strstr (text, "name=\"second\""));
  g_assert_false (g_file_test (in_trace, G_FILE_TEST_EXISTS));
  shell_close (&s);
}

static void
test_read_only_user_dir_and_dont_save (void)
{
  g_autofree char *dir = copy_sample ("ro-user");
  g_autofree char *user = NULL, *text = NULL, *beside = NULL;
  TtvTime start, end;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  beside = g_strconcat (dir, ".ttv-bookmarks.xml", NULL);
  shell_open_read_only (&s, dir);
  user = ttv_bookmarks_dup_path (ttv_traceset_get_trace (ttv_tab_state_get_traceset (s.state), 0), TTV_BOOKMARKS_USER_DIR);
  g_assert_true (g_str_has_prefix (user, tmp_base));
  ttv_tab_state_get_time_span (s.state, &start, &end);
  add_bookmark (&s, "mine", start + 1000);
  gtk_dialog_response (find_read_only_dialog (), 2 /* user folder */);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  text = read_text (user);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "name=\"mine\""));
  g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
  shell_close (&s);
  g_unlink (user);

  /* Don't save: nothing written, not asked again in this tab. */
  shell_open_read_only (&s, dir);
  add_bookmark (&s, "forgotten", start + 1000);
  gtk_dialog_response (find_read_only_dialog (), 3 /* don't save */);
  ttv_gui_test_spin_pending ();
  add_bookmark (&s, "forgotten too", start + 2000);
  g_assert_null (find_read_only_dialog ());
  ttv_gui_test_spin_pending ();
  g_assert_false (ttv_bookmark_saver_is_busy (shell_saver (&s)));
  g_assert_false (g_file_test (user, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
  g_assert_nonnull (ttv_notifications_get_text (ttv_tab_get_notifications (s.tab), "bookmark-save"));
  shell_close (&s);
}

/* --- Trace information ---------------------------------------------------------- */

/* The value the summary shows beside @label, or NULL. */
static const char *
summary_value (GtkWidget *dialog, const char *label)
{
  GtkGrid *grid = GTK_GRID (ttv_gui_test_find_widget (dialog, GTK_TYPE_GRID, "info-summary"));

  for (gint row = 0; gtk_grid_get_child_at (grid, 0, row); row++)
    if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (grid, 0, row))), label) == 0)
      return gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (grid, 1, row)));
  return NULL;
}

static GtkTreeModel *
page_model (GtkWidget *dialog, const char *name)
{
  return gtk_tree_view_get_model (GTK_TREE_VIEW (ttv_gui_test_find_widget (dialog, GTK_TYPE_TREE_VIEW,
                                                                           name)));
}

/* Events per type name, counted here by reading the whole traceset. */
static GHashTable *
count_events (TtvTraceset *ts, guint64 *total)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GError) error = NULL;
  TtvContext *ctx = ttv_context_new (ts, &error);
  const TtvEvent *ev;

  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  *total = 0;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      const char *name = ev->type->full_name ? ev->type->full_name : ev->type->name;
      guint64 *n = g_hash_table_lookup (counts, name);

      if (!n)
        g_hash_table_insert (counts, g_strdup (name), n = g_new0 (guint64, 1));
      (*n)++;
      (*total)++;
    }
  g_assert_no_error (error);
  ttv_context_free (ctx);
  return counts;
}

static void
test_info_dialog (void)
{
  g_autofree char *dir = copy_sample ("info");
  g_autoptr (GHashTable) counts = NULL;
  g_autofree char *expected_cpus = NULL, *expected_events = NULL, *text = NULL;
  g_autoptr (GString) cpus = g_string_new (NULL);
  GtkWidget *dialog;
  GtkTreeModel *model;
  GtkTreeIter group, iter;
  TtvTrace *trace;
  guint64 total, n_types = 0, n_cpus = 0;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  shell_open_full (&s, dir, FALSE, FALSE);
  trace = ttv_traceset_get_trace (ttv_tab_state_get_traceset (s.state), 0);
  /* Opened before the first read ends: the counts come later. */
  dialog = ttv_info_dialog_new (GTK_WINDOW (s.window), s.state);
  gtk_widget_show (dialog);
  g_assert_cmpstr (summary_value (dialog, _("Events")), ==, _("still counting…"));
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);

  counts = count_events (s.ts, &total);
  expected_events = g_strdup_printf ("%" G_GUINT64_FORMAT, total);
  g_assert_cmpstr (summary_value (dialog, _("Events")), ==, expected_events);
  /* CPUs: how many have a tracefile, and which. */
  for (gint cpu = 0; cpu < 64; cpu++)
    for (guint i = 0; i < trace->tracefiles->len; i++)
      if (((TtvTracefile *) trace->tracefiles->pdata[i])->cpu == cpu)
        {
          g_string_append_printf (cpus, "%s%d", n_cpus++ ? ", " : "", cpu);
          break;
        }
  expected_cpus = g_strdup_printf ("%" G_GUINT64_FORMAT " (%s)", n_cpus, cpus->str);
  g_test_message ("CPUs: %s", summary_value (dialog, _("CPUs")));
  g_assert_true (g_str_has_prefix (summary_value (dialog, _("CPUs")), expected_cpus));
  g_assert_nonnull (strstr (summary_value (dialog, _("Trace")), dir));
  /* What the format is, in words for users, not the project's seeds. */
  g_assert_nonnull (strstr (summary_value (dialog, _("Trace")), "LTT trace (Linux Trace Toolkit"));
  g_assert_null (strstr (summary_value (dialog, _("Trace")), "seed"));

  /* The system description, key by key. */
  model = page_model (dialog, "info-system");
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, trace->info_keys->len);
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  do
    {
      g_autofree char *key = NULL, *value = NULL;
      gtk_tree_model_get (model, &iter, 0, &key, 1, &value, -1);
      g_assert_cmpstr (value, ==, ttv_trace_get_info (trace, key));
    }
  while (gtk_tree_model_iter_next (model, &iter));
  model = page_model (dialog, "info-tracefiles");
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, trace->tracefiles->len);

  /* Event types under their facility, each with its count. */
  model = page_model (dialog, "info-types");
  g_assert_true (gtk_tree_model_get_iter_first (model, &group));
  do
    {
      guint64 group_sum = 0, group_shown;
      g_assert_true (gtk_tree_model_iter_children (model, &iter, &group));
      do
        {
          g_autofree char *name = NULL, *shown = NULL, *description = NULL;
          guint64 *n;
          g_autofree char *want = NULL;

          gtk_tree_model_get (model, &iter, 0, &name, 1, &shown, 3, &description, -1);
          n = g_hash_table_lookup (counts, name);
          want = g_strdup_printf ("%" G_GUINT64_FORMAT, n ? *n : 0);
          g_assert_cmpstr (shown, ==, want);
          g_assert_cmpstr (description, ==, ttv_trace_find_event_type (trace, name)->description);
          group_sum += n ? *n : 0;
          n_types++;
        }
      while (gtk_tree_model_iter_next (model, &iter));
      gtk_tree_model_get (model, &group, 4, &group_shown, -1);
      g_assert_cmpuint (group_shown, ==, group_sum);
    }
  while (gtk_tree_model_iter_next (model, &group));
  g_assert_cmpuint (n_types, ==, trace->event_types->len);

  /* Copy All: the same on the clipboard, as text. */
  gtk_dialog_response (GTK_DIALOG (dialog), TTV_INFO_DIALOG_RESPONSE_COPY);
  text = gtk_clipboard_wait_for_text (gtk_clipboard_get (GDK_SELECTION_CLIPBOARD));
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, dir));
  {
    guint64 *n = g_hash_table_lookup (counts, "core.sched_switch");
    g_autofree char *line = g_strdup_printf ("core.sched_switch\t%" G_GUINT64_FORMAT "\t",
                                             n ? *n : 0);
    g_assert_nonnull (strstr (text, line));
  }
  g_assert_true (GTK_IS_WIDGET (dialog));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  shell_close (&s);
}

static gboolean
draw_row (GtkTreeModel *model, GtkTreePath *path, GtkTreeIter *iter, gpointer view)
{
  gtk_tree_view_scroll_to_cell (view, path, NULL, FALSE, 0, 0);
  gtk_widget_queue_draw (view);
  ttv_gui_test_spin_pending ();
  return FALSE;
}

/* Every row of @view drawn: the tree expanded and each row scrolled to
 * and drawn in turn. */
static void
draw_every_row (GtkTreeView *view)
{
  gtk_tree_view_expand_all (view);
  gtk_tree_model_foreach (gtk_tree_view_get_model (view), draw_row, view);
}

/* An event type's name, and the count its row in the info dialog shows. */
typedef struct {
  const char *name;
  guint64 count;
} TypeCount;

static gboolean
find_type_count (GtkTreeModel *model, GtkTreePath *path, GtkTreeIter *iter, gpointer data)
{
  TypeCount *tc = data;
  g_autofree char *name = NULL;
  /* Event types are the rows under their facility's. */
  if (gtk_tree_path_get_depth (path) < 2)
    return FALSE;
  gtk_tree_model_get (model, iter, 0, &name, -1);
  if (g_strcmp0 (name, tc->name) != 0)
    return FALSE;
  gtk_tree_model_get (model, iter, 4, &tc->count, -1);
  return TRUE;
}

/* A trace whose names hold a byte that is not UTF-8 (an event type, a
 * value of its description and a tracefile's name): the dialog shows them
 * with U+FFFD and warns of nothing as it draws them (a warning fails the
 * test), the counts still found by the trace's own names, and Copy All
 * gives the trace's bytes. */
static void
test_info_dialog_not_utf8 (void)
{
  g_autofree char *dir = g_build_filename (tmp_base, "info-not-utf8", NULL);
  g_autofree char *from = g_build_filename (dir, "channel0_1", NULL);
  g_autofree char *to = g_build_filename (dir, "channel0_\xff" "1", NULL);
  const char *gen[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "--cpus", "2", "--events", "5000", "-o", dir, NULL };
  g_autofree char *text = NULL;
  Shell s;

  g_free (ttv_test_run_ok (gen));
  ttv_gui_test_spoil_metadata_value (dir, "name", "trap_entry", 4);
  ttv_gui_test_spoil_metadata_value (dir, "hostname", "ttv-gen", 3);
  g_assert_cmpint (g_rename (from, to), ==, 0);

  shell_open_full (&s, dir, FALSE, FALSE);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  GtkWidget *dialog = ttv_info_dialog_new (GTK_WINDOW (s.window), s.state);
  gtk_window_set_default_size (GTK_WINDOW (dialog), 900, 600);
  gtk_widget_show (dialog);
  GtkNotebook *notebook = GTK_NOTEBOOK (ttv_gui_test_find_widget (dialog, GTK_TYPE_NOTEBOOK, NULL));
  const char *const pages[] = { "info-system", "info-tracefiles", "info-types" };
  for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
    {
      GtkWidget *view = ttv_gui_test_find_widget (dialog, GTK_TYPE_TREE_VIEW, pages[p]);
      gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, gtk_widget_get_parent (view)));
      draw_every_row (GTK_TREE_VIEW (view));
    }
  /* The spoiled type counted by its name as the trace has it. */
  TypeCount spoiled = { "trap\xff" "entry", 0 };
  gtk_tree_model_foreach (page_model (dialog, "info-types"), find_type_count, &spoiled);
  g_test_message ("trap\\xffentry: %" G_GUINT64_FORMAT " events", spoiled.count);
  g_assert_cmpuint (spoiled.count, >, 0);
  text = ttv_info_dialog_dup_text (TTV_INFO_DIALOG (dialog));
  g_assert_nonnull (strstr (text, "ttv\xff" "gen"));
  g_assert_nonnull (strstr (text, "channel0_\xff" "1"));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  shell_close (&s);
}

/* --- Damaged data ------------------------------------------------------------------ */

/* One damaged block in cpu/1 (the audit's case): the passes read the rest,
 * the state and history are built, the message says where. */
static void
test_damaged_block (void)
{
  g_autofree char *dir = copy_sample ("damaged");
  g_autofree char *cpu1 = NULL, *want_file = NULL;
  g_autoptr (GHashTable) counts = NULL, intact_counts = NULL;
  g_autofree char *expected = NULL;
  const char *text;
  guint64 total, intact_total;
  gboolean complete;
  Shell s;
  FILE *f;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  {
    g_autoptr (TtvTraceset) intact = ttv_gui_test_open_sample ();
    intact_counts = count_events (intact, &intact_total);
  }
  cpu1 = g_build_filename (dir, "cpu", "1", NULL);
  f = fopen (cpu1, "r+b");
  g_assert_nonnull (f);
  g_assert_cmpint (fseek (f, 65536 + 4000, SEEK_SET), ==, 0);   /* inside block 1 */
  for (int i = 0; i < 64; i++)
    fputc (0xff, f);
  fclose (f);

  shell_open_full (&s, dir, FALSE, FALSE);
  /* The damage is only found while reading. */
  g_assert_false (ttv_tab_get_damaged (s.tab));
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  ttv_gui_test_spin_until (ttv_gui_test_history_ready, s.state);
  g_assert_true (ttv_tab_get_damaged (s.tab));
  text = ttv_notifications_get_text (ttv_tab_get_notifications (s.tab), "damage");
  g_test_message ("%s", text);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, cpu1));
  g_assert_nonnull (strstr (text, "byte offset "));
  g_assert_nonnull (strstr (text, "block 1"));
  /* Everything but the damaged block's rest was counted. */
  counts = count_events (s.ts, &total);
  g_assert_cmpuint (ttv_tab_state_get_event_count (s.state, &complete), ==, total);
  g_assert_true (complete);
  g_assert_cmpuint (total, <, intact_total);
  g_assert_cmpuint (total, >, intact_total * 9 / 10);
  expected = g_strdup_printf ("%" G_GUINT64_FORMAT, total);
  g_assert_true (g_str_has_prefix (ttv_status_bar_get_summary (ttv_tab_get_status_bar (s.tab)),
                                   expected));
  g_assert_null (ttv_status_bar_get_job_text (ttv_tab_get_status_bar (s.tab),
                                              TTV_STATUS_JOB_BACKGROUND));
  shell_close (&s);
}

/* Damage found while opening (a CPU file cut in a block, another one a
 * FIFO, the highest one of system.xml's cpu= missing): the tab is marked
 * at once and the damage message names each, not the plain warnings;
 * reading the FIFO never blocks. */
static void
test_damage_at_open (void)
{
  g_autofree char *dir = copy_sample ("damaged-at-open");
  g_autofree char *cpu0 = NULL, *cpu1 = NULL, *cpu4 = NULL;
  const char *text;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  cpu0 = g_build_filename (dir, "cpu", "0", NULL);
  cpu1 = g_build_filename (dir, "cpu", "1", NULL);
  g_assert_cmpint (truncate (cpu0, 65536 + 1000), ==, 0);
  g_assert_cmpint (g_unlink (cpu1), ==, 0);
  g_assert_cmpint (mkfifo (cpu1, 0644), ==, 0);
  /* The sample's CPUs are 0, 1, 2 and 4 (cpu="5"). */
  cpu4 = g_build_filename (dir, "cpu", "4", NULL);
  g_assert_cmpint (g_unlink (cpu4), ==, 0);

  shell_open (&s, dir);
  g_assert_true (ttv_tab_get_damaged (s.tab));
  text = ttv_notifications_get_text (ttv_tab_get_notifications (s.tab), "damage");
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, cpu0));
  g_assert_nonnull (strstr (text, "truncated"));
  g_assert_nonnull (strstr (text, cpu1));
  g_assert_nonnull (strstr (text, "FIFO"));
  g_autofree char *cpu4_missing = g_strdup_printf ("%s is missing", cpu4);
  g_assert_nonnull (strstr (text, cpu4_missing));
  g_assert_null (ttv_notifications_get_text (ttv_tab_get_notifications (s.tab), "warning-0-0"));
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  shell_close (&s);

  /* An intact trace is not marked. */
  g_autofree char *intact = copy_sample ("intact");
  shell_open (&s, intact);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  g_assert_false (ttv_tab_get_damaged (s.tab));
  g_assert_null (ttv_notifications_get_text (ttv_tab_get_notifications (s.tab), "damage"));
  shell_close (&s);
}

/* --- Bookmarks read in the background ------------------------------------------------ */

static guint
count_locations (const char *path)
{
  g_autofree char *text = NULL;
  guint n = 0;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  for (const char *p = text; (p = strstr (p, "<location")); p++)
    n++;
  return n;
}

/* A FIFO in place of bookmarks.xml: the tab opens at once, says why the
 * bookmarks are not loaded; 5,000 bookmarks are read in the background,
 * and one added meanwhile is saved with all the others once they are. */
static void
test_bookmarks_background (void)
{
  g_autofree char *dir = copy_sample ("bookmarks-fifo");
  g_autofree char *file = NULL;
  const char *text;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  file = g_build_filename (dir, "info", "bookmarks.xml", NULL);
  g_assert_cmpint (mkfifo (file, 0644), ==, 0);
  gint64 t0 = g_get_monotonic_time ();
  shell_open_full (&s, dir, FALSE, FALSE);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  ttv_gui_test_spin_until (bookmarks_loaded, s.tab);
  text = ttv_notifications_get_text (ttv_tab_get_notifications (s.tab), "bookmark-load");
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "FIFO"));
  shell_close (&s);

  g_autofree char *big_dir = copy_sample ("bookmarks-big");
  g_autofree char *big = g_build_filename (big_dir, "info", "bookmarks.xml", NULL);
  g_autoptr (GString) doc = g_string_new ("<bookmarks>\n");
  TtvTime start, end;
  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (doc, "  <location name=\"b%u\" time=\"%u.5\">note %u</location>\n", i,
                            1700000000 + i % 7, i);
  g_string_append (doc, "</bookmarks>\n");
  g_assert_true (g_file_set_contents (big, doc->str, (gssize) doc->len, NULL));
  shell_open_full (&s, big_dir, FALSE, FALSE);
  g_assert_true (ttv_tab_bookmarks_is_loading (ttv_tab_get_bookmarks (s.tab)));
  ttv_tab_state_get_time_span (s.state, &start, &end);
  add_bookmark (&s, "added-while-loading", start + 5);
  ttv_gui_test_spin_until (bookmarks_loaded, s.tab);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  text = ttv_notifications_get_text (ttv_tab_get_notifications (s.tab), "bookmark-load");
  if (text)
    g_error ("%s", text);
  g_assert_cmpuint (ttv_tab_state_get_bookmarks (s.state)->len, ==, 5001);
  g_assert_cmpuint (count_locations (big), ==, 5001);
  shell_close (&s);
}

/* --- Delete and Undo ------------------------------------------------------------------ */

static void
test_delete_undo (void)
{
  g_autofree char *dir = copy_sample ("undo");
  g_autofree char *file = NULL, *text = NULL;
  TtvNotifications *notes;
  TtvTime start, end;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  file = g_build_filename (dir, "info", "bookmarks.xml", NULL);
  shell_open (&s, dir);
  notes = ttv_tab_get_notifications (s.tab);
  ttv_tab_state_get_time_span (s.state, &start, &end);
  add_bookmark (&s, "keep-me", start + 10);
  add_bookmark (&s, "delete-me", start + 20);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));

  ttv_tab_delete_bookmark (s.tab, 1);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  g_assert_cmpuint (ttv_tab_state_get_bookmarks (s.state)->len, ==, 1);
  text = read_text (file);
  g_assert_null (strstr (text, "delete-me"));
  g_assert_nonnull (strstr (ttv_notifications_get_text (notes, "bookmark-undo"), "delete-me"));

  /* Undo from the message: back in the list and in the file. */
  g_assert_true (ttv_notifications_activate (notes, "bookmark-undo"));
  g_assert_null (ttv_notifications_get_text (notes, "bookmark-undo"));
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  g_assert_cmpuint (ttv_tab_state_get_bookmarks (s.state)->len, ==, 2);
  g_assert_cmpstr (((TtvViewerBookmark *) ttv_tab_state_get_bookmarks (s.state)->pdata[1])->name,
                   ==, "delete-me");
  g_clear_pointer (&text, g_free);
  text = read_text (file);
  g_assert_nonnull (strstr (text, "delete-me"));
  g_assert_false (ttv_tab_undo_delete_bookmark (s.tab));   /* undone already */
  shell_close (&s);
}

/* A bookmark dialog answered after its tab was closed: nothing happens. */
static void
test_dialog_after_close (void)
{
  g_autofree char *dir = copy_sample ("dialog-close");
  g_autoptr (GList) windows = NULL;
  GtkWidget *dialog = NULL;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  shell_open (&s, dir);
  ttv_tab_add_bookmark_interactive (s.tab);
  windows = gtk_window_list_toplevels ();
  for (GList *l = windows; l; l = l->next)
    if (TTV_IS_BOOKMARK_DIALOG (l->data))
      dialog = l->data;
  g_assert_nonnull (dialog);
  g_object_ref (dialog);
  gtk_widget_destroy (GTK_WIDGET (s.tab));       /* the tab closes */
  g_assert_null (ttv_tab_get_bookmarks (s.tab));
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  g_assert_true (gtk_widget_in_destruction (dialog) || !gtk_widget_get_visible (dialog));
  g_object_unref (dialog);
  shell_close (&s);
}

/* The bookmark dialog shows times in the user's format and reads every form
 * the time entries read; a bad time names the entry and keeps the dialog. */
static void
test_dialog_times (void)
{
  g_autofree char *dir = copy_sample ("dialog-times");
  g_autoptr (TtvViewerBookmark) initial = NULL;
  g_autoptr (TtvViewerBookmark) typed = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *shown = NULL;
  TtvBookmarkDialog *dialog;
  GtkEntry *start_entry, *end_entry;
  TtvTime start, end;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  g_settings_set_string (settings (), "time-format", "relative");
  shell_open (&s, dir);
  ttv_tab_state_get_time_span (s.state, &start, &end);
  initial = ttv_viewer_bookmark_new ("b", "", -1, start + 250000000, start + 250000000);
  dialog = TTV_BOOKMARK_DIALOG (ttv_bookmark_dialog_new (NULL, "t", s.state, initial));
  start_entry = GTK_ENTRY (ttv_gui_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_ENTRY, "start_entry"));
  end_entry = GTK_ENTRY (ttv_gui_test_find_widget (GTK_WIDGET (dialog), GTK_TYPE_ENTRY, "end_entry"));
  g_assert_nonnull (start_entry);
  g_assert_nonnull (end_entry);
  shown = ttv_tab_state_format_time (s.state, start + 250000000);
  g_assert_cmpstr (shown, ==, "+0.250000000");
  g_assert_cmpstr (gtk_entry_get_text (start_entry), ==, shown);

  /* Relative and absolute forms both read. */
  gtk_entry_set_text (start_entry, "+0.125");
  {
    g_autofree char *abs = g_strdup_printf ("%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                                            (start + 300000000) / 1000000000,
                                            (start + 300000000) % 1000000000);
    gtk_entry_set_text (end_entry, abs);
  }
  typed = ttv_bookmark_dialog_dup_bookmark (dialog, &error);
  g_assert_no_error (error);
  g_assert_cmpint (typed->start, ==, start + 125000000);
  g_assert_cmpint (typed->end, ==, start + 300000000);

  gtk_entry_set_text (end_entry, "soon");
  g_assert_null (ttv_bookmark_dialog_dup_bookmark (dialog, &error));
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "End: "));
  g_assert_nonnull (strstr (error->message, "“soon” is not a time"));
  gtk_widget_destroy (GTK_WIDGET (dialog));
  shell_close (&s);
  g_settings_reset (settings (), "time-format");
}

/* --- Cancel and Restart ------------------------------------------------------------ */

static gboolean
tab_idle (gpointer tab)
{
  return !ttv_tab_is_busy (tab);
}

static void
test_cancel_restart (void)
{
  g_autofree char *dir = copy_sample ("restart");
  TtvStatusBar *bar;
  gboolean complete;
  const char *text;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  shell_open_full (&s, dir, FALSE, FALSE);
  bar = ttv_tab_get_status_bar (s.tab);
  g_assert_true (ttv_tab_is_busy (s.tab));
  g_assert_nonnull (ttv_status_bar_get_job_text (bar, TTV_STATUS_JOB_BACKGROUND));
  /* Cancel from the status bar, during the first read. */
  g_assert_true (ttv_status_bar_activate_job (bar, TTV_STATUS_JOB_BACKGROUND));
  ttv_gui_test_spin_until (tab_idle, s.tab);
  g_assert_false (ttv_tab_state_is_state_ready (s.state));
  ttv_tab_state_get_event_count (s.state, &complete);
  g_assert_false (complete);
  text = ttv_status_bar_get_job_text (bar, TTV_STATUS_JOB_BACKGROUND);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "Stopped"));

  /* Restart: everything is built after all. */
  g_assert_true (ttv_status_bar_activate_job (bar, TTV_STATUS_JOB_BACKGROUND));
  g_assert_true (ttv_tab_is_busy (s.tab));
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  ttv_gui_test_spin_until (ttv_gui_test_history_ready, s.state);
  ttv_gui_test_spin_until (tab_idle, s.tab);
  ttv_tab_state_get_event_count (s.state, &complete);
  g_assert_true (complete);
  g_assert_null (ttv_status_bar_get_job_text (bar, TTV_STATUS_JOB_BACKGROUND));
  g_assert_false (ttv_tab_restart_background (s.tab));    /* nothing left to restart */
  shell_close (&s);
}

/* --- Hand-written bookmarks --------------------------------------------------------- */

/* A hand-edited info/bookmarks.xml with cycle= locations: placed at their
 * events' times; the comment and unknown element survive a save. */
static void
test_hand_written_cycles (void)
{
  g_autofree char *dir = copy_sample ("hand-written");
  g_autofree char *file = NULL, *xml = NULL, *saved = NULL;
  g_autoptr (GError) error = NULL;
  TtvTime times[2];
  guint64 cycles[2];
  GPtrArray *bookmarks;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  /* Two events of cpu/1, far apart: their cycles and times as read. */
  {
    TtvTrace *t = ttv_trace_open (dir, &error);
    g_autoptr (TtvCursor) c = NULL;
    TtvEvent ev;

    g_assert_no_error (error);
    c = ttv_cursor_new (t->tracefiles->pdata[1], &error);
    for (guint i = 0; i < 5000 && ttv_cursor_next (c, &ev, &error); i++)
      if (i == 100 || i == 4000)
        {
          cycles[i == 4000] = ev.cycles;
          times[i == 4000] = ev.time;
        }
    g_assert_no_error (error);
    g_clear_pointer (&c, ttv_cursor_free);
    ttv_trace_close (t);
  }
  file = g_build_filename (dir, "info", "bookmarks.xml", NULL);
  xml = g_strdup_printf ("<bookmarks>\n"
                         "  <!-- written by hand -->\n"
                         "  <location name=point cycle=%" G_GUINT64_FORMAT ">by cycle</location>\n"
                         "  <location name=span start_cycle=%" G_GUINT64_FORMAT
                         " end_cycle=%" G_GUINT64_FORMAT "/>\n"
                         "  <my-notes keep=\"yes\"/>\n"
                         "</bookmarks>\n", cycles[0], cycles[0], cycles[1]);
  g_assert_true (g_file_set_contents (file, xml, -1, NULL));

  shell_open (&s, dir);
  bookmarks = ttv_tab_state_get_bookmarks (s.state);
  g_assert_cmpuint (bookmarks->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const TtvViewerBookmark *b = bookmarks->pdata[i];
      g_assert_true (b->has_cycles);
      g_assert_cmpint (b->start, ==, times[0]);
      g_assert_cmpint (b->end, ==, strcmp (b->name, "span") == 0 ? times[1] : times[0]);
    }
  /* Jumping goes to the event. */
  ttv_tab_jump_to_bookmark (s.tab, 0);
  g_assert_cmpint (ttv_tab_state_get_current_time (s.state), ==, times[0]);

  /* A save keeps what the hand wrote, cycles included. */
  add_bookmark (&s, "added", times[1]);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  saved = read_text (file);
  g_test_message ("%s", saved);
  g_assert_nonnull (strstr (saved, "<!-- written by hand -->"));
  g_assert_nonnull (strstr (saved, "<my-notes keep=\"yes\"/>"));
  g_assert_nonnull (strstr (saved, "cycle=\""));
  g_assert_nonnull (strstr (saved, "start_cycle=\""));
  g_assert_nonnull (strstr (saved, "name=\"added\""));
  shell_close (&s);
}

/* --- The window: Add Trace, opening archives ------------------------------------- */

static gboolean
window_idle (gpointer window)
{
  return !ttv_window_is_opening (window);
}

static gboolean
one_tab_open (gpointer window)
{
  return !ttv_window_is_opening (window) && ttv_window_get_n_tabs (window) == 1;
}

static GtkWidget *
new_window (void)
{
  GtkWidget *window = ttv_window_new (NULL);

  gtk_widget_show (window);
  return window;
}

static GtkFileChooser *
find_chooser_dialog (void)
{
  g_autoptr (GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

typedef struct {
  GtkFileChooser *chooser;
  const char *path;
} Selected;

static gboolean
file_selected (gpointer data)
{
  Selected *s = data;
  g_autofree char *now = gtk_file_chooser_get_filename (s->chooser);

  return g_strcmp0 (now, s->path) == 0;
}

static gboolean
folder_shown (gpointer chooser)
{
  g_autofree char *folder = gtk_file_chooser_get_current_folder (chooser);

  return folder != NULL;
}

static gboolean
traceset_has_two (gpointer tab)
{
  return ttv_tab_state_get_n_traces (ttv_tab_get_state (tab)) == 2;
}

/* File > Add Trace Archive: the chooser opens in the current trace's
 * folder and an archive joins the traceset. */
static void
test_add_trace_archive (void)
{
  g_autofree char *dir = copy_sample ("add-base");
  g_autofree char *other = copy_sample ("add-other");
  g_autofree char *tgz = NULL, *start = NULL, *title = NULL;
  GtkWidget *window;
  GtkFileChooser *dialog;
  TtvTab *tab;
  Selected selected;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  tgz = g_strconcat (other, ".tar.gz", NULL);
  {
    g_autofree char *script = g_strdup_printf ("tar -C '%s' -czf '%s' add-other", tmp_base, tgz);
    g_free (run_sh (script));
  }
  window = new_window ();
  ttv_window_open (TTV_WINDOW (window), (const char *const[]) { dir, NULL }, FALSE);
  ttv_gui_test_spin_until (one_tab_open, window);
  tab = TTV_TAB (ttv_window_get_current_tab (TTV_WINDOW (window)));

  g_action_group_activate_action (G_ACTION_GROUP (window), "add-trace-archive", NULL);
  dialog = find_chooser_dialog ();
  g_assert_nonnull (dialog);
  /* The chooser shows its folder once loaded. */
  ttv_gui_test_spin_until (folder_shown, dialog);
  start = gtk_file_chooser_get_current_folder (dialog);
  g_assert_cmpstr (start, ==, tmp_base);
  g_assert_cmpint (gtk_file_chooser_get_action (dialog), ==, GTK_FILE_CHOOSER_ACTION_OPEN);
  g_assert_true (gtk_file_chooser_select_filename (dialog, tgz));
  selected = (Selected) { dialog, tgz };
  ttv_gui_test_spin_until (file_selected, &selected);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  ttv_gui_test_spin_until (traceset_has_two, tab);
  g_assert_cmpstr (ttv_traceset_get_trace (ttv_tab_state_get_traceset (ttv_tab_get_state (tab)), 1)->display_path, ==, tgz);
  title = ttv_tab_dup_title (tab);
  g_assert_cmpstr (title, ==, "add-base +1");
  ttv_gui_test_spin_until (window_idle, window);
  gtk_widget_destroy (window);
  ttv_gui_test_spin_pending ();
}


/* File > Open Trace Folder, a trace's path typed and Enter: the chooser
 * enters the trace and selects its first folder (index/ in an LTTng
 * trace), which is what it returns; the trace opens, not "index: not a
 * trace". */
static void
test_open_folder_of_trace (void)
{
  g_autofree char *dir = ttv_test_dup_tmp_path ("typed-path-trace");
  g_autofree char *index = g_build_filename (dir, "index", NULL);
  const char *argv[] = { TTV_GEN_PATH, "-q", "-f", "ctf", "-d", "0.01", "-c", "1", "-p", "2", "-o", dir, NULL };
  g_autofree char *canonical = NULL, *enclosing = NULL, *reported = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget *window;
  GtkFileChooser *dialog;
  TtvTraceset *ts;
  Selected selected;

  g_free (ttv_test_run_ok (argv));
  g_assert_cmpint (g_mkdir (index, 0755), ==, 0);
  canonical = g_canonicalize_filename (dir, NULL);
  enclosing = ttv_trace_dup_enclosing (index);
  g_assert_cmpstr (enclosing, ==, canonical);
  g_assert_null (ttv_trace_dup_enclosing (dir));
  /* The command line names the folder to open instead. */
  g_assert_null (ttv_trace_open (index, &error));
  reported = g_strdup_printf ("%s: not a trace, but a folder of the trace %s: open that folder", index, canonical);
  g_assert_cmpstr (error->message, ==, reported);

  window = new_window ();
  ttv_window_choose (TTV_WINDOW (window), TRUE);
  dialog = find_chooser_dialog ();
  g_assert_nonnull (dialog);
  ttv_gui_test_spin_until (folder_shown, dialog);
  g_assert_cmpint (gtk_file_chooser_get_action (dialog), ==, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
  /* GTK 3's path bar asserts when its folder changes while it still
   * queries the icons of the last one: as a user, wait a moment. */
  ttv_gui_test_spin_for (800);
  g_assert_true (gtk_file_chooser_set_current_folder (dialog, dir));
  ttv_gui_test_spin_for (800);
  g_assert_true (gtk_file_chooser_select_filename (dialog, index));
  selected = (Selected) { dialog, index };
  ttv_gui_test_spin_until (file_selected, &selected);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  ttv_gui_test_spin_until (one_tab_open, window);
  ts = ttv_tab_state_get_traceset (ttv_tab_get_state (TTV_TAB (ttv_window_get_current_tab (TTV_WINDOW (window)))));
  g_assert_cmpuint (ttv_traceset_get_n_traces (ts), ==, 1);
  g_assert_cmpstr (ttv_traceset_get_trace (ts, 0)->path, ==, canonical);
  ttv_gui_test_spin_until (window_idle, window);
  gtk_widget_destroy (window);
  ttv_gui_test_spin_pending ();
}

/* An LTTng session folder (session/kernel, session/ust/uid/0/64-bit), as
 * lttng writes it: one tab with both traces, named by their place in it. */
static void
test_open_session (void)
{
  g_autofree char *session = g_build_filename (tmp_base, "session", NULL);
  g_autofree char *kernel = NULL, *ust = NULL;
  GtkWidget *window;
  TtvTraceset *ts;

  {
    g_autofree char *script = g_strdup_printf ("rm -rf '%s' && mkdir -p '%s/ust/uid/0'", session, session);
    g_free (run_sh (script));
  }
  kernel = copy_sample ("session/kernel");
  ust = copy_sample ("session/ust/uid/0/64-bit");
  if (!kernel)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  window = new_window ();
  ttv_window_open (TTV_WINDOW (window), (const char *const[]) { session, NULL }, FALSE);
  ttv_gui_test_spin_until (one_tab_open, window);
  ts = ttv_tab_state_get_traceset (ttv_tab_get_state (TTV_TAB (ttv_window_get_current_tab (TTV_WINDOW (window)))));
  g_assert_cmpuint (ttv_traceset_get_n_traces (ts), ==, 2);
  g_assert_cmpstr (ttv_traceset_get_trace (ts, 0)->name, ==, "kernel");
  g_assert_cmpstr (ttv_traceset_get_trace (ts, 1)->name, ==, "ust/uid/0/64-bit");
  gtk_widget_destroy (window);
  ttv_gui_test_spin_pending ();
}

/* Cancel while an archive is being extracted: the extraction stops, and
 * nothing is left in the cache. */
static void
test_open_archive_cancel (void)
{
  g_autofree char *tgz = make_large_archive ("open-cancel", 48);
  g_autofree char *cache = NULL, *listing = NULL, *script = NULL;
  GtkWidget *window;

  if (!tgz)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  window = new_window ();
  ttv_window_open (TTV_WINDOW (window), (const char *const[]) { tgz, NULL }, FALSE);
  /* Polled closely: cancel as soon as the extraction has begun. */
  for (guint i = 0; i < 20000 && ttv_window_get_open_fraction (TTV_WINDOW (window)) == 0; i++)
    g_usleep (500);
  g_assert_cmpfloat (ttv_window_get_open_fraction (TTV_WINDOW (window)), >, 0);
  g_assert_cmpfloat (ttv_window_get_open_fraction (TTV_WINDOW (window)), <, 0.5);
  g_assert_true (ttv_window_is_opening (TTV_WINDOW (window)));
  ttv_window_cancel_open (TTV_WINDOW (window));
  ttv_gui_test_spin_until (window_idle, window);
  g_assert_cmpuint (ttv_window_get_n_tabs (TTV_WINDOW (window)), ==, 0);
  cache = ttv_archive_dup_cache_dir ();
  /* No half-extracted tree, and no finished one for this archive. */
  script = g_strdup_printf ("ls -a '%s' 2>/dev/null | tr '\\n' ' '; "
                            "grep -l 'open-cancel.tar.gz' '%s'/*/stamp 2>/dev/null || true",
                            cache, cache);
  listing = run_sh (script);
  g_test_message ("cache after cancel: %s", listing);
  g_assert_null (strstr (listing, ".tmp-"));
  g_assert_null (strstr (listing, "/stamp"));
  gtk_widget_destroy (window);
  ttv_gui_test_spin_pending ();
}

/* --- Shell: welcome page, menus, shortcuts, window size, status bar ------------------ */

static void
test_welcome (void)
{
  g_autofree char *dir = copy_sample ("welcome");
  g_autofree char *gone = g_build_filename (tmp_base, "no-such-trace", NULL);
  const char *recent[] = { dir, gone, NULL };
  GtkWidget *window = new_window ();
  TtvWelcome *welcome = TTV_WELCOME (ttv_gui_test_find_widget (window, TTV_TYPE_WELCOME, NULL));
  GtkListBox *list;
  GtkListBoxRow *row;

  g_assert_nonnull (welcome);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (welcome)));
  g_settings_set_strv (settings (), "recent-traces", NULL);
  g_assert_cmpuint (ttv_welcome_get_n_recent (welcome), ==, 0);
  g_assert_nonnull (ttv_gui_test_find_button (GTK_WIDGET (welcome), _("Open Trace _Folder…")));
  g_assert_nonnull (ttv_gui_test_find_button (GTK_WIDGET (welcome), _("Open Trace _Archive…")));

  g_settings_set_strv (settings (), "recent-traces", recent);
  g_assert_cmpuint (ttv_welcome_get_n_recent (welcome), ==, 2);
  list = GTK_LIST_BOX (ttv_gui_test_find_widget (GTK_WIDGET (welcome), GTK_TYPE_LIST_BOX, "welcome-recent"));
  row = gtk_list_box_get_row_at_index (list, 0);
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (row)), ==, "app.open-recent");
  g_assert_cmpstr (g_variant_get_string (gtk_actionable_get_action_target_value (GTK_ACTIONABLE (row)), NULL),
                   ==, dir);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (row)));
  /* A trace that is no longer there: listed, not offered. */
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (gtk_list_box_get_row_at_index (list, 1))));
  g_settings_reset (settings (), "recent-traces");
  gtk_widget_destroy (window);
}

static void
test_recent_menu (void)
{
  g_autoptr (GMenu) menu = g_menu_new ();
  const char *recent[] = { "/a/trace", "/b/trace.tar.gz", NULL };
  g_autofree char *label = NULL, *action = NULL;

  ttv_application_fill_recent_menu (menu, NULL);
  g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (menu)), ==, 1);
  g_assert_true (g_menu_model_get_item_attribute (G_MENU_MODEL (menu), 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, _("No Recent Traces"));
  g_assert_false (g_menu_model_get_item_attribute (G_MENU_MODEL (menu), 0, G_MENU_ATTRIBUTE_ACTION, "s", &action));
  ttv_application_fill_recent_menu (menu, recent);
  g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (menu)), ==, 2);
  g_assert_true (g_menu_model_get_item_attribute (G_MENU_MODEL (menu), 1, G_MENU_ATTRIBUTE_ACTION, "s", &action));
  g_assert_cmpstr (action, ==, "app.open-recent");
}

/* The actions of a menu model, recursively. */
static void
collect_actions (GMenuModel *model, GHashTable *actions)
{
  for (gint i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr (GMenuLinkIter) links = g_menu_model_iterate_item_links (model, i);
      char *action = NULL;
      GMenuModel *child;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action))
        g_hash_table_add (actions, action);
      while (g_menu_link_iter_get_next (links, NULL, &child))
        {
          collect_actions (child, actions);
          g_object_unref (child);
        }
    }
}

/* Every command in the menus and the shortcuts window, each an action
 * the window or application has. */
static void
test_menus_and_shortcuts (void)
{
  g_autoptr (GtkBuilder) menus = gtk_builder_new_from_resource ("/org/ttv/Viewer/gtk/menus.ui");
  g_autoptr (GtkBuilder) help = gtk_builder_new_from_resource ("/org/ttv/Viewer/gtk/help-overlay.ui");
  g_autoptr (GHashTable) actions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  static const char *const app_actions[] = { "open-folder", "open-archive", "open-recent", "quit", "about" };
  GtkWidget *window = new_window (), *overlay;
  GHashTableIter iter;
  gpointer key;
  guint n_shortcuts = 0;

  collect_actions (G_MENU_MODEL (gtk_builder_get_object (menus, "menubar")), actions);
  g_assert_true (g_hash_table_contains (actions, "win.filter"));
  g_assert_true (g_hash_table_contains (actions, "win.follow"));
  g_assert_true (g_hash_table_contains (actions, "win.add-trace-archive"));
  g_assert_true (g_hash_table_contains (actions, "win.show-help-overlay"));

  overlay = GTK_WIDGET (gtk_builder_get_object (help, "help_overlay"));
  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  {
    g_autoptr (GSList) objects = gtk_builder_get_objects (help);
    for (GSList *l = objects; l; l = l->next)
      if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        {
          char *action = NULL;
          g_object_get (l->data, "action-name", &action, NULL);
          n_shortcuts++;
          if (action)
            g_hash_table_add (actions, action);
        }
  }
  g_assert_cmpuint (n_shortcuts, >=, 15);
  g_hash_table_iter_init (&iter, actions);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *name = key;
      if (g_str_has_prefix (name, "win.") && strcmp (name, "win.show-help-overlay") != 0)
        g_assert_nonnull (g_action_map_lookup_action (G_ACTION_MAP (window), name + 4));
      else if (g_str_has_prefix (name, "app."))
        g_assert_true (g_strv_contains (app_actions, name + 4));
    }
  gtk_widget_destroy (overlay);
  gtk_widget_destroy (window);
}

static gboolean
size_is (gpointer data)
{
  GtkWindow *window = data;
  gint w, h;

  gtk_window_get_size (window, &w, &h);
  return w == 1000 && h == 700;
}

static void
test_window_size (void)
{
  GtkWidget *window;
  gint w, h;

  g_settings_reset (settings (), "window-width");
  g_settings_reset (settings (), "window-height");
  window = new_window ();
  gtk_window_get_default_size (GTK_WINDOW (window), &w, &h);
  {
    /* 1400x900, unless the screen is smaller (the tests' is 1280x800). */
    GdkRectangle area;
    gdk_monitor_get_workarea (gdk_display_get_monitor (gdk_display_get_default (), 0), &area);
    g_assert_cmpint (w, ==, MIN (1400, area.width));
    g_assert_cmpint (h, ==, MIN (900, area.height));
  }
  gtk_window_resize (GTK_WINDOW (window), 1000, 700);
  ttv_gui_test_spin_until (size_is, window);
  ttv_gui_test_spin_pending ();
  gtk_widget_destroy (window);
  g_assert_cmpint (g_settings_get_int (settings (), "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (settings (), "window-height"), ==, 700);
  window = new_window ();
  gtk_window_get_default_size (GTK_WINDOW (window), &w, &h);
  g_assert_cmpint (w, ==, 1000);
  g_assert_cmpint (h, ==, 700);
  gtk_widget_destroy (window);
  g_settings_reset (settings (), "window-width");
  g_settings_reset (settings (), "window-height");
}

/* The status bar: events, selection length; the bookmarks panel's CPU. */
static void
test_status_and_panel (void)
{
  g_autofree char *dir = copy_sample ("status");
  g_autofree char *count = NULL;
  g_autoptr (GHashTable) counts = NULL;
  TtvViewerBookmark *b;
  GtkWidget *panel;
  GtkTreeModel *model;
  GtkTreeIter iter;
  TtvTime start, end;
  guint64 total;
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  shell_open (&s, dir);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  counts = count_events (s.ts, &total);
  count = g_strdup_printf ("%" G_GUINT64_FORMAT " events", total);
  g_assert_cmpstr (ttv_status_bar_get_summary (ttv_tab_get_status_bar (s.tab)), ==, count);
  ttv_tab_state_get_time_span (s.state, &start, &end);
  ttv_tab_state_set_selection (s.state, start + 1000, start + 1000 + 2500000);
  g_assert_nonnull (strstr (ttv_status_bar_get_summary (ttv_tab_get_status_bar (s.tab)),
                            "selection 2.500 ms"));

  b = ttv_viewer_bookmark_new ("on-cpu", "", 2, start + 5, start + 5);
  ttv_tab_add_bookmark (s.tab, b);
  panel = ttv_gui_test_find_widget (GTK_WIDGET (s.tab), TTV_TYPE_BOOKMARKS_PANEL, NULL);
  model = gtk_tree_view_get_model (GTK_TREE_VIEW (ttv_gui_test_find_widget (panel, GTK_TYPE_TREE_VIEW, NULL)));
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  {
    g_autofree char *name = NULL, *cpu = NULL;
    GtkTreeViewColumn *col = gtk_tree_view_get_column (GTK_TREE_VIEW (ttv_gui_test_find_widget (panel, GTK_TYPE_TREE_VIEW, NULL)), 2);
    gtk_tree_model_get (model, &iter, 1, &name, 2, &cpu, -1);
    g_assert_cmpstr (name, ==, "on-cpu");
    g_assert_cmpstr (cpu, ==, "2");
    g_assert_cmpstr (gtk_tree_view_column_get_title (col), ==, _("CPU"));
  }
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));
  shell_close (&s);
}

/* --- Preferences ----------------------------------------------------------------- */

typedef struct {
  guint8 r, g, b;
} Pixel;

/* The time bar's ruler and overview as drawn now. */
static cairo_surface_t *
draw_time_bar (Shell *s)
{
  GtkWidget *area = ttv_gui_test_find_widget (GTK_WIDGET (s->tab), GTK_TYPE_DRAWING_AREA, NULL);
  int w = gtk_widget_get_allocated_width (area), h = gtk_widget_get_allocated_height (area);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cairo_t *cr = cairo_create (surface);

  g_assert_cmpint (w, >, 100);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  gtk_widget_draw (area, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static Pixel
pixel_at (cairo_surface_t *surface, int x, int y)
{
  const guint8 *row = cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface);
  guint32 v = ((const guint32 *) row)[x];

  return (Pixel) { (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };
}

static guint
count_colour (cairo_surface_t *surface, guint8 r, guint8 g, guint8 b)
{
  guint n = 0;

  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    for (int x = 0; x < cairo_image_surface_get_width (surface); x++)
      {
        Pixel p = pixel_at (surface, x, y);
        n += p.r == r && p.g == g && p.b == b;
      }
  return n;
}

static void
test_marker_colours (void)
{
  g_autofree char *dir = copy_sample ("colours");
  cairo_surface_t *surface;
  TtvTime start, end;
  Shell s;
  int width, x;
  Pixel p;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  shell_open (&s, dir);
  ttv_gui_test_spin_until (ttv_gui_test_state_ready, s.state);
  ttv_tab_state_get_time_span (s.state, &start, &end);
  /* The bookmark (at 7/8) outside the window's shaded box in the overview. */
  ttv_tab_state_set_time_window (s.state, start, start + (end - start) * 8 / 10);
  ttv_tab_state_set_current_time (s.state, start + (end - start) / 4);
  ttv_tab_state_set_selection (s.state, start + (end - start) / 2, start + (end - start) * 3 / 4);
  add_bookmark (&s, "coloured", start + (end - start) * 7 / 8);
  ttv_gui_test_spin_until (saver_idle, shell_saver (&s));

  /* The defaults are what Preferences shows: none of the test colours. */
  surface = draw_time_bar (&s);
  g_assert_cmpuint (count_colour (surface, 0x00, 0xff, 0x00), ==, 0);
  g_assert_cmpuint (count_colour (surface, 0x00, 0xff, 0xff), ==, 0);
  g_assert_cmpuint (count_colour (surface, 0xe6, 0x99, 0x00), >, 0);
  cairo_surface_destroy (surface);

  g_settings_set_string (settings (), "bookmark-color", "#00ff00");
  g_settings_set_string (settings (), "current-time-color", "#00ffff");
  g_settings_set_string (settings (), "selection-color", "#ff00ff");
  ttv_gui_test_spin_pending ();
  surface = draw_time_bar (&s);
  /* One line each across the overview strip (11 pixels tall under the
   * ruler, over its scale); the current time also across the ruler. */
  g_assert_cmpuint (count_colour (surface, 0x00, 0xff, 0x00), >=, 10);
  g_assert_cmpuint (count_colour (surface, 0x00, 0xff, 0xff), >=, 30);
  g_assert_cmpuint (count_colour (surface, 0xe6, 0x99, 0x00), ==, 0);
  /* The selection, translucent over the ruler: tinted magenta. */
  width = cairo_image_surface_get_width (surface);
  x = (int) (width * (0.625 / 0.8));
  p = pixel_at (surface, x, 19);
  g_test_message ("selection pixel: %02x%02x%02x", p.r, p.g, p.b);
  g_assert_cmpint (p.g + 40, <, p.r);
  g_assert_cmpint (p.g + 40, <, p.b);
  cairo_surface_destroy (surface);

  /* A colour that does not parse: the default. */
  g_settings_set_string (settings (), "bookmark-color", "not a colour");
  surface = draw_time_bar (&s);
  g_assert_cmpuint (count_colour (surface, 0xe6, 0x99, 0x00), >, 0);
  cairo_surface_destroy (surface);

  g_settings_reset (settings (), "bookmark-color");
  g_settings_reset (settings (), "current-time-color");
  g_settings_reset (settings (), "selection-color");
  shell_close (&s);
}

static GtkWidget *
find_named (GtkWidget *root, const char *name)
{
  return ttv_gui_test_find_widget (root, GTK_TYPE_WIDGET, name);
}

/* Preferences: colour buttons bound both ways to the settings. */
static void
test_marker_editor (void)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *button;
  GdkRGBA rgba;
  g_autofree char *text = NULL;

  g_object_ref_sink (grid);
  g_assert_cmpuint (ttv_marker_editor_attach (settings (), GTK_GRID (grid), 2), ==, 5);
  button = find_named (grid, "bookmark-color");
  g_assert_true (GTK_IS_COLOR_BUTTON (button));
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (button), &rgba);
  g_assert_cmpfloat_with_epsilon (rgba.red, 0xe6 / 255.0, 1e-6);

  gdk_rgba_parse (&rgba, "#123456");
  gtk_color_chooser_set_rgba (GTK_COLOR_CHOOSER (button), &rgba);
  text = g_settings_get_string (settings (), "bookmark-color");
  g_assert_cmpstr (text, ==, "#123456");
  g_settings_set_string (settings (), "bookmark-color", "#abcdef");
  gtk_color_chooser_get_rgba (GTK_COLOR_CHOOSER (button), &rgba);
  g_assert_cmpfloat_with_epsilon (rgba.blue, 0xef / 255.0, 1e-6);
  g_assert_true (GTK_IS_COLOR_BUTTON (find_named (grid, "current-time-color")));
  g_assert_true (GTK_IS_COLOR_BUTTON (find_named (grid, "selection-color")));
  g_settings_reset (settings (), "bookmark-color");
  g_object_unref (grid);
}

static void
test_bookmarks_panel_preference (void)
{
  g_autofree char *dir = copy_sample ("panel-pref");
  Shell s;

  if (!dir)
    {
      g_test_skip ("TTV_SAMPLE_TRACE is not set or missing");
      return;
    }
  g_settings_set_boolean (settings (), "show-bookmarks-panel", FALSE);
  shell_open (&s, dir);
  g_assert_false (ttv_tab_get_bookmarks_visible (s.tab));
  shell_close (&s);
  g_settings_set_boolean (settings (), "show-bookmarks-panel", TRUE);
  shell_open (&s, dir);
  g_assert_true (ttv_tab_get_bookmarks_visible (s.tab));
  shell_close (&s);
  g_settings_reset (settings (), "show-bookmarks-panel");
}

/* Preferences has the time format, bound both ways to the setting. */
static void
test_time_format_preference (void)
{
  GtkWidget *window = new_window ();
  GtkWidget *dialog = NULL, *combo;
  g_autoptr (GList) windows = NULL;

  g_settings_reset (settings (), "time-format");
  g_action_group_activate_action (G_ACTION_GROUP (window), "preferences", NULL);
  windows = gtk_window_list_toplevels ();
  for (GList *l = windows; l; l = l->next)
    if (g_strcmp0 (gtk_widget_get_name (l->data), "ttv-preferences") == 0)
      dialog = l->data;
  g_assert_nonnull (dialog);
  combo = ttv_gui_test_find_widget (dialog, GTK_TYPE_COMBO_BOX_TEXT, "time-format");
  g_assert_nonnull (combo);
  g_assert_cmpstr (gtk_combo_box_get_active_id (GTK_COMBO_BOX (combo)), ==, "relative");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), "utc");
  {
    g_autofree char *format = g_settings_get_string (settings (), "time-format");
    g_assert_cmpstr (format, ==, "utc");
  }
  g_settings_set_string (settings (), "time-format", "absolute");
  g_assert_cmpstr (gtk_combo_box_get_active_id (GTK_COMBO_BOX (combo)), ==, "absolute");
  gtk_widget_destroy (dialog);
  gtk_widget_destroy (window);
  g_settings_reset (settings (), "time-format");
}

/* Preferences has the symbol directories as one line separated by ':',
 * bound both ways to the list setting. */
static void
test_symbol_directories_preference (void)
{
  GtkWidget *window = new_window ();
  GtkWidget *dialog = NULL, *entry;
  g_autoptr (GList) windows = NULL;

  g_settings_reset (settings (), "symbol-directories");
  g_action_group_activate_action (G_ACTION_GROUP (window), "preferences", NULL);
  windows = gtk_window_list_toplevels ();
  for (GList *l = windows; l; l = l->next)
    if (g_strcmp0 (gtk_widget_get_name (l->data), "ttv-preferences") == 0)
      dialog = l->data;
  g_assert_nonnull (dialog);
  entry = ttv_gui_test_find_widget (dialog, GTK_TYPE_ENTRY, "symbol-directories");
  g_assert_nonnull (entry);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (entry)), ==, "");
  gtk_entry_set_text (GTK_ENTRY (entry), "/opt/app/build: /srv/debug ::");
  {
    g_auto (GStrv) dirs = g_settings_get_strv (settings (), "symbol-directories");
    g_assert_cmpuint (g_strv_length (dirs), ==, 2);
    g_assert_cmpstr (dirs[0], ==, "/opt/app/build");
    g_assert_cmpstr (dirs[1], ==, "/srv/debug");
  }
  const char *const one[] = { "/usr/local/lib/debug", NULL };
  g_settings_set_strv (settings (), "symbol-directories", one);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (entry)), ==, "/usr/local/lib/debug");
  gtk_widget_destroy (dialog);
  gtk_widget_destroy (window);
  g_settings_reset (settings (), "symbol-directories");
}

/* Without a preference the state pass uses libttv's interval, which must be
 * the schema's default. */
static void
test_checkpoint_default (void)
{
  g_autoptr (GSettingsSchema) schema = NULL;
  g_autoptr (GSettingsSchemaKey) key = NULL;
  g_autoptr (GVariant) def = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  TtvStateTracker *tracker = ttv_state_tracker_new (ts, NULL);

  g_object_get (settings (), "settings-schema", &schema, NULL);
  key = g_settings_schema_get_key (schema, "checkpoint-interval");
  def = g_settings_schema_key_get_default_value (key);
  g_assert_cmpuint (g_variant_get_uint32 (def), ==, ttv_state_tracker_get_interval (tracker));
  ttv_state_tracker_free (tracker);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = NULL, *data = NULL, *config = NULL;

  tmp_base = ttv_test_get_tmp_dir ();
  cache = g_build_filename (tmp_base, "cache", NULL);
  data = g_build_filename (tmp_base, "data", NULL);
  config = g_build_filename (tmp_base, "config", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);

  gtk_test_init (&argc, &argv, NULL);
  ttv_gui_test_load_modules ((const char *const[]) { TTV_EVENTS_MODULE_PATH, NULL });
  g_test_add_func ("/gui/shell/save/archive-background", test_save_archive_background);
  g_test_add_func ("/gui/shell/save/archive-cancel", test_save_archive_cancel);
  g_test_add_func ("/gui/shell/read-only/beside", test_read_only_beside);
  g_test_add_func ("/gui/shell/bookmarks/location-ctf", test_bookmarks_location_ctf);
  g_test_add_func ("/gui/shell/read-only/user-folder-and-dont-save", test_read_only_user_dir_and_dont_save);
  g_test_add_func ("/gui/shell/info-dialog", test_info_dialog);
  g_test_add_func ("/gui/shell/info-dialog-not-utf8", test_info_dialog_not_utf8);
  g_test_add_func ("/gui/shell/damaged-block", test_damaged_block);
  g_test_add_func ("/gui/shell/damage-at-open", test_damage_at_open);
  g_test_add_func ("/gui/shell/bookmarks-background", test_bookmarks_background);
  g_test_add_func ("/gui/shell/bookmarks/hand-written-cycles", test_hand_written_cycles);
  g_test_add_func ("/gui/shell/bookmarks/delete-undo", test_delete_undo);
  g_test_add_func ("/gui/shell/bookmarks/dialog-after-close", test_dialog_after_close);
  g_test_add_func ("/gui/shell/bookmarks/dialog-times", test_dialog_times);
  g_test_add_func ("/gui/shell/background/cancel-restart", test_cancel_restart);
  g_test_add_func ("/gui/shell/window/add-trace-archive", test_add_trace_archive);
  g_test_add_func ("/gui/shell/window/open-archive-cancel", test_open_archive_cancel);
  g_test_add_func ("/gui/shell/window/welcome", test_welcome);
  g_test_add_func ("/gui/shell/window/recent-menu", test_recent_menu);
  g_test_add_func ("/gui/shell/window/menus-and-shortcuts", test_menus_and_shortcuts);
  g_test_add_func ("/gui/shell/window/size", test_window_size);
  g_test_add_func ("/gui/shell/status-and-panel", test_status_and_panel);
  g_test_add_func ("/gui/shell/preferences/marker-colours", test_marker_colours);
  g_test_add_func ("/gui/shell/preferences/marker-editor", test_marker_editor);
  g_test_add_func ("/gui/shell/preferences/bookmarks-panel", test_bookmarks_panel_preference);
  g_test_add_func ("/gui/shell/preferences/checkpoint-default", test_checkpoint_default);
  g_test_add_func ("/gui/shell/preferences/time-format", test_time_format_preference);
  g_test_add_func ("/gui/shell/open-session", test_open_session);
  g_test_add_func ("/gui/shell/open-folder-of-trace", test_open_folder_of_trace);
  g_test_add_func ("/gui/shell/bookmarks-keep-clock", test_bookmarks_keep_clock);
  g_test_add_func ("/gui/shell/clock-offsets", test_clock_offsets);
  g_test_add_func ("/gui/shell/preferences/symbol-directories", test_symbol_directories_preference);
  return g_test_run ();
}

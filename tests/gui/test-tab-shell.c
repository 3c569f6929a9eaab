/* test-tab-shell.c: the application shell around the views, in a real
 * window under Xvfb: bookmark saves into a large archive run in the
 * background (the main loop keeps answering, progress, Cancel, the archive
 * untouched until a save succeeds), read-only traces, delete and Undo. */
#include "ttv-config.h"

#include "ttv-archive.h"
#include "ttv-bookmarks.h"
#include "ttv-gui-test-util.h"
#include "ttv-tab.h"

#include <archive.h>
#include <archive_entry.h>
#include <ftw.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

static char *tmp_base;          /* per run: traces, archives, XDG folders */

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

static void
shell_open (Shell *s, const char *path)
{
  g_autoptr (GError) error = NULL;

  memset (s, 0, sizeof *s);
  s->ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (s->ts, path, &error));
  g_assert_no_error (error);
  s->window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_default_size (GTK_WINDOW (s->window), 1100, 700);
  s->tab = TTV_TAB (ttv_tab_new (s->ts));
  gtk_container_add (GTK_CONTAINER (s->window), GTK_WIDGET (s->tab));
  gtk_widget_show_all (s->window);
  s->state = ttv_tab_get_state (s->tab);
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

  /* The main loop ran all along (a save on it would stop every tick). */
  g_test_message ("save: %u ticks, longest gap %" G_GINT64_FORMAT " us, progress up to %.2f",
                  ticker.ticks, ticker.max_gap, ticker.max_fraction);
  g_assert_cmpuint (ticker.ticks, >=, 5);
  g_assert_cmpint (ticker.max_gap, <, 500000);
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

static int
remove_one (const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
  remove (path);
  return 0;
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = NULL, *data = NULL, *config = NULL;
  int ret;

  tmp_base = g_dir_make_tmp ("ttv-test-shell-XXXXXX", NULL);
  g_assert_nonnull (tmp_base);
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
  ret = g_test_run ();

  nftw (tmp_base, remove_one, 16, FTW_DEPTH | FTW_PHYS);
  g_free (tmp_base);
  return ret;
}

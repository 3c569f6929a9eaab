/* test-history-cache.c: the state history's cache directory: its size cap
 * and least-recently-used eviction, stale temporary files, the cap from
 * the options and $TTV_CACHE_MAX, a history larger than the cap (used,
 * not kept); and the memory a build holds under its limit, measured in
 * the process (peak resident memory), against a build kept in memory. */
#include "ttv-history-test-util.h"
#include "ttv-process-memory.h"

#include <glib/gstdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* A file of @size bytes in @dir, last used @age seconds ago. */
static char *
make_file (const char *dir, const char *name, gsize size, gint64 age)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autofree char *bytes = g_malloc0 (size);
  g_assert_true (g_file_set_contents (path, bytes, (gssize) size, NULL));
  gint64 when = g_get_real_time () / G_USEC_PER_SEC - age;
  struct timespec times[2] = { { when, 0 }, { when, 0 } };
  g_assert_cmpint (utimensat (AT_FDCWD, path, times, 0), ==, 0);
  return path;
}

static void
test_evict_lru (void)
{
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *oldest = make_file (dir, "a.hist", 4000, 500);
  g_autofree char *middle = make_file (dir, "b.hist", 4000, 300);
  g_autofree char *newest = make_file (dir, "c.hist", 4000, 100);
  g_autofree char *other = make_file (dir, "notes.txt", 50000, 1000);
  g_autofree char *stale = make_file (dir, "x.hist.123-abc.tmp", 100, 7200);
  g_autofree char *fresh = make_file (dir, "y.hist.456-def.tmp", 100, 10);

  /* Under the cap: nothing goes but the stale temporary file. */
  g_assert_true (ttv_history_cache_evict (dir, 12000, NULL));
  g_assert_true (g_file_test (oldest, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (stale, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (fresh, G_FILE_TEST_EXISTS));

  /* Used again: the oldest becomes the newest. */
  ttv_history_cache_touch (oldest);
  /* Over the cap: the least recently used go first, until it fits. */
  g_assert_true (ttv_history_cache_evict (dir, 8500, NULL));
  g_assert_false (g_file_test (middle, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (oldest, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (newest, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));   /* not ours */

  /* The file just written is kept while others can go... */
  g_assert_true (ttv_history_cache_evict (dir, 4000, oldest));
  g_assert_true (g_file_test (oldest, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (newest, G_FILE_TEST_EXISTS));
  /* ... and goes itself when it alone is over the cap. */
  g_assert_false (ttv_history_cache_evict (dir, 1000, oldest));
  g_assert_false (g_file_test (oldest, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (other, G_FILE_TEST_EXISTS));
}

static void
test_limit (void)
{
  TtvHistoryOptions opt = { 0 };
  g_unsetenv ("TTV_CACHE_MAX");
  g_assert_cmpuint (ttv_history_cache_limit (&opt, "/tmp"), ==, 0);   /* automatic */
  g_setenv ("TTV_CACHE_MAX", "300M", TRUE);
  g_assert_cmpuint (ttv_history_cache_limit (&opt, "/tmp"), ==, (guint64) 300 << 20);
  g_setenv ("TTV_CACHE_MAX", "2G", TRUE);
  g_assert_cmpuint (ttv_history_cache_limit (&opt, "/tmp"), ==, (guint64) 2 << 30);
  g_setenv ("TTV_CACHE_MAX", "12345", TRUE);
  g_assert_cmpuint (ttv_history_cache_limit (&opt, "/tmp"), ==, 12345);
  g_setenv ("TTV_CACHE_MAX", "lots", TRUE);
  g_assert_cmpuint (ttv_history_cache_limit (&opt, "/tmp"), ==, 0);
  opt.cache_max_bytes = 777;   /* the option wins */
  g_assert_cmpuint (ttv_history_cache_limit (&opt, "/tmp"), ==, 777);
  g_unsetenv ("TTV_CACHE_MAX");
}

/* ---- with real histories ---- */

typedef struct {
  const char *dir;          /* the test's temporary directory */
  char *traces[3];
  TtvTraceset *ts[3];
} Three;

static void
three_set_up (Three *f, gconstpointer data)
{
  f->dir = ttv_test_get_tmp_dir ();
  static const guint cpu_ids[] = { 0, 1 };
  for (guint i = 0; i < 3; i++)
    {
      TtvSimOptions so;
      ttv_sim_options_init (&so);
      so.seed = 20 + i;
      so.cpu_ids = cpu_ids;
      so.n_cpus = 2;
      so.n_processes = 30;
      so.max_events = 30000;
      g_autoptr (GError) error = NULL;
      g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
      g_assert_no_error (error);
      g_autofree char *name = g_strdup_printf ("trace%u", i);
      f->traces[i] = g_build_filename (f->dir, name, NULL);
      ttv_test_write_ltt_simulation (f->traces[i], sim, 16384, 2, NULL, NULL);
      f->ts[i] = ttv_history_test_open (f->traces[i]);
    }
}

static void
three_tear_down (Three *f, gconstpointer data)
{
  for (guint i = 0; i < 3; i++)
    {
      ttv_traceset_unref (f->ts[i]);
      g_free (f->traces[i]);
    }
}

static TtvHistory *
build_capped (TtvTraceset *ts, const char *cache_dir, guint64 cap)
{
  g_autoptr (GError) error = NULL;
  TtvHistoryOptions opt = { 0, FALSE, cache_dir, cap };
  TtvHistory *h = ttv_history_build (ts, &opt, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (h);
  return h;
}

static gboolean
exists (const char *path)
{
  return path && g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

/* Three traces, a cap for two histories: the least recently used goes;
 * reopening one makes it recent; a cap below one history keeps none. */
static void
test_three_traces (Three *f, gconstpointer data)
{
  g_autofree char *cache_dir = g_build_filename (f->dir, "cache", NULL);
  g_autoptr (TtvHistory) h0 = build_capped (f->ts[0], cache_dir, G_MAXUINT64);
  g_autofree char *p0 = g_strdup (ttv_history_get_cache_path (h0));
  guint64 size = ttv_history_get_data_size (h0);
  /* Room for two, not three (the histories are about the same size). */
  guint64 cap = size * 5 / 2;
  g_usleep (20000);
  g_autoptr (TtvHistory) h1 = build_capped (f->ts[1], cache_dir, cap);
  g_autofree char *p1 = g_strdup (ttv_history_get_cache_path (h1));
  g_assert_true (exists (p0) && exists (p1));
  /* Trace 0 used again: reused from its cache, and now the most recent. */
  g_usleep (20000);
  g_autoptr (TtvHistory) again = build_capped (f->ts[0], cache_dir, cap);
  g_assert_true (ttv_history_is_from_cache (again));
  g_usleep (20000);
  g_autoptr (TtvHistory) h2 = build_capped (f->ts[2], cache_dir, cap);
  g_autofree char *p2 = g_strdup (ttv_history_get_cache_path (h2));
  g_assert_true (exists (p0));
  g_assert_false (exists (p1));   /* the least recently used */
  g_assert_true (exists (p2));
  /* The evicted one still answers (its file was open), and is rebuilt. */
  ttv_history_test_assert_same (h1, h1);
  g_autoptr (TtvHistory) h1b = build_capped (f->ts[1], cache_dir, cap);
  g_assert_false (ttv_history_is_from_cache (h1b));
  ttv_history_test_assert_same (h1, h1b);

  /* A cap below one history: built and used, not kept. */
  g_autoptr (TtvHistory) tiny = build_capped (f->ts[2], cache_dir, size / 2);
  g_assert_null (ttv_history_get_cache_path (tiny));
  g_assert_false (exists (p2));
  ttv_history_test_assert_same (h2, tiny);
}

/* ---- memory bounds ---- */

/* Peak resident memory (KiB) since the last reset. */
static gint64
peak_kib (void)
{
  gint64 kib = ttv_process_status_kib ("VmHWM:");
  g_assert_cmpint (kib, >, 0);
  return kib;
}

static gboolean
reset_peak (void)
{
#ifdef __GLIBC__
  /* Memory freed before is given back first: growth is what is new. */
  malloc_trim (0);
#endif
  /* Linux: writing 5 to clear_refs resets the peak to the current RSS. */
  int fd = open ("/proc/self/clear_refs", O_WRONLY);
  if (fd < 0)
    return FALSE;
  gboolean ok = write (fd, "5", 1) == 1;
  close (fd);
  return ok;
}

static gint64
rss_kib (void)
{
  gint64 kib = ttv_process_status_kib ("VmRSS:");
  g_assert_cmpint (kib, >, 0);
  return kib;
}

/* A build written to its file under a 1 MiB limit stays within a few MiB
 * of memory however large the history; kept in memory (the negative
 * control, which shows the measure can fail) it grows with the history. */
static void
test_memory_bound (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer's allocator keeps freed memory: nothing to measure");
  return;
#endif
  if (!reset_peak ())
    {
      g_test_skip ("no /proc/self/clear_refs: cannot measure the peak");
      return;
    }
  TtvHistoryFixture f;
  static const guint cpu_ids[] = { 0, 1, 2, 3 };
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 3;
  so.cpu_ids = cpu_ids;
  so.n_cpus = 4;
  /* Many processes, each with less than a piece of records: only the
   * builder's memory limit makes their coded blocks go out early. */
  so.n_processes = 1500;
  so.max_events = 1500000;
  ttv_history_fixture_set_up (&f, &so);
  g_autofree char *cache_dir = g_build_filename (f.dir, "cache", NULL);

  /* Opened and read once before: the trace's own structures are there. */
  g_autoptr (TtvHistory) warm = ttv_history_test_build (f.ts, 1 << 20, FALSE, cache_dir);
  g_remove (ttv_history_get_cache_path (warm));
  gint64 data_kib = (gint64) ttv_history_get_data_size (warm) / 1024;
  g_clear_pointer (&warm, ttv_history_free);

  g_assert_true (reset_peak ());
  gint64 base = rss_kib ();
  g_autoptr (TtvHistory) bounded = ttv_history_test_build (f.ts, 1 << 20, FALSE, cache_dir);
  gint64 bounded_growth = peak_kib () - base;
  g_assert_false (ttv_history_is_from_cache (bounded));

  g_assert_true (reset_peak ());
  base = rss_kib ();
  g_autoptr (TtvHistory) in_memory = ttv_history_test_build (f.ts, (gsize) 1 << 30, TRUE, NULL);
  gint64 memory_growth = peak_kib () - base;

  g_test_message ("history %" G_GINT64_FORMAT " KiB; peak growth: bounded %" G_GINT64_FORMAT
                  " KiB, in memory %" G_GINT64_FORMAT " KiB", data_kib, bounded_growth, memory_growth);
  g_assert_cmpint (data_kib, >, 16 * 1024);
  /* Buffers, the coder's queue, the read windows, per-row state. */
  g_assert_cmpint (bounded_growth, <, 12 * 1024);
  g_assert_cmpint (memory_growth, >, data_kib * 3 / 4);
  /* Both answer the same. */
  ttv_history_test_assert_same (in_memory, bounded);
  ttv_history_fixture_tear_down (&f, NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/history/cache/evict-lru", test_evict_lru);
  g_test_add_func ("/history/cache/limit", test_limit);
  g_test_add ("/history/cache/three-traces", Three, NULL, three_set_up, test_three_traces, three_tear_down);
  g_test_add_func ("/history/memory/bound", test_memory_bound);
  return g_test_run ();
}

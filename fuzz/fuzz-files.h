/* fuzz-files.h: files for the fuzz targets that read traces from disk: a
 * folder on a RAM file system when there is one, plain writes (no fsync:
 * g_file_set_contents() syncs, which made a target wait on the disk for
 * most of each input), removal at exit.  Included by the targets. */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <unistd.h>

/* A new folder named after @prefix, in /dev/shm when it exists. */
static inline char *
fuzz_make_tmp_dir (const char *prefix)
{
  const char *base = g_file_test ("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : g_get_tmp_dir ();
  char *tmpl = g_strdup_printf ("%s/%s-XXXXXX", base, prefix);
  char *dir = g_mkdtemp (tmpl);
  g_assert (dir != NULL);
  return dir;
}

/* Replaces the contents of @path with @size bytes of @data. */
static inline void
fuzz_write_file (const char *path, const void *data, size_t size)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  g_assert (fd >= 0);
  for (size_t done = 0; done < size;)
    {
      ssize_t n = write (fd, (const char *) data + done, size - done);
      if (n < 0 && errno == EINTR)
        continue;
      g_assert (n > 0);
      done += (size_t) n;
    }
  close (fd);
}

/* Removes @path and everything below it. */
static inline void
fuzz_remove_tree (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name (d)))
    {
      char *p = g_build_filename (path, n, NULL);
      if (g_file_test (p, G_FILE_TEST_IS_DIR) && !g_file_test (p, G_FILE_TEST_IS_SYMLINK))
        fuzz_remove_tree (p);
      else
        g_unlink (p);
      g_free (p);
    }
  if (d)
    g_dir_close (d);
  g_rmdir (path);
}

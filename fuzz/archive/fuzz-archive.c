/* fuzz-archive.c: libFuzzer target for archive extraction: the bytes as a
 * .tar, .tar.gz or other compressed tar read from memory (libarchive's
 * memory reader, or ttv-gunzip.c for gzip) into a fresh folder, with every
 * check of the cache's extraction.  Nothing may land outside the folder,
 * no link may lead out of it, and what a refusal says is escaped. */
#include "ttv-archive.h"
#include "ttv-error.h"
#include "ttv-remove-tree.h"
#include "../fuzz-files.h"

#include <glib/gstdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static char *base;              /* the folder extractions go below */
static char *real_base;

static void
cleanup (void)
{
  ttv_remove_tree (base);
  g_free (base);
  g_free (real_base);
}

/* Every entry below @dir, links resolved, lies inside the base folder. */
static void
check_inside (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *n;
  while (d && (n = g_dir_read_name (d)))
    {
      char *p = g_build_filename (dir, n, NULL);
      char *real = realpath (p, NULL);
      /* A dangling link resolves nowhere, which is inside enough. */
      if (real && !g_str_has_prefix (real, real_base))
        g_error ("%s leads out of the extraction folder, to %s", p, real);
      struct stat st;
      if (lstat (p, &st) == 0 && S_ISDIR (st.st_mode))
        check_inside (p);
      free (real);
      g_free (p);
    }
  if (d)
    g_dir_close (d);
}

static void
check_message (const char *message)
{
  g_assert (g_utf8_validate (message, -1, NULL));
  for (const char *p = message; *p; p++)
    g_assert ((guchar) *p >= 0x20 && *p != 0x7f);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  if (base == NULL)
    {
      /* On a RAM file system when there is one: extraction writes files. */
      base = fuzz_make_tmp_dir ("ttv-fuzz-archive");
      real_base = realpath (base, NULL);
      g_assert (real_base);
      atexit (cleanup);
      /* Bombs are refused at 4 MiB, not at the free space of /dev/shm. */
      ttv_archive_set_size_cap (4u << 20);
      ttv_archive_set_entry_cap (2000);
    }
  char *dir = g_build_filename (base, "x", NULL);
  g_assert (g_mkdir (dir, 0700) == 0);
  GError *error = NULL;
  if (ttv_archive_extract_bytes (data, size, "fuzz.tar", dir, &error))
    g_assert (error == NULL);
  else
    {
      g_assert (error != NULL && (error->domain == TTV_ARCHIVE_ERROR || error->domain == G_IO_ERROR));
      g_assert (strncmp (error->message, "fuzz.tar", 8) == 0);
      check_message (error->message);
      g_error_free (error);
    }
  /* What was extracted before a refusal is checked too. */
  check_inside (dir);
  g_assert (ttv_remove_tree (dir));
  g_free (dir);
  return 0;
}

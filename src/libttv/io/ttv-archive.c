/* ttv-archive.c: traces packed as .tar.gz / .tgz / .tar, extracted safely into
 * a per-archive cache, and rewritten atomically.  Used by ttv_trace_open and bookmarks. */
#include "ttv-archive.h"
#include "ttv-atomic-file.h"
#include "ttv-escape.h"
#include "ttv-gunzip.h"
#include "ttv-remove-tree.h"
#include "ttv-error.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_ENTRY_CAP G_GUINT64_CONSTANT (1000000)
/* No trace compresses this well: an archive that says it expands more is
 * refused before anything is written ($TTV_ARCHIVE_MAX_RATIO allows more). */
#define DEFAULT_MAX_RATIO 200
/* ...once it expands past this (tiny archives of empty files are fine). */
#define RATIO_FLOOR_BYTES (G_GUINT64_CONSTANT (64) << 20)
#define STAMP_NAME "stamp"
#define ROOT_NAME "root"
#define LAST_CLEAN_NAME "last-clean"
#define KEY_LEN 32

static guint64 size_cap;        /* 0: default */
static guint64 entry_cap;       /* 0: default */

void
ttv_archive_set_size_cap (guint64 max_bytes)
{
  size_cap = max_bytes;
}

void
ttv_archive_set_entry_cap (guint64 max_entries)
{
  entry_cap = max_entries;
}

/* The cap set by ttv_archive_set_size_cap or $TTV_ARCHIVE_MAX_BYTES; 0:
 * none (the free space decides). */
static guint64
get_size_cap (void)
{
  if (size_cap != 0)
    return size_cap;
  const char *env = g_getenv ("TTV_ARCHIVE_MAX_BYTES");
  guint64 v;
  if (env && g_ascii_string_to_unsigned (env, 10, 1, G_MAXUINT64, &v, NULL))
    return v;
  return 0;
}

static guint64
get_max_ratio (void)
{
  const char *env = g_getenv ("TTV_ARCHIVE_MAX_RATIO");
  guint64 v;
  if (env && g_ascii_string_to_unsigned (env, 10, 1, G_MAXUINT64, &v, NULL))
    return v;
  return DEFAULT_MAX_RATIO;
}

/* What an extraction into @cache may write: the cap when one is set, else
 * nine tenths of the free space there (the cache must never fill the
 * disk).  *@by_free_space says which. */
static guint64
extraction_limit (const char *cache, gboolean *by_free_space)
{
  guint64 cap = get_size_cap ();
  struct statvfs vfs;
  *by_free_space = FALSE;
  if (cap != 0)
    return cap;
  *by_free_space = TRUE;
  if (statvfs (cache, &vfs) != 0)
    return G_MAXUINT64;         /* cannot tell: what is written is still counted */
  return (guint64) vfs.f_bavail * vfs.f_frsize / 10 * 9;
}

static guint64
get_entry_cap (void)
{
  return entry_cap != 0 ? entry_cap : DEFAULT_ENTRY_CAP;
}

char *
ttv_archive_dup_cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "ttv", "archives", NULL);
}

/* --- Recognising archives ------------------------------------------------ */

static gboolean
has_archive_suffix (const char *path)
{
  g_autofree char *lower = g_ascii_strdown (path, -1);
  return g_str_has_suffix (lower, ".tar.gz") || g_str_has_suffix (lower, ".tgz")
         || g_str_has_suffix (lower, ".tar");
}

gboolean
ttv_archive_is_archive (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);
  struct stat st;
  if (stat (path, &st) != 0)
    return has_archive_suffix (path);  /* lets ttv_archive_extract say what is wrong */
  if (!S_ISREG (st.st_mode))
    return FALSE;
  if (has_archive_suffix (path))
    return TRUE;

  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  guint8 head[512];
  ssize_t n = pread (fd, head, sizeof head, 0);
  close (fd);
  if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    return TRUE;
  if (n >= 262 && memcmp (head + 257, "ustar", 5) == 0)
    return TRUE;
  return FALSE;
}

/* --- Paths inside an archive --------------------------------------------- */

/* Splits a member name into its components, dropping empty and "."
 * components.  Absolute names and ".." are refused (no normalisation of
 * "a/../b": a tar that needs it is not one we trust). */
static gboolean
split_member (const char *archive_path, const char *raw, GPtrArray **out, GError **error)
{
  if (raw == NULL)
    {
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                   _("%s: a member has no name; refusing to extract"), archive_path);
      return FALSE;
    }
  if (raw[0] == '/')
    {
      g_autofree char *shown = ttv_escape_for_display (raw, -1);
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                   _("%s: member “%s” has an absolute path; refusing to extract"),
                   archive_path, shown);
      return FALSE;
    }
  g_autoptr (GPtrArray) comps = g_ptr_array_new_with_free_func (g_free);
  g_auto (GStrv) parts = g_strsplit (raw, "/", -1);
  for (char **p = parts; *p; p++)
    {
      if (**p == '\0' || strcmp (*p, ".") == 0)
        continue;
      if (strcmp (*p, "..") == 0)
        {
          g_autofree char *shown = ttv_escape_for_display (raw, -1);
          g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                       _("%s: member “%s” has a “..” component; refusing to extract"),
                       archive_path, shown);
          return FALSE;
        }
      g_ptr_array_add (comps, g_strdup (*p));
    }
  *out = g_steal_pointer (&comps);
  return TRUE;
}

/* A symbolic link may only point inside the extraction root: relative, with
 * ".." only as leading components and no more of them than the link is deep.
 * Links created earlier are never followed while extracting, and every link
 * obeys this rule, so resolving any link from where it sits stays inside. */
static gboolean
check_symlink_target (const char *archive_path, const char *member, guint link_depth,
                      const char *target, GError **error)
{
  const char *why = NULL;
  if (target == NULL || *target == '\0')
    why = _("an empty target");
  else if (target[0] == '/')
    why = _("an absolute target");
  else
    {
      g_auto (GStrv) parts = g_strsplit (target, "/", -1);
      guint ups = 0;
      gboolean named = FALSE;
      for (char **p = parts; *p && why == NULL; p++)
        {
          if (**p == '\0' || strcmp (*p, ".") == 0)
            continue;
          if (strcmp (*p, "..") == 0)
            {
              if (named)
                why = _("a “..” after a name in its target");
              else if (++ups > link_depth)
                why = _("a target outside the archive");
            }
          else
            named = TRUE;
        }
    }
  if (why == NULL)
    return TRUE;
  g_autofree char *shown = ttv_escape_for_display (target, -1);
  g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
               _("%s: symbolic link “%s” → “%s” has %s; refusing to extract"),
               archive_path, member, shown, why);
  return FALSE;
}

/* --- Extraction ----------------------------------------------------------- */

/* An archive being read: libarchive's reader, and our gzip layer when the
 * archive is gzip (ttv-gunzip.c: libarchive does not check gzip's CRC-32). */
typedef struct {
  struct archive *a;            /* owned */
  TtvGunzip *gunzip;            /* owned, NULL when libarchive decompresses */
} Reader;

/* Bytes of the archive file read so far. */
static guint64
reader_bytes_read (const Reader *r)
{
  if (r->gunzip)
    return ttv_gunzip_get_compressed_bytes (r->gunzip);
  /* -1: the last filter, i.e. the bytes read from the file itself. */
  la_int64_t done = archive_filter_bytes (r->a, -1);
  return (guint64) MAX (done, 0);
}

/* Cancellation and progress of one extraction or rewrite. */
typedef struct {
  GCancellable *cancellable;    /* weak, may be NULL */
  TtvArchiveProgressFunc func;  /* may be NULL */
  gpointer data;
  guint64 base;                 /* archive bytes counted by earlier readings */
  guint64 total;
  gint64 last_us;               /* when func was last called */
  const Reader *reader;         /* weak: the reading under way */
} Progress;

/* Between two blocks of data: FALSE with G_IO_ERROR_CANCELLED once
 * cancelled; reports how far the reading is, now and then. */
static gboolean
progress_step (Progress *p, GError **error)
{
  if (p == NULL)
    return TRUE;
  if (g_cancellable_set_error_if_cancelled (p->cancellable, error))
    return FALSE;
  if (p->func && p->reader)
    {
      gint64 now = g_get_monotonic_time ();
      if (now - p->last_us >= 20000)
        {
          p->last_us = now;
          p->func (p->base + reader_bytes_read (p->reader), p->total, p->data);
        }
    }
  return TRUE;
}

typedef struct {
  const char *archive_path;     /* weak: for messages */
  int root_fd;
  guint64 total;                /* data bytes written so far */
  guint64 declared;             /* data bytes the members read so far say they hold */
  guint64 cap;                  /* of both */
  gboolean cap_is_free_space;   /* @cap is the free space (else a set limit) */
  guint64 archive_size;         /* bytes of the archive file, for the compression ratio */
  guint64 max_ratio;
  guint64 n_entries;
  Progress *progress;           /* weak, may be NULL */
} Extractor;

static void
set_write_error (GError **error, const char *archive_path, const char *member, int errsv)
{
  g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE,
               _("%s: cannot extract member “%s” into the cache: %s"),
               archive_path, member, g_strerror (errsv));
}

/* Opens the directory made of the first @n components of @comps below
 * @root_fd, creating missing ones when @create, never following a link. */
static int
open_dir_path (int root_fd, GPtrArray *comps, guint n, gboolean create,
               const char *archive_path, const char *member, GError **error)
{
  int fd = dup (root_fd);
  if (fd < 0)
    {
      set_write_error (error, archive_path, member, errno);
      return -1;
    }
  for (guint i = 0; i < n; i++)
    {
      const char *c = g_ptr_array_index (comps, i);
      int next = openat (fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (next < 0 && errno == ENOENT && create)
        {
          if (mkdirat (fd, c, 0755) != 0 && errno != EEXIST)
            {
              set_write_error (error, archive_path, member, errno);
              close (fd);
              return -1;
            }
          next = openat (fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        }
      if (next < 0)
        {
          int errsv = errno;
          close (fd);
          if (errsv == ELOOP || errsv == ENOTDIR)
            g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                         _("%s: member “%s” goes through a symbolic link or a file; refusing to extract"),
                         archive_path, member);
          else if (errsv == ENOENT)
            g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ,
                         _("%s: member “%s” refers to a folder that is not in the archive"),
                         archive_path, member);
          else
            set_write_error (error, archive_path, member, errsv);
          return -1;
        }
      close (fd);
      fd = next;
    }
  return fd;
}

/* Makes room for a new non-directory @leaf (tar lets a later member replace
 * an earlier one). */
static gboolean
unlink_existing (int dir_fd, const char *leaf, const char *archive_path, const char *member,
                 GError **error)
{
  if (unlinkat (dir_fd, leaf, 0) == 0 || errno == ENOENT)
    return TRUE;
  if (errno == EISDIR || errno == EPERM)
    g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                 _("%s: member “%s” would replace a folder; refusing to extract"),
                 archive_path, member);
  else
    set_write_error (error, archive_path, member, errno);
  return FALSE;
}

static gboolean
write_all (int fd, const void *buf, gsize len, off_t offset)
{
  const char *p = buf;
  while (len > 0)
    {
      ssize_t n = pwrite (fd, p, len, offset);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = EIO;
          return FALSE;
        }
      p += n;
      len -= (gsize) n;
      offset += n;
    }
  return TRUE;
}

/* libarchive's message for the last failure of @a (a reader or a writer). */
static const char *
archive_message (struct archive *a)
{
  const char *msg = archive_error_string (a);
  return msg ? msg : _("unknown error");
}

static gboolean
set_read_error (GError **error, const char *archive_path, struct archive *a)
{
  g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ,
               _("%s: cannot read the archive: %s"), archive_path, archive_message (a));
  return FALSE;
}

static void
set_too_large (GError **error, Extractor *x, const char *member)
{
  if (x->cap_is_free_space)
    g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE,
                 _("%s: member “%s” takes the extracted size past %" PRIu64 " bytes, nine tenths of "
                   "the free space of the cache folder; refusing to extract (free some space, or set "
                   "TTV_ARCHIVE_MAX_BYTES)"),
                 x->archive_path, member, x->cap);
  else
    g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE,
                 _("%s: member “%s” takes the extracted size past the limit of "
                   "%" PRIu64 " bytes (set TTV_ARCHIVE_MAX_BYTES to allow more); "
                   "refusing to extract"),
                 x->archive_path, member, x->cap);
}

/* Before a member's data is written: what the members say they hold must
 * fit the cap, and must not be more than any trace expands (a
 * decompression bomb says so in its headers, long before writing 20 GB). */
static gboolean
check_declared_size (Extractor *x, struct archive_entry *e, const char *member, GError **error)
{
  la_int64_t size = archive_entry_size_is_set (e) ? archive_entry_size (e) : 0;
  if (size <= 0)
    return TRUE;
  if ((guint64) size > G_MAXUINT64 - x->declared || x->declared + (guint64) size > x->cap)
    {
      set_too_large (error, x, member);
      return FALSE;
    }
  x->declared += (guint64) size;
  if (x->declared > RATIO_FLOOR_BYTES && x->archive_size > 0
      && x->declared / x->max_ratio > x->archive_size)
    {
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE,
                   _("%s: with member “%s” the archive expands to more than %" PRIu64 " times its "
                     "size of %" PRIu64 " bytes, which no trace does (a decompression bomb?); refusing "
                     "to extract (set TTV_ARCHIVE_MAX_RATIO to allow more)"),
                   x->archive_path, member, x->max_ratio, x->archive_size);
      return FALSE;
    }
  return TRUE;
}

/* The next block of the current member's data: TRUE with *@size bytes at
 * *@buf, for offset *@offset; FALSE at the member's end (*@ok stays TRUE) or
 * after a read error or a cancellation (*@ok FALSE, @error set). */
static gboolean
next_data_block (struct archive *a, const char *archive_path, Progress *progress,
                 const void **buf, size_t *size, la_int64_t *offset, gboolean *ok, GError **error)
{
  int r = archive_read_data_block (a, buf, size, offset);

  if (r == ARCHIVE_EOF)
    return FALSE;
  if (r < ARCHIVE_WARN)
    *ok = set_read_error (error, archive_path, a);
  else if (!progress_step (progress, error))
    *ok = FALSE;
  return *ok;
}

static gboolean
extract_file (Extractor *x, struct archive *a, struct archive_entry *e, int dir_fd,
              const char *leaf, const char *member, GError **error)
{
  if (!unlink_existing (dir_fd, leaf, x->archive_path, member, error))
    return FALSE;
  int fd = openat (dir_fd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      set_write_error (error, x->archive_path, member, errno);
      return FALSE;
    }
  guint64 end = 0;
  const void *buf;
  size_t size;
  la_int64_t offset;
  gboolean ok = TRUE;
  while (next_data_block (a, x->archive_path, x->progress, &buf, &size, &offset, &ok, error))
    {
      /* Count what is really written, never what headers claim. */
      if (offset < 0 || (guint64) offset > x->cap || size > x->cap - (guint64) offset
          || size > x->cap - x->total)
        {
          close (fd);
          set_too_large (error, x, member);
          return FALSE;
        }
      if (size > 0 && !write_all (fd, buf, size, (off_t) offset))
        {
          set_write_error (error, x->archive_path, member, errno);
          close (fd);
          return FALSE;
        }
      x->total += size;
      if ((guint64) offset + size > end)
        end = (guint64) offset + size;
    }
  if (!ok)
    {
      close (fd);
      return FALSE;
    }
  /* A sparse file may end in a hole. */
  la_int64_t declared = archive_entry_size_is_set (e) ? archive_entry_size (e) : 0;
  if (declared > 0 && (guint64) declared > end && (guint64) declared <= x->cap
      && archive_entry_sparse_count (e) > 0)
    end = (guint64) declared;
  struct timespec times[2] = { { 0, UTIME_OMIT }, { archive_entry_mtime (e),
                                                    archive_entry_mtime_nsec (e) } };
  if (!archive_entry_mtime_is_set (e))
    times[1].tv_nsec = UTIME_OMIT;
  if (ftruncate (fd, (off_t) end) != 0
      || fchmod (fd, (archive_entry_perm (e) & 0755) | 0600) != 0
      || futimens (fd, times) != 0)
    {
      set_write_error (error, x->archive_path, member, errno);
      close (fd);
      return FALSE;
    }
  if (close (fd) != 0)
    {
      set_write_error (error, x->archive_path, member, errno);
      return FALSE;
    }
  return TRUE;
}

static gboolean
extract_hardlink (Extractor *x, const char *target_raw, int dir_fd, const char *leaf,
                  const char *member, GError **error)
{
  g_autoptr (GPtrArray) tcomps = NULL;
  g_autoptr (GError) local = NULL;
  g_autofree char *shown = ttv_escape_for_display (target_raw, -1);
  if (!split_member (x->archive_path, target_raw, &tcomps, &local) || tcomps->len == 0)
    {
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                   _("%s: hard link “%s” → “%s” leads outside the archive; refusing to extract"),
                   x->archive_path, member, shown);
      return FALSE;
    }
  int tdir = open_dir_path (x->root_fd, tcomps, tcomps->len - 1, FALSE, x->archive_path,
                            member, error);
  if (tdir < 0)
    return FALSE;
  const char *tleaf = g_ptr_array_index (tcomps, tcomps->len - 1);
  struct stat st;
  if (fstatat (tdir, tleaf, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG (st.st_mode))
    {
      close (tdir);
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                   _("%s: hard link “%s” → “%s” does not lead to a file extracted before it; "
                     "refusing to extract"),
                   x->archive_path, member, shown);
      return FALSE;
    }
  gboolean ok = unlink_existing (dir_fd, leaf, x->archive_path, member, error);
  if (ok && linkat (tdir, tleaf, dir_fd, leaf, 0) != 0)
    {
      set_write_error (error, x->archive_path, member, errno);
      ok = FALSE;
    }
  close (tdir);
  return ok;
}

static gboolean
extract_entry (Extractor *x, struct archive *a, struct archive_entry *e, GError **error)
{
  const char *raw = archive_entry_pathname (e);
  g_autoptr (GPtrArray) comps = NULL;
  /* Names from the archive reach the terminal only escaped. */
  g_autofree char *member = ttv_escape_for_display (raw, -1);

  if (++x->n_entries > get_entry_cap ())
    {
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_TOO_LARGE,
                   _("%s: more than %" PRIu64 " members; refusing to extract"),
                   x->archive_path, get_entry_cap ());
      return FALSE;
    }
  if (raw == NULL)
    {
      /* What a damaged compressed stream unpacks to: a header of garbage. */
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ,
                   _("%s: the archive is damaged: member %" PRIu64 " (its header at byte %" PRId64
                     " of the unpacked data) has no name; refusing to extract"),
                   x->archive_path, x->n_entries, (gint64) archive_read_header_position (a));
      return FALSE;
    }
  if (!split_member (x->archive_path, raw, &comps, error))
    return FALSE;

  const char *hardlink = archive_entry_hardlink (e);
  mode_t type = archive_entry_filetype (e);
  if (hardlink == NULL && type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
    {
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                   _("%s: member “%s” is a device, FIFO or socket; refusing to extract"),
                   x->archive_path, member);
      return FALSE;
    }
  if (comps->len == 0)
    {
      if (type == AE_IFDIR && hardlink == NULL)
        return TRUE;            /* "./" itself */
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                   _("%s: member “%s” would replace the extraction folder; refusing to extract"),
                   x->archive_path, member);
      return FALSE;
    }
  if (type == AE_IFLNK && hardlink == NULL
      && !check_symlink_target (x->archive_path, member, comps->len - 1,
                                archive_entry_symlink (e), error))
    return FALSE;

  int dir_fd = open_dir_path (x->root_fd, comps, comps->len - 1, TRUE, x->archive_path, member,
                              error);
  if (dir_fd < 0)
    return FALSE;
  const char *leaf = g_ptr_array_index (comps, comps->len - 1);
  gboolean ok = TRUE;

  if (hardlink != NULL)
    ok = extract_hardlink (x, hardlink, dir_fd, leaf, member, error);
  else if (type == AE_IFDIR)
    {
      if (mkdirat (dir_fd, leaf, 0700 | (archive_entry_perm (e) & 0755)) != 0)
        {
          struct stat st;
          if (errno != EEXIST)
            {
              set_write_error (error, x->archive_path, member, errno);
              ok = FALSE;
            }
          else if (fstatat (dir_fd, leaf, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR (st.st_mode))
            {
              g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_HOSTILE,
                           _("%s: folder “%s” would replace a file or link; refusing to extract"),
                           x->archive_path, member);
              ok = FALSE;
            }
        }
    }
  else if (type == AE_IFLNK)
    {
      ok = unlink_existing (dir_fd, leaf, x->archive_path, member, error);
      if (ok && symlinkat (archive_entry_symlink (e), dir_fd, leaf) != 0)
        {
          set_write_error (error, x->archive_path, member, errno);
          ok = FALSE;
        }
    }
  else
    ok = check_declared_size (x, e, member, error)
         && extract_file (x, a, e, dir_fd, leaf, member, error);
  close (dir_fd);
  return ok;
}

/* libarchive's reader for tar in any compression it has built in, but
 * gzip when @with_gzip is FALSE (ttv-gunzip.c inflates it then). */
static struct archive *
reader_new (gboolean with_gzip)
{
  struct archive *a = archive_read_new ();
  /* Built-in decompressors only: support_filter_all would fall back to
   * running external programs (lrzip, lzop, ...) on hostile input. */
  if (with_gzip)
    archive_read_support_filter_gzip (a);
  if (archive_bzlib_version () != NULL)
    archive_read_support_filter_bzip2 (a);
  if (archive_liblzma_version () != NULL)
    {
      archive_read_support_filter_xz (a);
      archive_read_support_filter_lzma (a);
    }
  if (archive_libzstd_version () != NULL)
    archive_read_support_filter_zstd (a);
  archive_read_support_format_tar (a);
  archive_read_support_format_gnutar (a);
  return a;
}

/* Starts reading the archive open on @fd (@data, @length: in memory when
 * @fd is -1).  FALSE with a read error (the reader then needs clearing). */
static gboolean
reader_open (Reader *r, int fd, const guint8 *data, gsize length, const char *archive_path,
             GError **error)
{
  guint8 head[2] = { 0 };
  gsize n = fd >= 0 ? (gsize) MAX (pread (fd, head, sizeof head, 0), 0) : MIN (length, sizeof head);
  if (fd < 0 && n > 0)
    memcpy (head, data, n);
  int status;
  if (ttv_gunzip_is_gzip (head, n))
    {
      r->gunzip = fd >= 0 ? ttv_gunzip_new_fd (fd) : ttv_gunzip_new_memory (data, length);
      r->a = reader_new (FALSE);
      status = ttv_gunzip_open_archive (r->gunzip, r->a);
    }
  else
    {
      r->a = reader_new (TRUE);
      status = fd >= 0 ? archive_read_open_fd (r->a, fd, 65536) : archive_read_open_memory (r->a, data, length);
    }
  if (status != ARCHIVE_OK)
    return set_read_error (error, archive_path, r->a);
  return TRUE;
}

/* After the last member: the rest of the compressed data read too, so
 * that a CRC-32 that does not match is seen. */
static gboolean
reader_finish (Reader *r, const char *archive_path, GError **error)
{
  if (r->gunzip && !ttv_gunzip_read_to_end (r->gunzip, r->a))
    return set_read_error (error, archive_path, r->a);
  return TRUE;
}

static void
reader_clear (Reader *r)
{
  g_clear_pointer (&r->a, archive_read_free);
  g_clear_pointer (&r->gunzip, ttv_gunzip_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Reader, reader_clear)

/* Reads the next member's header into *@e: TRUE; FALSE at the end of the
 * archive, or after a read error (then set, with *@ok FALSE). */
static gboolean
reader_next (struct archive *a, const char *archive_path, struct archive_entry **e,
             gboolean *ok, GError **error)
{
  int r = archive_read_next_header (a, e);
  if (r == ARCHIVE_EOF)
    return FALSE;
  if (r < ARCHIVE_WARN)
    {
      *ok = set_read_error (error, archive_path, a);
      return FALSE;
    }
  return TRUE;
}

/* Extracts the archive open on @fd (in memory at @data when @fd is -1,
 * @archive_size bytes) into the existing, empty folder @root, writing at
 * most @cap bytes (@cap_is_free_space: the cache's free space). */
static gboolean
extract_to (const char *archive_path, int fd, const guint8 *data, guint64 archive_size, const char *root,
            guint64 cap, gboolean cap_is_free_space, Progress *progress, GError **error)
{
  Extractor x = { .archive_path = archive_path, .cap = cap, .cap_is_free_space = cap_is_free_space,
                  .archive_size = archive_size, .max_ratio = get_max_ratio (), .progress = progress };
  x.root_fd = open (root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (x.root_fd < 0)
    {
      set_write_error (error, archive_path, ".", errno);
      return FALSE;
    }
  g_auto (Reader) r = { NULL, NULL };
  gboolean ok = reader_open (&r, fd, data, archive_size, archive_path, error);
  if (progress)
    progress->reader = &r;
  struct archive_entry *e;
  while (ok && reader_next (r.a, archive_path, &e, &ok, error))
    ok = progress_step (progress, error) && extract_entry (&x, r.a, e, error);
  ok = ok && reader_finish (&r, archive_path, error);
  if (progress)
    progress->reader = NULL;
  close (x.root_fd);
  return ok;
}

gboolean
ttv_archive_extract_bytes (const guint8 *data, gsize length, const char *name, const char *dir,
                           GError **error)
{
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  gboolean by_free_space;
  guint64 cap = extraction_limit (dir, &by_free_space);
  return extract_to (name, -1, data, length, dir, cap, by_free_space, NULL, error);
}

/* --- The cache ------------------------------------------------------------ */

/* Folders of the cache being written (KEY.tmp-*) or removed (KEY.old-*)
 * are locked by their process for as long as it works on them: one whose
 * lock is free was left by a process that died, and goes. */
static int
lock_dir (const char *path, gboolean wait)
{
  int fd = open (path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0 && flock (fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0)
    {
      close (fd);
      return -1;
    }
  return fd;
}

/* Removes a tree at any depth, without following any link in it. */
static void
remove_tree (const char *path)
{
  ttv_remove_tree (path);
}

static char *
cache_key (const char *real_path)
{
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, real_path, -1);
  return g_strndup (sum, KEY_LEN);
}

static char *
make_stamp (const char *real_path, const struct stat *st)
{
  return g_strdup_printf ("ttv-archive-cache 1\npath %s\nsize %" G_GUINT64_FORMAT
                          "\nmtime %" G_GINT64_FORMAT ".%09ld\ninode %" G_GUINT64_FORMAT
                          "\ndevice %" G_GUINT64_FORMAT "\n",
                          real_path, (guint64) st->st_size, (gint64) st->st_mtim.tv_sec,
                          (long) st->st_mtim.tv_nsec, (guint64) st->st_ino,
                          (guint64) st->st_dev);
}

static gboolean
stamp_matches (const char *entry_dir, const char *stamp)
{
  g_autofree char *path = g_build_filename (entry_dir, STAMP_NAME, NULL);
  g_autofree char *root = g_build_filename (entry_dir, ROOT_NAME, NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  return strcmp (text, stamp) == 0 && g_file_test (root, G_FILE_TEST_IS_DIR);
}

/* The trace inside an extraction root: its single top-level folder, if any. */
static char *
find_top (const char *root)
{
  g_autoptr (GDir) dir = g_dir_open (root, 0, NULL);
  if (dir == NULL)
    return g_strdup (root);
  const char *name, *only = NULL;
  guint n = 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      only = name;
      n++;
    }
  if (n == 1)
    {
      g_autofree char *top = g_build_filename (root, only, NULL);
      struct stat st;
      if (lstat (top, &st) == 0 && S_ISDIR (st.st_mode))
        return g_steal_pointer (&top);
    }
  return g_strdup (root);
}

static gboolean
starts_with_key (const char *name)
{
  for (int i = 0; i < KEY_LEN; i++)
    if (!g_ascii_isxdigit (name[i]))
      return FALSE;
  return TRUE;
}

static gboolean
is_key (const char *name)
{
  return strlen (name) == KEY_LEN && starts_with_key (name);
}

static void
discard_dir (const char *path)
{
  /* Renamed first so that nobody picks up a half-removed cache. */
  g_autofree char *old = g_strdup_printf ("%s.old-%d-%08x", path, (int) getpid (),
                                          g_random_int ());
  if (rename (path, old) != 0)
    return;
  int lock = lock_dir (old, TRUE);
  remove_tree (old);
  if (lock >= 0)
    close (lock);
}

static gboolean
is_work_dir (const char *name)
{
  return strlen (name) > KEY_LEN && starts_with_key (name)
         && (g_str_has_prefix (name + KEY_LEN, ".tmp-") || g_str_has_prefix (name + KEY_LEN, ".old-"));
}

void
ttv_archive_clean_dead (void)
{
  g_autofree char *cache = ttv_archive_dup_cache_dir ();
  g_autoptr (GDir) dir = g_dir_open (cache, 0, NULL);
  const char *name;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  while (dir && (name = g_dir_read_name (dir)) != NULL)
    {
      if (!is_work_dir (name))
        continue;
      g_autofree char *path = g_build_filename (cache, name, NULL);
      struct stat st;
      /* Made in the last seconds: perhaps not locked yet. */
      if (lstat (path, &st) != 0 || !S_ISDIR (st.st_mode) || now - (gint64) st.st_mtim.tv_sec < 2)
        continue;
      int lock = lock_dir (path, FALSE);
      if (lock < 0)
        continue;               /* a live extraction or removal */
      remove_tree (path);
      close (lock);
    }
}

void
ttv_archive_clean_stale (guint max_age_days)
{
  g_autofree char *cache = ttv_archive_dup_cache_dir ();
  g_autoptr (GDir) dir = g_dir_open (cache, 0, NULL);
  if (dir == NULL)
    return;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  gint64 max_age = (gint64) max_age_days * 86400;
  const char *name;
  g_autoptr (GPtrArray) doomed = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (cache, name, NULL);
      struct stat st;
      if (is_key (name))
        {
          g_autofree char *stamp = g_build_filename (path, STAMP_NAME, NULL);
          if (stat (stamp, &st) != 0 && lstat (path, &st) != 0)
            continue;
          if (now - (gint64) st.st_mtim.tv_sec >= max_age)
            g_ptr_array_add (doomed, g_steal_pointer (&path));
        }
    }
  for (guint i = 0; i < doomed->len; i++)
    discard_dir (g_ptr_array_index (doomed, i));
  ttv_archive_clean_dead ();
}

/* At most once a day, from ttv_archive_extract. */
static void
maybe_clean_stale (const char *cache)
{
  g_autofree char *mark = g_build_filename (cache, LAST_CLEAN_NAME, NULL);
  struct stat st;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  if (stat (mark, &st) == 0 && now - (gint64) st.st_mtim.tv_sec < 86400)
    return;
  g_file_set_contents (mark, "", 0, NULL);
  ttv_archive_clean_stale (30);
}

static char *
real_archive_path (const char *archive_path, GError **error)
{
  char *real = realpath (archive_path, NULL);
  if (real == NULL)
    {
      int errsv = errno;
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ, _("%s: %s"),
                   archive_path, g_strerror (errsv));
      return NULL;
    }
  char *ret = g_strdup (real);
  free (real);
  return ret;
}

static int
open_archive (const char *archive_path, const char *real, struct stat *st, GError **error)
{
  int fd = open (real, O_RDONLY | O_CLOEXEC);
  if (fd < 0 || fstat (fd, st) != 0)
    {
      int errsv = errno;
      if (fd >= 0)
        close (fd);
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ, _("%s: %s"),
                   archive_path, g_strerror (errsv));
      return -1;
    }
  if (!S_ISREG (st->st_mode))
    {
      close (fd);
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ,
                   _("%s: not a regular file"), archive_path);
      return -1;
    }
  return fd;
}

char *
ttv_archive_extract (const char *archive_path, GError **error)
{
  return ttv_archive_extract_full (archive_path, NULL, NULL, NULL, error);
}

char *
ttv_archive_extract_full (const char *archive_path, GCancellable *cancellable,
                          TtvArchiveProgressFunc progress_func, gpointer progress_data,
                          GError **error)
{
  g_return_val_if_fail (archive_path != NULL, NULL);

  g_autofree char *real = real_archive_path (archive_path, error);
  if (real == NULL)
    return NULL;
  struct stat st;
  int fd = open_archive (archive_path, real, &st, error);
  if (fd < 0)
    return NULL;
  /* What a killed rewrite (a bookmark save) left beside the archive. */
  ttv_atomic_file_clean_stale (real);

  g_autofree char *cache = ttv_archive_dup_cache_dir ();
  if (g_mkdir_with_parents (cache, 0700) != 0)
    {
      int errsv = errno;
      close (fd);
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE,
                   _("%s: cannot create the cache folder %s: %s"), archive_path, cache,
                   g_strerror (errsv));
      return NULL;
    }
  /* What extractions killed midway left goes at once, whatever its age. */
  ttv_archive_clean_dead ();
  maybe_clean_stale (cache);

  g_autofree char *key = cache_key (real);
  g_autofree char *entry_dir = g_build_filename (cache, key, NULL);
  g_autofree char *entry_root = g_build_filename (entry_dir, ROOT_NAME, NULL);
  g_autofree char *entry_stamp = g_build_filename (entry_dir, STAMP_NAME, NULL);
  g_autofree char *stamp = make_stamp (real, &st);

  if (stamp_matches (entry_dir, stamp))
    {
      close (fd);
      utimensat (AT_FDCWD, entry_stamp, NULL, 0);       /* "used now", for clean_stale */
      return find_top (entry_root);
    }

  /* Extract beside the cache entry, then rename it into place: a reader never
   * sees a half-extracted tree, and concurrent extractions do not mix. */
  g_autofree char *tmp = g_strdup_printf ("%s.tmp-XXXXXX", entry_dir);
  if (g_mkdtemp_full (tmp, 0700) == NULL)
    {
      int errsv = errno;
      close (fd);
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE,
                   _("%s: cannot create a folder in the cache %s: %s"), archive_path, cache,
                   g_strerror (errsv));
      return NULL;
    }
  /* Held until the tree is in place or removed: if this process dies,
   * the next extraction removes what it left. */
  int lock = lock_dir (tmp, TRUE);
  g_autofree char *tmp_root = g_build_filename (tmp, ROOT_NAME, NULL);
  g_autofree char *tmp_stamp = g_build_filename (tmp, STAMP_NAME, NULL);
  gboolean ok = g_mkdir (tmp_root, 0700) == 0;
  if (!ok)
    set_write_error (error, archive_path, ".", errno);
  gboolean by_free_space;
  guint64 cap = extraction_limit (cache, &by_free_space);
  Progress progress = { cancellable, progress_func, progress_data, 0, (guint64) st.st_size, 0, NULL };
  ok = ok && extract_to (archive_path, fd, NULL, (guint64) st.st_size, tmp_root, cap, by_free_space,
                         &progress, error);
  close (fd);
  if (ok && !g_file_set_contents (tmp_stamp, stamp, -1, NULL))
    {
      set_write_error (error, archive_path, STAMP_NAME, EIO);
      ok = FALSE;
    }
  if (!ok)
    {
      remove_tree (tmp);
      if (lock >= 0)
        close (lock);
      return NULL;
    }

  for (int attempt = 0;; attempt++)
    {
      if (rename (tmp, entry_dir) == 0)
        break;
      int errsv = errno;
      if ((errsv == EEXIST || errsv == ENOTEMPTY) && attempt < 5)
        {
          if (stamp_matches (entry_dir, stamp))
            {
              remove_tree (tmp);        /* another process extracted it meanwhile */
              break;
            }
          discard_dir (entry_dir);      /* stale: the archive changed */
          continue;
        }
      remove_tree (tmp);
      if (lock >= 0)
        close (lock);
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE,
                   _("%s: cannot move the extracted trace into the cache %s: %s"),
                   archive_path, cache, g_strerror (errsv));
      return NULL;
    }
  if (lock >= 0)
    close (lock);
  return find_top (entry_root);
}

/* --- Rewriting one member ------------------------------------------------- */

/* Reads past the data of the current member block by block (the next
 * header would skip it just as slowly), so that progress and cancellation
 * are seen inside a large member too. */
static gboolean
drain_data (struct archive *a, const char *archive_path, Progress *progress, GError **error)
{
  const void *buf;
  size_t size;
  la_int64_t offset;
  gboolean ok = TRUE;

  while (next_data_block (a, archive_path, progress, &buf, &size, &offset, &ok, error))
    ;
  return ok;
}

/* The prefix ("mytrace/", "./mytrace/" or "") that ttv_archive_extract strips
 * by returning the single top-level folder. */
static gboolean
scan_prefix (const char *archive_path, const char *real, Progress *progress, char **prefix_out,
             GError **error)
{
  struct stat st;
  int fd = open_archive (archive_path, real, &st, error);
  if (fd < 0)
    return FALSE;
  g_auto (Reader) r = { NULL, NULL };
  gboolean ok = reader_open (&r, fd, NULL, 0, archive_path, error);
  struct archive *a = r.a;
  progress->reader = &r;
  gboolean top_is_dir = FALSE, top_is_file = FALSE, several = FALSE;
  g_autofree char *top = NULL, *raw_prefix = NULL;
  struct archive_entry *e;
  while (ok && reader_next (a, archive_path, &e, &ok, error))
    {
      g_autoptr (GPtrArray) comps = NULL;
      const char *raw = archive_entry_pathname (e);
      if (!drain_data (a, archive_path, progress, error))
        {
          ok = FALSE;
          break;
        }
      if (!split_member (archive_path, raw, &comps, error))
        {
          ok = FALSE;
          break;
        }
      if (comps->len == 0)
        continue;
      const char *first = g_ptr_array_index (comps, 0);
      if (top == NULL)
        {
          /* The raw spelling up to and including the first component. */
          const char *p = raw;
          for (;;)
            {
              if (p[0] == '/')
                p++;
              else if (p[0] == '.' && p[1] == '/')
                p += 2;
              else
                break;
            }
          top = g_strdup (first);
          raw_prefix = g_strndup (raw, (gsize) (p - raw) + strlen (first));
        }
      else if (strcmp (top, first) != 0)
        several = TRUE;
      if (comps->len > 1 || (archive_entry_filetype (e) == AE_IFDIR
                             && archive_entry_hardlink (e) == NULL))
        top_is_dir = TRUE;
      else
        top_is_file = TRUE;
    }
  ok = ok && reader_finish (&r, archive_path, error);
  progress->reader = NULL;
  close (fd);
  if (!ok)
    return FALSE;
  if (top != NULL && !several && top_is_dir && !top_is_file)
    *prefix_out = g_strconcat (raw_prefix, "/", NULL);
  else
    *prefix_out = g_strdup ("");
  return TRUE;
}

static gboolean
same_member (const char *archive_path, const char *raw, GPtrArray *target)
{
  g_autoptr (GPtrArray) comps = NULL;
  if (!split_member (archive_path, raw, &comps, NULL) || comps->len != target->len)
    return FALSE;
  for (guint i = 0; i < comps->len; i++)
    if (strcmp (g_ptr_array_index (comps, i), g_ptr_array_index (target, i)) != 0)
      return FALSE;
  return TRUE;
}

static gboolean
set_write_failed (GError **error, const char *archive_path, struct archive *w)
{
  g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE,
               _("%s: cannot rewrite the archive: %s"), archive_path, archive_message (w));
  return FALSE;
}

static gboolean
write_member (struct archive *w, struct archive_entry *e, const char *contents, gsize length,
              const char *archive_path, GError **error)
{
  archive_entry_set_size (e, (la_int64_t) length);
  archive_entry_set_mtime (e, (time_t) (g_get_real_time () / G_USEC_PER_SEC), 0);
  if (archive_write_header (w, e) != ARCHIVE_OK)
    return set_write_failed (error, archive_path, w);
  gsize done = 0;
  while (done < length)
    {
      la_ssize_t n = archive_write_data (w, contents + done, length - done);
      if (n <= 0)
        return set_write_failed (error, archive_path, w);
      done += (gsize) n;
    }
  return TRUE;
}

/* Copies every member of the archive open on @in_fd into @w, with @target
 * replaced by (or, when absent, followed by) @contents. */
static gboolean
copy_replacing (const char *archive_path, int in_fd, int out_fd, const char *new_name,
                GPtrArray *target, const char *contents, gsize length, Progress *progress,
                GError **error)
{
  g_auto (Reader) reader = { NULL, NULL };
  struct archive *r = NULL;
  struct archive *w = NULL;
  gboolean replaced = FALSE;
  g_autofree char *buf = g_malloc (65536);

  gboolean ok = reader_open (&reader, in_fd, NULL, 0, archive_path, error);
  r = reader.a;
  progress->reader = &reader;
  struct archive_entry *e;
  while (ok && reader_next (r, archive_path, &e, &ok, error))
    {
      if (!progress_step (progress, error))
        {
          ok = FALSE;
          break;
        }
      if (w == NULL)
        {
          /* Same format and compression as the original: known only now. */
          w = archive_write_new ();
          int format = archive_format (r);
          if (format == ARCHIVE_FORMAT_TAR || format == ARCHIVE_FORMAT_TAR_USTAR)
            format = ARCHIVE_FORMAT_TAR_PAX_RESTRICTED;    /* ustar headers when they fit */
          if ((format & ARCHIVE_FORMAT_BASE_MASK) != ARCHIVE_FORMAT_TAR)
            format = ARCHIVE_FORMAT_TAR_PAX_RESTRICTED;
          if (archive_write_set_format (w, format) != ARCHIVE_OK)
            {
              ok = set_write_failed (error, archive_path, w);
              break;
            }
          for (int i = archive_filter_count (r) - 1; i >= 0 && ok; i--)
            {
              int code = archive_filter_code (r, i);
              if (code != ARCHIVE_FILTER_NONE && archive_write_add_filter (w, code) != ARCHIVE_OK)
                ok = set_write_failed (error, archive_path, w);
            }
          /* Gzip was inflated by ttv-gunzip.c, not by a filter of @r. */
          if (ok && reader.gunzip && archive_write_add_filter_gzip (w) != ARCHIVE_OK)
            ok = set_write_failed (error, archive_path, w);
          /* Level 3: about 8% larger than gzip's default 6 on trace data,
           * but 2.5 times faster, and this rewrite is what a bookmark
           * save waits for. */
          archive_write_set_filter_option (w, "gzip", "compression-level", "3");
          archive_write_set_bytes_in_last_block (w, 1);
          if (ok && archive_write_open_fd (w, out_fd) != ARCHIVE_OK)
            ok = set_write_failed (error, archive_path, w);
          if (!ok)
            break;
        }

      const char *raw = archive_entry_pathname (e);
      if (same_member (archive_path, raw, target))
        {
          if (replaced)
            continue;   /* a later duplicate would override ours when extracted */
          if (archive_entry_filetype (e) != AE_IFREG || archive_entry_hardlink (e) != NULL)
            {
              g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE,
                           _("%s: member “%s” is not a plain file; cannot replace it"),
                           archive_path, raw);
              ok = FALSE;
              break;
            }
          struct archive_entry *copy = archive_entry_clone (e);
          ok = write_member (w, copy, contents, length, archive_path, error);
          archive_entry_free (copy);
          replaced = TRUE;
          continue;
        }

      if (archive_write_header (w, e) != ARCHIVE_OK)
        {
          ok = set_write_failed (error, archive_path, w);
          break;
        }
      for (;;)
        {
          la_ssize_t n = archive_read_data (r, buf, 65536);
          if (n < 0)
            {
              ok = set_read_error (error, archive_path, r);
              break;
            }
          if (n == 0)
            break;
          if (!progress_step (progress, error))
            {
              ok = FALSE;
              break;
            }
          if (archive_write_data (w, buf, (size_t) n) != n)
            {
              ok = set_write_failed (error, archive_path, w);
              break;
            }
        }
    }
  if (ok && w == NULL)
    {
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_READ,
                   _("%s: the archive has no member"), archive_path);
      ok = FALSE;
    }
  if (ok && !replaced)
    {
      struct archive_entry *added = archive_entry_new ();
      archive_entry_set_pathname (added, new_name);
      archive_entry_set_filetype (added, AE_IFREG);
      archive_entry_set_perm (added, 0644);
      archive_entry_set_uid (added, getuid ());
      archive_entry_set_gid (added, getgid ());
      ok = write_member (w, added, contents, length, archive_path, error);
      archive_entry_free (added);
    }
  if (w != NULL)
    {
      if (archive_write_close (w) != ARCHIVE_OK && ok)
        ok = set_write_failed (error, archive_path, w);
      archive_write_free (w);
    }
  progress->reader = NULL;
  return ok;
}

/* Brings a valid cache up to date with the member just written, so that the
 * next open does not extract everything again; invalidates it on failure. */
static void
update_cache (const char *real, const char *old_stamp, GPtrArray *target, const char *contents,
              gsize length)
{
  g_autofree char *cache = ttv_archive_dup_cache_dir ();
  g_autofree char *key = cache_key (real);
  g_autofree char *entry_dir = g_build_filename (cache, key, NULL);
  g_autofree char *entry_root = g_build_filename (entry_dir, ROOT_NAME, NULL);
  g_autofree char *entry_stamp = g_build_filename (entry_dir, STAMP_NAME, NULL);
  if (!stamp_matches (entry_dir, old_stamp))
    return;     /* absent or stale: the next open extracts anyway */

  gboolean ok = FALSE;
  g_autofree char *top = find_top (entry_root);
  int top_fd = open (top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  int dir_fd = top_fd < 0 ? -1
               : open_dir_path (top_fd, target, target->len - 1, TRUE, real, "", NULL);
  if (dir_fd >= 0)
    {
      const char *leaf = g_ptr_array_index (target, target->len - 1);
      g_autofree char *tmp_leaf = g_strdup_printf (".%s.ttv-new-%08x", leaf, g_random_int ());
      int fd = openat (dir_fd, tmp_leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       0644);
      if (fd >= 0)
        {
          ok = write_all (fd, contents, length, 0);
          ok = close (fd) == 0 && ok;
          ok = ok && renameat (dir_fd, tmp_leaf, dir_fd, leaf) == 0;
          if (!ok)
            unlinkat (dir_fd, tmp_leaf, 0);
        }
    }
  struct stat st;
  if (ok && stat (real, &st) == 0)
    {
      g_autofree char *stamp = make_stamp (real, &st);
      ok = g_file_set_contents (entry_stamp, stamp, -1, NULL);
    }
  else
    ok = FALSE;
  if (!ok)
    g_unlink (entry_stamp);
  if (dir_fd >= 0)
    close (dir_fd);
  if (top_fd >= 0)
    close (top_fd);
}

gboolean
ttv_archive_replace_member (const char *archive_path, const char *member_path,
                            const char *contents, gsize length, GError **error)
{
  return ttv_archive_replace_member_full (archive_path, member_path, contents, length, NULL,
                                          NULL, NULL, error);
}

gboolean
ttv_archive_replace_member_full (const char *archive_path, const char *member_path,
                                 const char *contents, gsize length, GCancellable *cancellable,
                                 TtvArchiveProgressFunc progress_func, gpointer progress_data,
                                 GError **error)
{
  g_return_val_if_fail (archive_path != NULL && member_path != NULL, FALSE);
  g_return_val_if_fail (contents != NULL || length == 0, FALSE);

  g_autoptr (GPtrArray) member = NULL;
  if (!split_member (archive_path, member_path, &member, NULL) || member->len == 0)
    {
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   _("“%s” is not a relative member path"), member_path);
      return FALSE;
    }
  g_autofree char *real = real_archive_path (archive_path, error);
  if (real == NULL)
    return FALSE;
  struct stat st;
  if (stat (real, &st) != 0)
    st.st_size = 0;
  /* Two readings: the scan for the prefix, then the copy. */
  Progress progress = { cancellable, progress_func, progress_data, 0, 2 * (guint64) st.st_size, 0, NULL };
  g_autofree char *prefix = NULL;
  if (!scan_prefix (archive_path, real, &progress, &prefix, error))
    return FALSE;
  g_autoptr (GPtrArray) target = NULL;
  g_autofree char *new_name = g_strconcat (prefix, member_path, NULL);
  if (!split_member (archive_path, new_name, &target, error))
    return FALSE;

  int in_fd = open_archive (archive_path, real, &st, error);
  if (in_fd < 0)
    return FALSE;
  progress.base = progress.total / 2;
  g_autofree char *old_stamp = make_stamp (real, &st);

  /* Written beside the archive, locked while written (a killed rewrite's
   * copy is removed by the next one), fsync'ed, renamed over it. */
  g_autoptr (GError) local = NULL;
  TtvAtomicFile *out = ttv_atomic_file_begin (real, &local);
  if (out == NULL)
    {
      close (in_fd);
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE,
                   _("%s: cannot write beside the archive: %s"), archive_path, local->message);
      return FALSE;
    }
  int out_fd = ttv_atomic_file_get_fd (out);
  gboolean ok = copy_replacing (archive_path, in_fd, out_fd, new_name, target, contents, length,
                                &progress, error);
  close (in_fd);
  if (!ok)
    {
      ttv_atomic_file_abort (out);
      return FALSE;
    }
  if (geteuid () == 0 && fchown (out_fd, st.st_uid, st.st_gid) != 0)
    { /* best effort */ }
  if (!ttv_atomic_file_commit (out, (int) (st.st_mode & 0777), &local))
    {
      g_set_error (error, TTV_ARCHIVE_ERROR, TTV_ARCHIVE_ERROR_WRITE,
                   _("%s: cannot write the new archive: %s"), archive_path, local->message);
      return FALSE;
    }

  /* The member relative to the extracted trace folder, as the cache holds it. */
  update_cache (real, old_stamp, member, contents, length);
  return TRUE;
}

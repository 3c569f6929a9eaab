/* ttv-archive.h: traces given as .tar.gz, .tgz or .tar archives.
 * Safe extraction into a reused per-archive cache in the user's cache
 * directory, and atomic rewriting of one member (bookmarks). */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* By file name (.tar.gz, .tgz, .tar) and, for an existing file, magic bytes. */
gboolean ttv_archive_is_archive (const char *path);

/* Extracts @archive_path (once; later calls reuse the cache while the
 * archive's size and mtime are unchanged) and returns the directory holding
 * the trace: the archive's single top-level folder when there is one, else
 * the extraction root.  Refuses absolute paths, "..", links that lead
 * outside, device files and FIFOs; members whose sizes add up past the cap
 * (ttv_archive_set_size_cap, else nine tenths of the cache's free space)
 * or past 200 times the archive's size (a decompression bomb), before
 * writing them; damaged gzip data (a CRC-32 or length that does not match,
 * data cut short), naming what is wrong.  Names from the archive are
 * escaped in messages. */
char    *ttv_archive_extract (const char *archive_path, GError **error);

/* Called from the thread doing the work, at most every few milliseconds,
 * with the bytes of the archive file read so far and its size (a rewrite
 * reads the archive twice: @done counts both readings, @total twice the size). */
typedef void (*TtvArchiveProgressFunc) (guint64 done, guint64 total, gpointer user_data);

/* ttv_archive_extract, stopped with G_IO_ERROR_CANCELLED (nothing left in
 * the cache) when @cancellable is cancelled; @progress may be NULL. */
char    *ttv_archive_extract_full (const char *archive_path, GCancellable *cancellable,
                                   TtvArchiveProgressFunc progress, gpointer progress_data,
                                   GError **error);

/* Cap on the total extracted size (default: $TTV_ARCHIVE_MAX_BYTES, else
 * nine tenths of the free space of the cache folder; 0: the default). */
void     ttv_archive_set_size_cap (guint64 max_bytes);
/* Cap on the number of members (default: 1,000,000). */
void     ttv_archive_set_entry_cap (guint64 max_entries);
/* Where the caches live (default: g_get_user_cache_dir()/ttv/archives). */
char    *ttv_archive_dup_cache_dir (void);
/* Removes caches not used for @max_age_days (called once a day by
 * extractions, with 30), and what ttv_archive_clean_dead removes. */
void     ttv_archive_clean_stale (guint max_age_days);
/* Removes what extractions and cache removals killed midway left (their
 * lock is free), whatever its age: called at each extraction, and by the
 * programs when they start. */
void     ttv_archive_clean_dead (void);

/* Extracts the archive held in memory (@length bytes at @data; @name for
 * messages) into the existing, empty folder @dir, with every check of
 * ttv_archive_extract but no cache (the fuzz target). */
gboolean ttv_archive_extract_bytes (const guint8 *data, gsize length, const char *name, const char *dir,
                                    GError **error);

/* Rewrites @archive_path with member @member_path (relative to the trace
 * directory returned by ttv_archive_extract) replaced by, or added with,
 * @contents.  Every other member is copied unchanged.  Written to a
 * temporary file beside the archive, fsync'ed and renamed over it: the
 * original is kept intact if anything fails. */
gboolean ttv_archive_replace_member (const char *archive_path, const char *member_path,
                                     const char *contents, gsize length, GError **error);
/* The same, stopped with G_IO_ERROR_CANCELLED when @cancellable is
 * cancelled (the original is then untouched and no temporary file is left);
 * @progress may be NULL. */
gboolean ttv_archive_replace_member_full (const char *archive_path, const char *member_path,
                                          const char *contents, gsize length,
                                          GCancellable *cancellable,
                                          TtvArchiveProgressFunc progress, gpointer progress_data,
                                          GError **error);

G_END_DECLS

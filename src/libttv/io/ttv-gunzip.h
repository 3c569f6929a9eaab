/* ttv-gunzip.h: gzip data inflated with zlib for libarchive (as its read
 * callback), so that a damaged archive says what is wrong: a CRC-32 or a
 * length that does not match (libarchive's own gzip reader does not check
 * them), or data that ends before the gzip stream does.  Used by the
 * archive reader for .tar.gz and .tgz. */
#pragma once

#include <archive.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _TtvGunzip TtvGunzip;

/* Whether @head (@len bytes of the start of a file) starts gzip data. */
gboolean   ttv_gunzip_is_gzip (const guint8 *head, gsize len);

/* Inflates what is read from @fd (from its current offset; not closed) or
 * the @len bytes at @data (not copied: they must outlive the reader). */
TtvGunzip *ttv_gunzip_new_fd (int fd);
TtvGunzip *ttv_gunzip_new_memory (const guint8 *data, gsize len);
void       ttv_gunzip_free (TtvGunzip *gz);

/* Starts @a reading the inflated data (archive_read_open with @gz as the
 * client data); @a must have no gzip filter of its own.  ARCHIVE_OK or
 * libarchive's error. */
int        ttv_gunzip_open_archive (TtvGunzip *gz, struct archive *a);

/* Reads the rest of the gzip data after the end of the tar archive (tar
 * readers stop at its end marker, before the gzip trailer): FALSE with the
 * error set on @a when it is damaged. */
gboolean   ttv_gunzip_read_to_end (TtvGunzip *gz, struct archive *a);

/* Bytes of gzip data read so far (for progress and compression ratios). */
guint64    ttv_gunzip_get_compressed_bytes (const TtvGunzip *gz);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvGunzip, ttv_gunzip_free)

G_END_DECLS

/* ttv-live-spool.h: the local copy of a live session, a session directory
 * that the trace readers open like any other (TRACE_DIR/metadata,
 * TRACE_DIR/CHANNEL), written as the relay sends it, kept on disk so that
 * memory stays bounded, and removed when the session is closed.  Used by
 * the live source (ttv-live-source.c).  docs/live.md. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TtvLiveSpool TtvLiveSpool;

/* A new, empty spool under the user's cache directory (ttv/live/PID-XXXXXX);
 * spools left by ttv processes that no longer run are removed first. */
TtvLiveSpool *ttv_live_spool_new (GError **error);
/* Closes its files and removes the spool from the disk. */
void          ttv_live_spool_free (TtvLiveSpool *spool);
const char   *ttv_live_spool_get_path (const TtvLiveSpool *spool);

/* Whether @dir (a trace directory, relative: "ust/uid/1000/64-bit") and
 * @name (a file in it) are safe to create below the spool: relative, no
 * "." or ".." component, no hidden name, no separator in @name.  FALSE with
 * TTV_LIVE_ERROR_PROTOCOL naming them otherwise. */
gboolean      ttv_live_spool_check_name (const char *dir, const char *name, GError **error);
/* Appends @len bytes to @dir/@name (created with its directory on first
 * use); the spool keeps the file open.  TTV_LIVE_ERROR_SPOOL on failure,
 * the file then being cut back to its previous size. */
gboolean      ttv_live_spool_append (TtvLiveSpool *spool, const char *dir, const char *name, const guint8 *data,
                                     gsize len, GError **error);
/* Closes @dir/@name (it will receive no more data). */
void          ttv_live_spool_close_file (TtvLiveSpool *spool, const char *dir, const char *name);
/* Bytes written to the spool so far. */
guint64       ttv_live_spool_get_size (const TtvLiveSpool *spool);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvLiveSpool, ttv_live_spool_free)

G_END_DECLS

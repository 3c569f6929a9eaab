/* ttv-session.h: LTTng session directories (session/kernel/, session/ust/uid/
 * 1000/64-bit/...) opened as one traceset; called by ttv_traceset_add_path. */
#pragma once

#include "ttv-traceset.h"

G_BEGIN_DECLS

/* How deep below a session directory traces are looked for: ust/uid/UID/
 * 64-bit is 4 levels, a rotated session's
 * archives/CHUNK/ust/uid/UID/64-bit 6, with room to spare. */
#define TTV_SESSION_MAX_DEPTH 8

/* TRUE when some trace reader recognises @dir itself. */
gboolean   ttv_session_is_trace_dir (const char *dir);

/* The trace directories below @dir (not @dir itself), at most @max_depth
 * levels down, as paths relative to @dir sorted by name ("kernel",
 * "ust/uid/1000/64-bit"); dot-files and symbolic links are skipped, and a
 * trace directory is not searched further.  Empty when there is none. */
GPtrArray *ttv_session_find_traces (const char *dir, guint max_depth);

/* Opens every trace below the session directory @dir and adds them to @ts,
 * all or none.  Directories that hold the same trace (same format and
 * identity: a rotated session's chunks, successive snapshots) open as one
 * trace.  @display_root names @dir for users (the archive path for an
 * extracted archive); the traces are named by their relative paths (the
 * part their directories share, for a trace of several).
 * FALSE with TTV_FORMAT_ERROR_UNKNOWN_FORMAT when @dir holds no trace, or
 * the error of the first trace that fails to open. */
gboolean   ttv_session_add_traces (TtvTraceset *ts, const char *dir, const char *display_root,
                                   GError **error);

G_END_DECLS

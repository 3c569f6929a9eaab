/* ttv-position.h: a saved place in a traceset, with event granularity
 * (seed 003 "position save"), and its text token for the CLI and bookmarks. */
#pragma once

#include "ttv-traceset.h"

G_BEGIN_DECLS

/* A position denotes the next event to be delivered: it holds each
 * tracefile's position (or "at end"), the time and stream of that next
 * event, and the shape of the traceset it was taken in.  Immutable once made. */
typedef struct _TtvPosition TtvPosition;

TtvPosition *ttv_position_copy (const TtvPosition *pos);
void        ttv_position_free (TtvPosition *pos);
guint       ttv_position_get_n_tracefiles (const TtvPosition *pos);
/* FALSE when tracefile @stream is at its end (then @out is untouched). */
gboolean    ttv_position_get_tracefile (const TtvPosition *pos, guint stream,
                                        TtvTracefilePosition *out);
/* TRUE at the end of the traceset (every tracefile at its end). */
gboolean    ttv_position_is_end (const TtvPosition *pos);
/* The next event's time and stream (tracefile index in the traceset);
 * TTV_TIME_MAX and the tracefile count at the end. */
TtvTime     ttv_position_get_time (const TtvPosition *pos);
guint       ttv_position_get_stream (const TtvPosition *pos);
/* Order of the events the positions denote, i.e. of delivery: by the next
 * event's (time, stream), then by that tracefile's (block, offset, index),
 * then the other tracefiles' positions in stream order; the end comes last.
 * Both must come from the same traceset (same shape). */
int         ttv_position_compare (const TtvPosition *a, const TtvPosition *b);
gboolean    ttv_position_equal (const TtvPosition *a, const TtvPosition *b);
/* A short text token (lowercase Crockford base32 of the varint-encoded
 * positions, the traceset's shape hash and a checksum). */
char       *ttv_position_to_string (const TtvPosition *pos);
/* The same token appended to @out, without allocating (a report writes one
 * per event). */
void        ttv_position_append_token (const TtvPosition *pos, GString *out);
/* Parses a token made by ttv_position_to_string() for this traceset;
 * TTV_ENGINE_ERROR_BAD_POSITION when it is garbled or was saved for a
 * different traceset. */
TtvPosition *ttv_position_parse (const char *token, const TtvTraceset *ts, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvPosition, ttv_position_free)

G_END_DECLS

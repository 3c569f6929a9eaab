/* ttv-format-file.h: trcrpt-like report format files (ttv-report -t, -c):
 * per event type a template naming the fields to print with their labels,
 * conditional text on a field's value, a default; timer rules.  Syntax in
 * docs/ttv-report.1 (FORMAT FILES); data/formats/kernel.ttvfmt is shipped. */
#pragma once

#include "ttv-state.h"
#include "ttv-timer.h"

G_BEGIN_DECLS

typedef struct _TtvFormatFile TtvFormatFile;

/* Parses a format file; errors are TTV_FILTER_ERROR "FILE:LINE:COLUMN: ...". */
TtvFormatFile *ttv_format_file_load (const char *path, GError **error);
TtvFormatFile *ttv_format_file_parse (const char *data, const char *origin, GError **error);
void           ttv_format_file_free (TtvFormatFile *ff);
guint          ttv_format_file_get_n_templates (const TtvFormatFile *ff);
gboolean       ttv_format_file_has_default (const TtvFormatFile *ff);
/* Adds the file's "timer START END" lines to @timers. */
void           ttv_format_file_add_timers (const TtvFormatFile *ff, TtvTimerSet *timers);
/* Appends @event's description by its template (or the default one).
 * @decoder holds the event's decoded fields at node @root (-1 when they
 * could not be decoded); @state is the state at the event (may be NULL).
 * Returns FALSE, appending nothing, when no template applies. */
gboolean       ttv_format_file_append (TtvFormatFile *ff, const TtvEvent *event,
                                       const TtvDecoder *decoder, gint32 root,
                                       const TtvState *state, GString *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvFormatFile, ttv_format_file_free)

G_END_DECLS

/* ttv-tab-reader.h: merged, seekable reading of a tab's traceset for the
 * request servicing of TtvTabState (time order, ties by stream index). */
#pragma once

#include "ttv-traceset.h"
#include "ttv-viewer.h"

G_BEGIN_DECLS

typedef struct _TtvTabReader TtvTabReader;

TtvTabReader *ttv_tab_reader_new (TtvTraceset *traceset, GError **error);
void        ttv_tab_reader_free (TtvTabReader *reader);
/* The next event is then the first at or after @time. */
gboolean    ttv_tab_reader_seek_time (TtvTabReader *reader, TtvTime time, GError **error);
/* NULL: the traceset's start. */
gboolean    ttv_tab_reader_seek_position (TtvTabReader *reader, const TtvViewerPosition *pos,
                                          GError **error);
/* TRUE with *event (valid until the next call); FALSE at the end (error
 * unset) or on a read error. */
gboolean    ttv_tab_reader_next (TtvTabReader *reader, const TtvEvent **event, GError **error);
/* The position of the event the last next() returned (seeking to it makes
 * it the next event again). */
TtvViewerPosition *ttv_tab_reader_dup_event_position (TtvTabReader *reader);
/* The position of the event the next next() will return (NULL at the end). */
TtvViewerPosition *ttv_tab_reader_dup_next_position (TtvTabReader *reader);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvTabReader, ttv_tab_reader_free)

G_END_DECLS

/* ttv-event-reader.h: merged, seekable reading of a traceset that knows the
 * position of the event it delivered (time order, ties by stream index);
 * the viewer serves its modules' event requests with it. */
#pragma once

#include "ttv-context.h"

G_BEGIN_DECLS

typedef struct _TtvEventReader TtvEventReader;

TtvEventReader *ttv_event_reader_new (TtvTraceset *traceset, GError **error);
void        ttv_event_reader_free (TtvEventReader *reader);
/* The next event is then the first at or after @time. */
gboolean    ttv_event_reader_seek_time (TtvEventReader *reader, TtvTime time, GError **error);
/* NULL: the traceset's start. */
gboolean    ttv_event_reader_seek_position (TtvEventReader *reader, const TtvPosition *pos,
                                          GError **error);
/* TRUE with *event (valid until the next call); FALSE at the end (error
 * unset) or on a read error. */
gboolean    ttv_event_reader_next (TtvEventReader *reader, const TtvEvent **event, GError **error);
/* The position of the event the last next() returned (seeking to it makes
 * it the next event again). */
TtvPosition *ttv_event_reader_dup_event_position (TtvEventReader *reader);
/* The position of the event the next next() will return (NULL at the end). */
TtvPosition *ttv_event_reader_dup_next_position (TtvEventReader *reader);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvEventReader, ttv_event_reader_free)

G_END_DECLS

/* ttv-traceset-private.h: the traceset's insides, shared by ttv-traceset.c
 * and the live sessions (ttv-traceset-live.c). */
#pragma once

#include "ttv-traceset.h"

G_BEGIN_DECLS

typedef struct _TtvTracesetLive TtvTracesetLive;

struct _TtvTraceset {
  gint ref_count;
  GPtrArray *traces;            /* of TtvTrace *, owned */
  GPtrArray *streams;           /* of TtvTracefile *, weak: all tracefiles in order */
  GArray *stream_trace;         /* of guint: trace index of each stream */
  GArray *first_stream;         /* of guint: per trace */
  TtvTime start;
  TtvTime end;
  TtvTracesetLive *live;        /* owned, NULL unless following a live session */
};

/* Rebuilds the stream numbering and the span after traces changed. */
void     ttv_traceset_renumber (TtvTraceset *ts);
/* ttv_trace_refresh on every trace; *changed is or-ed with theirs. */
gboolean ttv_traceset_refresh_traces (TtvTraceset *ts, gboolean *changed, GError **error);

/* ttv-traceset-live.c */
gboolean ttv_traceset_live_refresh (TtvTraceset *ts, gboolean *changed, GError **error);
void     ttv_traceset_live_free (TtvTracesetLive *live);

G_END_DECLS

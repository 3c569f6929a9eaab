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
  GArray *trace_machine;        /* of guint: the machine of each trace */
  GPtrArray *machine_names;     /* of char *, owned: each machine's name */
  guint n_machines;
};

/* ttv-traceset-machine.c: numbers the machines again after traces changed. */
void     ttv_traceset_number_machines (TtvTraceset *ts);

/* Rebuilds the stream numbering and the span after traces changed. */
void     ttv_traceset_renumber (TtvTraceset *ts);
/* ttv_trace_refresh on every trace; *changed is or-ed with theirs. */
gboolean ttv_traceset_refresh_traces (TtvTraceset *ts, gboolean *changed, GError **error);

/* ttv-traceset-live.c */
gboolean ttv_traceset_live_refresh (TtvTraceset *ts, gboolean *changed, GError **error);
void     ttv_traceset_live_free (TtvTracesetLive *live);

G_END_DECLS

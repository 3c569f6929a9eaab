/* ttv-position-private.h: the layout of TtvPosition, shared by the
 * position code (ttv-position.c) and the context that makes and restores them. */
#pragma once

#include "ttv-position.h"

G_BEGIN_DECLS

typedef struct {
  TtvTracefilePosition pos;
  gboolean at_end;
} TtvPositionEntry;

struct _TtvPosition {
  guint32 shape;                /* ttv_traceset_get_shape_hash () */
  guint n;                      /* tracefiles in the traceset */
  guint next;                   /* stream of the next event; n at the end */
  TtvTime next_time;            /* its time; TTV_TIME_MAX at the end */
  TtvPositionEntry tf[];        /* [n] */
};

TtvPosition *ttv_position_alloc (guint n);

G_END_DECLS

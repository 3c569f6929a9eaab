/* ttv-event-owner.h: what an event itself says of the process that
 * emitted it.  LTTng userspace traces carry vpid, vtid and procname
 * contexts where no kernel state knows the running process; filters
 * (state.pid, state.tid, state.process_name) and ttv-report's columns fall
 * back to them. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

typedef struct {
  gint64 pid;          /* vpid, -1 when absent */
  gint64 tid;          /* vtid, -1 when absent */
  char name[64];       /* procname, "" when absent (LTTng's is 16 bytes) */
  gboolean has_ip;     /* the ip context: the address the event was emitted from */
  guint64 ip;
} TtvEventOwner;

/* Fills @out from the contexts of @event (CTF), decoding into @decoder
 * (reset here); FALSE when the event has none of them. */
gboolean ttv_event_owner_from_context (const TtvEvent *event, TtvDecoder *decoder, TtvEventOwner *out);
/* The same from context scopes already decoded into @decoder
 * (ttv_event_decode_contexts); FALSE when they hold none of them. */
gboolean ttv_event_owner_from_scopes (const TtvDecoder *decoder, const gint32 scopes[TTV_EVENT_N_CONTEXTS],
                                      TtvEventOwner *out);

G_END_DECLS

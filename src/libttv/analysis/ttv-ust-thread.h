/* ttv-ust-thread.h: which thread and process an LTTng-UST event belongs
 * to: the kernel's task running on its CPU when a kernel trace of the same
 * machine says so (through the state), else its vtid and vpid contexts,
 * else its process (vpid) or its trace alone.  The call stack and memory
 * analyses key their threads and processes by it. */
#pragma once

#include "ttv-state.h"
#include "ttv-ust-model.h"

G_BEGIN_DECLS

typedef struct {
  guint32 trace;                /* the event's trace */
  guint32 tid;                  /* TTV_PID_NONE: unknown (no vtid, no kernel state) */
  gint64 vpid;                  /* the vpid context (-1: none), for symbols */
  guint32 pid;                  /* the process: tgid or vpid, TTV_PID_NONE: unknown */
  const char *name;             /* the thread's name (borrowed, "" when unknown) */
} TtvUstThread;

/* @state may be NULL (no kernel state asked). */
void ttv_ust_thread_of (const TtvState *state, const TtvUstEvent *event, TtvUstThread *out);

G_END_DECLS

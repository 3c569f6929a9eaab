/* ttv-ltt.h: the LTT trace format of seed 000 (see docs/ltt-format.md).
 * The reader is a TtvFormatClass; the writer is used by ttv-gen and tests. */
#pragma once

#include "ttv-trace.h"
#include "formats/ltt/ttv-ltt-writer.h"

G_BEGIN_DECLS

extern const TtvFormatClass ttv_ltt_format_class;

/* One `process` event of control/processes (fields of seed 000; a field the
 * trace's event lacks reads 0 / NULL). */
typedef struct {
  TtvTime time;
  char *name;                   /* owned, may be NULL */
  guint32 pid, ppid, tracer_pid;
  guint32 uid, euid, suid, fsuid;
  guint32 gid, egid, sgid, fsgid;
  guint32 state;                /* raw enum value */
  const char *state_name;       /* weak (event type's enum label), may be NULL */
} TtvLttProcess;

/* One `interrupt` event of control/interrupts. */
typedef struct {
  TtvTime time;
  guint32 number;
  guint32 count;
  char *controller;             /* owned, may be NULL */
  char *name;                   /* owned, may be NULL */
} TtvLttInterrupt;

/* Of TtvLttProcess / TtvLttInterrupt, in file order; NULL when @trace is not
 * an LTT trace.  Borrowed: valid while the trace is open. */
const GArray *ttv_ltt_get_processes (const TtvTrace *trace);
const GArray *ttv_ltt_get_interrupts (const TtvTrace *trace);

G_END_DECLS

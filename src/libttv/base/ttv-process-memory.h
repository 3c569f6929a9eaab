/* ttv-process-memory.h: this process's memory as the kernel counts it
 * (/proc/self/status), for the benchmarks' figures and the memory tests. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The value of a "Field:   N kB" line of /proc/self/status ("VmRSS:",
 * "VmHWM:", "RssAnon:", "RssFile:"), in KiB; -1 when unknown. */
gint64      ttv_process_status_kib (const char *field);

G_END_DECLS

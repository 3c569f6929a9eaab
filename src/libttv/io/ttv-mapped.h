/* ttv-mapped.h: helpers for trace files mapped in memory.  Readers map whole
 * tracefiles; what they have read through is given back with this. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Drops the whole pages inside [@data, @data + @length) of a read-only file
 * mapping from this process: they stay in the page cache and come back on
 * the next access, but no longer count in the process's memory, so that
 * reading a 10 GB trace once does not leave 10 GB resident. */
void ttv_mapped_release (const guint8 *data, gsize length);

G_END_DECLS

/* ttv-trace-damage.h: reading on past damaged data.  A trace that skips
 * damage delivers, when a block or packet turns out damaged, the events
 * of the next one instead of failing, and records what it skipped: the
 * viewer's background passes read the rest of a damaged trace (and say
 * where the damage is) instead of stopping at the first bad byte. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

/* Off by default (readers fail at damaged data, as ttv-report wants).
 * Set before any cursor of the trace is made. */
void        ttv_trace_set_skip_damage (TtvTrace *trace, gboolean skip);
gboolean    ttv_trace_get_skip_damage (const TtvTrace *trace);
/* What was skipped so far, by any thread, in the order found: the
 * reader's messages (file, byte offset, block, what is wrong), each
 * once.  Of char *, transfer full. */
GPtrArray  *ttv_trace_dup_damage (const TtvTrace *trace);
guint       ttv_trace_get_n_damage (const TtvTrace *trace);

/* Whether some events of @trace are lost to damage: found while opening
 * (damage_warnings; those about a partly written last block or packet
 * only when @live is FALSE, since a trace still being written has one) or
 * skipped while reading.  What ttv-report's exit status and the viewer's
 * damage mark say. */
gboolean    ttv_trace_is_damaged (const TtvTrace *trace, gboolean live);

/* The recovering forms of ttv_cursor_next / ttv_cursor_seek_time for a
 * trace that skips damage (the plain ones call them then).  Damage
 * (TTV_FORMAT_ERROR_CORRUPT) is recorded and the cursor moves to the next
 * block (TtvFormatClass.cursor_skip_block) or, for readers that cannot, to
 * the end of the tracefile. */
gboolean    ttv_cursor_next_skipping_damage (TtvCursor *cursor, TtvEvent *event, GError **error);
gboolean    ttv_cursor_seek_time_skipping_damage (TtvCursor *cursor, TtvTime time, GError **error);

/* For ttv_trace_close. */
void        ttv_trace_damage_free (TtvTraceDamage *damage);

G_END_DECLS

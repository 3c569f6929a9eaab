/* ttv-ctf.h: the CTF 1.8 reader (LTTng 2.x traces), see docs/ctf.md.
 * The reader is a TtvFormatClass; the extra calls serve babeltrace-style output. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

extern const TtvFormatClass ttv_ctf_format_class;

/* Decodes the contexts of a CTF event into @decoder (after a reset): the
 * stream event context, the event context and the packet context.  Each
 * out node is a struct, or -1 when the trace has no such scope.  The
 * payload is decoded too (scope "event.fields"); its node is the return
 * value (as ttv_event_decode_fields), -1 with @error on failure. */
gint32 ttv_ctf_event_decode_contexts (const TtvEvent *event, TtvDecoder *decoder,
                                      gint32 *stream_ctx, gint32 *event_ctx, gint32 *packet_ctx,
                                      GError **error);

/* Whether events of @type (a type of a CTF trace) carry a context member
 * @name: in the stream event context, the event context or the packet
 * context (filters' event.context.NAME). */
gboolean ttv_ctf_event_type_has_context (const TtvTrace *trace, const TtvEventType *type, const char *name);

/* TRUE when @trace was opened by the CTF reader. */
gboolean ttv_ctf_trace_is_ctf (const TtvTrace *trace);

G_END_DECLS

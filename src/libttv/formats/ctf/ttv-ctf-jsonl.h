/* ttv-ctf-jsonl.h: the fields and contexts of a CTF event as ttv-report's
 * jsonl line writes them, straight from the event's bytes. */
#pragma once

#include "ttv-trace.h"

G_BEGIN_DECLS

/* The CTF format's append_jsonl_scopes (see ttv_event_append_jsonl_scopes). */
gboolean ttv_ctf_append_jsonl_scopes (GString *out, const TtvEvent *event, TtvDecoder *decoder);

G_END_DECLS

/* ttv-ctf-scope-memo.h: the text of a context kept with its bytes.
 *
 * A context mostly holds the same bytes event after event (a thread's
 * vpid, vtid and procname in LTTng-UST): a writer of lines (the babeltrace
 * text, ttv-ctf-text.c; the jsonl line, ttv-ctf-jsonl.c) then copies the
 * text it wrote for the event before, without the loads, digits and
 * escapes.  Each writer keeps its memos thread-local (lines are written
 * from several threads), one per context.  A memo is keyed by the scope's
 * type (the text depends on nothing else than the type and the bytes) and
 * by a generation counted up whenever a writer's plan is freed: a type
 * goes with its trace, and another may then get its address. */
#pragma once

#include <glib.h>
#include <string.h>

#include "ttv-type.h"

G_BEGIN_DECLS

#define TTV_CTF_SCOPE_MEMO_BYTES 32
#define TTV_CTF_SCOPE_MEMO_TEXT 256
#define TTV_CTF_SCOPE_MEMOS 3   /* the packet, stream event and event contexts */

typedef struct {
  const TtvType *type;          /* NULL: nothing kept */
  gint generation;
  guint8 bytes[TTV_CTF_SCOPE_MEMO_BYTES];
  gsize text_len;
  char text[TTV_CTF_SCOPE_MEMO_TEXT];
} TtvCtfScopeMemo;

/* The count of plans freed so far (any writer's). */
gint ttv_ctf_scope_memo_generation (void);

/* Called when a writer frees a plan: every memo kept so far is stale. */
void ttv_ctf_scope_memo_plans_freed (void);

/* Whether @memo holds the text of a scope of @type whose @n_bytes bytes
 * (at most TTV_CTF_SCOPE_MEMO_BYTES) are @bytes, in @generation. */
static inline gboolean
ttv_ctf_scope_memo_holds (const TtvCtfScopeMemo *memo, const TtvType *type, gint generation, const guint8 *bytes,
                          gsize n_bytes)
{
  return memo->type == type && memo->generation == generation && memcmp (memo->bytes, bytes, n_bytes) == 0;
}

/* Keeps @text (@text_len bytes) as the text of a scope of @type whose
 * bytes are @bytes; a text longer than TTV_CTF_SCOPE_MEMO_TEXT is not kept
 * (the memo is emptied). */
void ttv_ctf_scope_memo_keep (TtvCtfScopeMemo *memo, const TtvType *type, gint generation, const guint8 *bytes,
                              gsize n_bytes, const char *text, gsize text_len);

G_END_DECLS

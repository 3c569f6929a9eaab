/* ttv-position-token.h: writing position tokens one after the other, as a
 * report does for every event, faster than ttv_position_append_token(). */
#pragma once

#include "ttv-position.h"

G_BEGIN_DECLS

/* Writes the same text as ttv_position_append_token().  The context's
 * peeked position brings its token's bytes, kept as it moves; of other
 * positions the writer keeps the last token's bytes and rewrites only what
 * the next position changes (between consecutive events usually the time
 * and one tracefile).  It compares the positions' values, so any position
 * of any traceset may come next.  One thread at a time.  Where the CPU
 * has AVX2 it writes digits and checksums by it (set_wide() says whether
 * it may: FALSE keeps to the general path, which tests check too). */
typedef struct _TtvPositionTokenWriter TtvPositionTokenWriter;

TtvPositionTokenWriter *ttv_position_token_writer_new (void);
void                    ttv_position_token_writer_free (TtvPositionTokenWriter *writer);
void                    ttv_position_token_writer_append (TtvPositionTokenWriter *writer,
                                                          const TtvPosition *pos, GString *out);

void                    ttv_position_token_writer_set_wide (TtvPositionTokenWriter *writer, gboolean wide);

/* Deferred tokens (@defer TRUE): append() then leaves a token's place in
 * @out and writes its digits later, sixteen tokens at once (their
 * checksums' chains of multiplications then run side by side).  The
 * caller must call finish() before it reads, writes out, cuts or frees
 * any text the writer appended to since the last finish().
 * set_deferred (FALSE) finishes. */
void ttv_position_token_writer_set_deferred (TtvPositionTokenWriter *writer, gboolean defer);
/* Writes the digits of every deferred token into its place. */
void ttv_position_token_writer_finish (TtvPositionTokenWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvPositionTokenWriter, ttv_position_token_writer_free)

G_END_DECLS

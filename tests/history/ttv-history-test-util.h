/* ttv-history-test-util.h: what the state history tests share: a simulated
 * trace in a temporary directory, building a history, comparing two. */
#pragma once

#include "ttv-test-util.h"
#include "ttv-history-private.h"
#include "ttv-traceset.h"

G_BEGIN_DECLS

typedef struct {
  const char *dir;          /* the test's temporary directory (ttv_test_get_tmp_dir) */
  char *trace_dir;          /* owned: dir/trace */
  TtvTraceset *ts;          /* owned: trace_dir, opened */
} TtvHistoryFixture;

/* Writes the simulation @so describes as an LTT trace (blocks of 16 KiB,
 * CPU slots up to its largest CPU id) in the test's temporary directory
 * and opens it.  Fails the test on error. */
void             ttv_history_fixture_set_up (TtvHistoryFixture *f, const TtvSimOptions *so);
/* Frees @f; @data is unused (for g_test_add). */
void             ttv_history_fixture_tear_down (TtvHistoryFixture *f, gconstpointer data);

/* A new traceset of the trace at @path; fails the test on error. */
TtvTraceset     *ttv_history_test_open (const char *path);
/* The history of @ts built with these options; fails the test on error. */
TtvHistory *ttv_history_test_build (TtvTraceset *ts, gsize max_memory, gboolean no_cache,
                                         const char *cache_dir);
/* Asserts that @a and @b hold the same rows, intervals, marks and pixels. */
void             ttv_history_test_assert_same (TtvHistory *a, TtvHistory *b);
/* Makes the checksum of the cache file image @data (@size bytes, a header
 * first) right again after the test damaged it. */
void             ttv_history_test_fix_checksum (char *data, gsize size);

G_END_DECLS

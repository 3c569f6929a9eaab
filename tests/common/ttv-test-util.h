/* ttv-test-util.h: what many tests need: the per-test fixtures (temporary
 * directory, the shared real traces, traces left untouched), file copies,
 * simulated traces written as LTT, live traces written a block at a time,
 * and ttv-report --follow run as a subprocess.  Linked into the tests only. */
#pragma once

#include "ttv-ctf-writer.h"
#include "ttv-ltt-sim.h"
#include "ttv-trace.h"
#include "ttv-traceset.h"

#include <stdio.h>

G_BEGIN_DECLS

/* --- Fixtures: what every test gets from these helpers ------------------- *
 *
 * A test's files go to its own temporary directory, the real traces of
 * ../shared come from one helper that skips when they are absent, and a
 * test that reads traces others keep (the committed ones, ../shared's)
 * checks when it ends that it left them as they were.  Each fixture sets
 * itself up on the first call inside a test and is torn down with the test
 * (g_test_queue_destroy), so a test needs no set-up code in main(). */

/* The running test's own temporary directory, made on the first call in
 * the test as $TMPDIR/ttv-<test path>-XXXXXX (/cli/report/archive:
 * ttv-cli-report-archive-Ab12Cd) and removed with everything in it when the
 * test ends: passed, skipped, or failed.  A failure that ends the program
 * (an assertion's abort, a crash, an _exit in a test subprocess, meson's
 * SIGTERM or SIGKILL at a timeout) leaves nothing behind either: a watchdog
 * process removes the directories of a program that ended without.
 * Called outside any test (in main(), for set-up the tests share, such as
 * XDG folders or a trace generated once), it is the program's own,
 * ttv-<program>-XXXXXX, removed when the program exits.  The directory is
 * removed before a g_test_add() fixture's teardown runs: such a teardown
 * must not write into it.  TTV_TEST_KEEP_TMP=1 keeps every directory (their
 * paths go to the test log) to look at after a failure. */
const char *ttv_test_get_tmp_dir (void);

/* A path in the test's temporary directory that is neither there nor given
 * before: @name, or @name-2, @name-3... (nothing is made there). */
char *ttv_test_dup_tmp_path (const char *name);

/* The path of ../shared/traces/@relative ("ctf/arm64-kernel",
 * "bt2-suite/succeed/...", "ctf2/...", from $TTV_SHARED_DIR, which meson
 * sets), guarded as ttv_test_guard_tree() does; or NULL after marking the
 * test skipped with a message naming the path that is absent.  Call it in
 * the test (not in main()), and return when it gives NULL. */
char *ttv_test_dup_shared_trace (const char *relative);
/* ttv_test_dup_shared_trace ("ctf/@name"). */
char *ttv_test_dup_shared_ctf_trace (const char *name);

/* Checks, when the running test ends, that nothing under @path (a directory
 * or a file) changed: no file added, removed or rewritten; fails the test
 * naming what changed.  For the traces a test reads but must never write
 * into. */
void  ttv_test_guard_tree (const char *path);
/* g_test_add_data_func() for a test that reads the traces under @tree:
 * the test runs with @tree guarded (ttv_test_guard_tree()). */
void  ttv_test_add_guarded (const char *testpath, const char *tree, gconstpointer data, GTestDataFunc func);
/* A sorted line per entry under @path (names, sizes, SHA-256 of contents):
 * two listings are equal when the trees are. */
char *ttv_test_dup_tree_listing (const char *path);

/* Deletes @path and everything below it. */
void  ttv_test_remove_tree (const char *path);

/* Writes @sim to @trace_dir as a little-endian LP64 LTT trace with blocks of
 * @block_size bytes; @tap (may be NULL) sees every event after it is
 * written.  Fails the test on error. */
void  ttv_test_write_ltt_simulation (const char *trace_dir, TtvSim *sim, guint32 block_size,
                                     guint n_cpu_slots, TtvSimEmitFunc tap, gpointer tap_data);

/* Runs @argv (NULL-terminated); fails the test, with its stderr, unless it
 * exits with status 0.  Returns its stdout. */
char *ttv_test_run_ok (const char *const *argv);
/* The raw value of @key in the flat JSON object @line, as written ("12",
 * "\"read\"", "null"), or NULL: reading ttv-report's JSON lines. */
char *ttv_test_json_raw (const char *line, const char *key);
/* The same, a string without its quotes (not unescaped: for names that
 * hold no escape), or NULL when @line has no @key. */
char *ttv_test_json_text (const char *line, const char *key);
/* Runs ttv-gen (@gen_path) to write into @out a simulated machine named
 * @host: @format, seed @seed, @cpus CPUs, 12 processes, 3000 events from
 * @start (seconds); fails the test on error.  The two-machine tests write
 * two hosts with it (the same pids, different CPU counts). */
void  ttv_test_generate_machine (const char *gen_path, const char *out, const char *format, const char *host,
                                 const char *seed, const char *cpus, const char *start);

/* What a program run by ttv_test_run() did. */
typedef struct {
  int status;           /* exit code */
  char *out;            /* owned: standard output */
  char *err;            /* owned: standard error */
} TtvTestRun;

void  ttv_test_run_clear (TtvTestRun *r);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TtvTestRun, ttv_test_run_clear)

/* Runs @argv (NULL-terminated) in @cwd (NULL: here) with the environment
 * @envp (NULL: this one) into @r; fails the test unless it exits normally. */
void  ttv_test_run (TtvTestRun *r, const char *cwd, char **envp, const char *const *argv);

/* A run of a program on bad input: its arguments (NULL-terminated), the
 * exit status it must give, and what its message must hold. */
typedef struct {
  const char *args[8];
  int status;
  const char *message;
} TtvTestBadRun;

/* Runs @program with each case's arguments and fails the test unless it
 * exits with the case's status, printing nothing on its standard output
 * and a message holding the case's on its standard error. */
void  ttv_test_assert_runs_fail (const char *program, const TtvTestBadRun *cases, guint n_cases);

/* @ns as seconds to the nanosecond, "S.NNNNNNNNN" (what --start reads). */
char *ttv_test_dup_seconds (gint64 ns);

/* --- Files and text ---------------------------------------------------- */

/* Copies file @from to @to (replacing it); fails the test on error. */
void  ttv_test_copy_file (const char *from, const char *to);
/* Copies directory @from into @to (made if needed), subdirectories too. */
void  ttv_test_copy_dir (const char *from, const char *to);
/* Overwrites @n bytes of file @dir/@name at @offset with @bytes (a damaged
 * or hand-edited copy of a trace). */
void  ttv_test_patch_file (const char *dir, const char *name, gsize offset, const void *bytes, gsize n);
/* Appends @len bytes of @data to @path (made if needed). */
void  ttv_test_append_file (const char *path, const void *data, gsize len);
/* The non-empty lines of @text (owned strings). */
GPtrArray *ttv_test_lines_of (const char *text);
/* The non-empty pieces of @text between the bytes of @separators. */
GPtrArray *ttv_test_split (const char *text, const char *separators);
/* Fails the test at the first line that differs, or when the counts differ. */
void  ttv_test_assert_same_lines (GPtrArray *got, GPtrArray *want);

/* The span of @trace's events (first and last event times) as libttv
 * reads it; fails the test when it does not open. */
void  ttv_test_trace_span (const char *trace, gint64 *first, gint64 *last);

/* Every field of two events of two cursors the same; their data the same
 * bytes, each in its own cursor's window (fast paths against the general
 * path of a reader). */
void  ttv_test_assert_same_event (const TtvEvent *a, const TtvEvent *b);

/* Decodes the fields of every event of @t (each must decode); returns
 * how many there were. */
guint64 ttv_test_decode_all (TtvTrace *t);

/* The time of every event of @ts, in the merged order of a read from its
 * beginning (the read must not fail). */
GArray *ttv_test_event_times (TtvTraceset *ts);

/* --- Small kernel traces written event by event ---------------------------- */

/* A CTF writer of a kernel trace at @path (little-endian, compact event
 * headers, 4 KiB packets, host "test"), for a test's own scenario. */
TtvCtfWriter *ttv_test_kernel_ctf_writer_new (const char *path);

/* The fields of an LTTng 2.x kernel event, of @names (NULL-terminated):
 * names ending in "comm" 16-byte texts, prev_state 64 bits, the others
 * 32-bit integers, all little-endian. */
TtvType *ttv_test_kernel_fields (const char *const *names);

/* --- Edited CTF traces: lost events, log levels ------------------------------------- */

/* What ttv_test_write_lost_ctf's packets say the tracer lost. */
typedef struct {
  gboolean ctf2;              /* CTF 2 as LTTng 2.15 writes it, else CTF 1.8 */
  /* events_discarded of every packet from the first (lost since the
   * stream began) */
  guint64 first_discarded;
  guint64 later_discarded;    /* more from packet 6 on (a lost range) */
  /* CTF 2: the sequence numbers skip two packets after packet 2 (a
   * range of lost packets) */
  gboolean skip_packets;
} TtvTestLostOptions;

/* A CTF kernel trace ttv-gen's way (one CPU, stream channel0_0, 4 KiB
 * packets, 3000 events, seed 5, host "lost-host") at the test's temporary
 * path @name, its packets patched to say what @lost says. */
char *ttv_test_write_lost_ctf (const char *name, const TtvTestLostOptions *lost);
/* The same CTF 1.8 trace, unpatched, whose TSDL gives LTTng log levels:
 * sched_switch 4 (TRACE_WARNING) with the EMF URI
 * "http://example.org/sched", irq_handler_entry 13 (TRACE_DEBUG_LINE),
 * the other event types none. */
char *ttv_test_write_ctf_log_levels (const char *name);

/* --- A live trace: a finished trace's stream files copied piece by piece -- */

/* The events of one block (packet) of a finished stream file. */
typedef struct {
  guint64 n_events;
  TtvTime last;
} TtvTestPacket;

typedef struct {
  char *name;           /* the tracefile's name: its file in the trace directory */
  char *data;           /* owned: the whole finished file */
  gsize len;
  GArray *packets;      /* of TtvTestPacket, by file block */
  gsize written;        /* bytes in the live copy */
  FILE *f;
} TtvTestStream;

/* The file block that holds @ev (read from the finished trace). */
typedef guint (*TtvTestFileBlockFunc) (TtvTracefile *tf, const TtvEvent *ev);
/* The whole file blocks the reader indexed in @tf. */
typedef guint (*TtvTestBlockCountFunc) (TtvTracefile *tf);

typedef struct {
  char *src_dir;        /* the finished trace */
  char *dir;            /* the live copy */
  gsize packet_size;    /* every stream file is made of blocks of this size */
  GPtrArray *streams;   /* of TtvTestStream *, in the finished trace's tracefile order */
  TtvTestBlockCountFunc n_file_blocks;
} TtvTestLive;

/* Makes the empty directory @dir for a live copy of the trace @src_dir, and
 * reads, per tracefile of @src_dir, the whole file and the events of each
 * of its blocks.  The caller copies the other files (metadata, control). */
TtvTestLive *ttv_test_live_new (const char *src_dir, const char *dir, gsize packet_size,
                                TtvTestFileBlockFunc file_block, TtvTestBlockCountFunc n_file_blocks);
void     ttv_test_live_free (TtvTestLive *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TtvTestLive, ttv_test_live_free)
/* Appends bytes [written, @upto) of stream @i to its live file (flushed). */
void     ttv_test_live_write (TtvTestLive *l, guint i, gsize upto);
/* Completes the block being written in stream @i and appends @n more. */
void     ttv_test_live_packets (TtvTestLive *l, guint i, guint n);
/* TRUE once every stream was written whole. */
gboolean ttv_test_live_done (const TtvTestLive *l);
/* Checks that @t (opened on the live copy) holds, per stream, the events
 * of its whole blocks: block count, event count, last event time. */
void     ttv_test_live_check (const TtvTestLive *l, TtvTrace *t);
/* The refresh steps both live formats share, on @t opened on the live copy
 * of three streams when streams 0 and 1 had a whole block and stream 0 a
 * part of its second: that block completed and the next written up to its
 * last byte; stream 2 appearing (a part of a block: no change; then a whole
 * one); then a block at a time round robin with half blocks between.
 * Refreshes @t and checks it after each step, and at the end its time
 * range against the finished trace's. */
void     ttv_test_live_refresh_rest (TtvTestLive *l, TtvTrace *t);
/* Writes every stream whole, refreshes @t (which must change) and checks it. */
void     ttv_test_live_finish (TtvTestLive *l, TtvTrace *t);
/* The damaged block both live formats share: writes a block per stream,
 * opens the live copy and starts `@report --follow` on it (output and
 * errors in @tmp_dir), then appends stream 1's second block with its magic
 * number (at @magic_offset in the block) damaged.  Both the refresh and the
 * report must fail with a message naming the file and the byte offset. */
void     ttv_test_live_corrupt (TtvTestLive *l, const char *report, const char *tmp_dir, gsize magic_offset);
/* Runs `@report --follow` on the live copy while appending a block per
 * stream a round (and 200 more bytes every other round) until every
 * stream is whole; stops it with SIGINT and checks that its output is the
 * plain report of the finished trace.  With @wait_first, the appending
 * starts once the report has printed something. */
void     ttv_test_live_follow_report (TtvTestLive *l, const char *report, const char *out_path,
                                      gboolean wait_first);

/* --- ttv-report --follow as a subprocess --------------------------------- */

/* Starts `@report --follow -o @out_path @trace_dir` with its stderr
 * written to @err_path (NULL: the test's own). */
GPid  ttv_test_follow_start (const char *report, const char *trace_dir, const char *out_path,
                             const char *err_path);
/* Waits (up to 10 s) until the report wrote something to @out_path: it
 * has opened the trace. */
void  ttv_test_follow_wait_output (const char *out_path);
/* Waits (up to 20 s, then kills it and fails) for @pid to exit; returns
 * its wait status. */
int   ttv_test_follow_wait_exit (GPid pid);
/* Lets the report catch up (300 ms, and until it has written something,
 * up to 20 s) and returns the size of @out_path. */
gsize ttv_test_follow_midway (const char *out_path);
/* Lets the report catch up (@settle_ms), stops it with SIGINT and checks
 * that it exited with status 0. */
void  ttv_test_follow_stop (GPid pid, guint settle_ms);
/* Waits for @pid (see ttv_test_follow_wait_exit) and checks that it
 * failed, with a message in @err_path naming @what and @where. */
void  ttv_test_follow_assert_failed (GPid pid, const char *err_path, const char *what, const char *where);
/* Checks that @out_path holds the lines of the plain `@report @trace_dir`,
 * and that @seen_midway bytes of it were there before the end.  Returns
 * the number of lines. */
guint ttv_test_follow_assert_complete (const char *report, const char *trace_dir, const char *out_path,
                                       gsize seen_midway);

G_END_DECLS

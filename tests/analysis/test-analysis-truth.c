/* test-analysis-truth.c: the kernel analyses find exactly what the
 * simulated kernel did (its truth, recorded from its own state): every
 * system call, wakeup, blocked episode, run slice, IRQ, soft IRQ and raise,
 * block request and futex wait, on traces written as CTF (LTTng 2.x
 * names, arguments), LTT and LTTng 0.x (the same simulation); and the
 * probe's known latencies, CPU share, disk time and critical path. */
#include "ttv-kernel-analyses.h"
#include "ttv-ctf-sim.h"
#include "ttv-ctf-writer.h"
#include "ttv-lttng-sim.h"
#include "ttv-sim-private.h"
#include "ttv-test-util.h"

#include <string.h>

#define US G_GINT64_CONSTANT (1000)

typedef struct {
  const char *dir;              /* the test's temporary directory */
  TtvSimTruth *truth;
  TtvSimOptions options;
  TtvTraceset *ts;
  gboolean ctf;                 /* arguments, priorities, raises */
  GPtrArray *analyses;          /* of TtvAnalysis *, in ttv_analysis_list() order */
} Fixture;

/* LTTng 0.x markers carry the call's number only (no enumeration): the
 * analyses name it syscall_N. */
static gboolean numbers_only;

static const char *
syscall_name (guint number)
{
  static char buf[32];
  if (numbers_only)
    {
      g_snprintf (buf, sizeof buf, "syscall_%u", number);
      return buf;
    }
  for (guint i = 0; i < ttv_sim_n_syscalls; i++)
    if (ttv_sim_syscalls[i].number == number)
      return ttv_sim_syscalls[i].name;
  return "?";
}

static gboolean
last_time (gpointer data, gint stream, TtvTime time, guint event, const TtvScalar *values, guint n, GError **error)
{
  *(TtvTime *) data = MAX (*(TtvTime *) data, time);
  return TRUE;
}

static void
sim_options (TtvSimOptions *o, guint64 seed)
{
  ttv_sim_options_init (o);
  o->seed = seed;
  o->n_cpus = 3;
  o->n_processes = 30;
  o->max_events = 120000;
  o->probe = TRUE;
  o->softirq_raise = TRUE;
}

static void
fixture_open (Fixture *f, const char *format, guint64 seed)
{
  g_autoptr (GError) error = NULL;
  f->dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace = g_build_filename (f->dir, "trace", NULL);
  sim_options (&f->options, seed);
  f->truth = ttv_sim_truth_new ();
  TtvTime last = 0;
  if (g_str_equal (format, "lttng"))
    {
      /* The LTTng 0.x writer runs its own simulation of the same options:
       * the same events; the truth comes from a twin run. */
      TtvLttngWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .arch_size = 8, .alignment = 8,
                                   .buf_size = 65536 };
      g_assert_true (ttv_lttng_write_simulation (trace, &f->options, &wo, NULL, &error));
      g_autoptr (TtvSim) twin = ttv_sim_new (&f->options, &error);
      ttv_sim_set_truth (twin, f->truth);
      g_assert_true (ttv_sim_run (twin, last_time, &last, &error));
    }
  else
    {
      g_autoptr (TtvSim) sim = ttv_sim_new (&f->options, &error);
      g_assert_no_error (error);
      ttv_sim_set_truth (sim, f->truth);
      if (g_str_equal (format, "ctf"))
        {
          TtvCtfWriterOptions wo = { .byte_order = TTV_BYTE_ORDER_LITTLE, .header = TTV_CTF_HEADER_COMPACT,
                                     .packet_size = 65536, .long_bits = 64, .hostname = "test" };
          g_assert_true (ttv_ctf_write_simulation (trace, sim, &wo, last_time, &last, NULL, &error));
          f->ctf = TRUE;
        }
      else
        ttv_test_write_ltt_simulation (trace, sim, 65536, ttv_sim_get_cpu_id (sim, ttv_sim_get_n_cpus (sim) - 1) + 1,
                                       last_time, &last);
    }
  g_assert_no_error (error);
  ttv_sim_truth_finish (f->truth, last);
  f->ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (f->ts, trace, &error));
  g_assert_no_error (error);
  g_autoptr (GPtrArray) classes = g_ptr_array_new ();
  for (const TtvAnalysisClass *const *c = ttv_analysis_list (); *c; c++)
    g_ptr_array_add (classes, (gpointer) *c);
  TtvAnalysisOptions ao = { .no_cache = TRUE };
  f->analyses = ttv_analysis_run_many (f->ts, classes, &ao, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (f->analyses);
}

static void
fixture_close (Fixture *f)
{
  g_ptr_array_unref (f->analyses);
  ttv_traceset_unref (f->ts);
  ttv_sim_truth_free (f->truth);
}

static const TtvAnalysis *
analysis (Fixture *f, const TtvAnalysisClass *cls)
{
  for (guint i = 0; i < f->analyses->len; i++)
    if (ttv_analysis_get_class (g_ptr_array_index (f->analyses, i)) == cls)
      return g_ptr_array_index (f->analyses, i);
  g_assert_not_reached ();
}

static GArray *
records (Fixture *f, const TtvAnalysisClass *cls, const char *table)
{
  g_autoptr (GError) error = NULL;
  const TtvAnalysisTable *t = ttv_analysis_find_table (analysis (f, cls), table);
  g_assert_nonnull (t);
  GArray *out = ttv_analysis_table_query (t, TTV_QUERY_OVERLAP, TTV_TIME_MIN, TTV_TIME_MAX, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->len, ==, ttv_analysis_table_get_n_records (t));
  return out;
}

static const char *
str (Fixture *f, const TtvAnalysisClass *cls, guint32 index)
{
  return ttv_analysis_get_string (analysis (f, cls), index);
}

/* Both lists, as sorted lines, must be equal: the first difference fails. */
static gint
compare_lines (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

static void
assert_same (const char *what, GPtrArray *got, GPtrArray *want)
{
  g_ptr_array_sort (got, compare_lines);
  g_ptr_array_sort (want, compare_lines);
  for (guint i = 0; i < MIN (got->len, want->len); i++)
    if (g_strcmp0 (got->pdata[i], want->pdata[i]) != 0)
      g_error ("%s: record %u of %u: found «%s», the simulation did «%s»", what, i, want->len,
               (char *) got->pdata[i], (char *) want->pdata[i]);
  if (got->len != want->len)
    g_error ("%s: %u records found, the simulation did %u (next: «%s»)", what, got->len, want->len,
             got->len > want->len ? (char *) got->pdata[want->len] : (char *) want->pdata[got->len]);
  g_assert_cmpuint (want->len, >, 0);
}

#define LINES() g_ptr_array_new_with_free_func (g_free)
#define T(x) ((gint64) (x))

static void
check_syscalls (Fixture *f)
{
  g_autoptr (GArray) calls = records (f, &ttv_syscall_analysis, "calls");
  g_autoptr (GPtrArray) got = LINES (), want = LINES ();
  for (guint i = 0; i < calls->len; i++)
    {
      const TtvSyscallRecord *r = &g_array_index (calls, TtvSyscallRecord, i);
      g_ptr_array_add (got, g_strdup_printf ("%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s %" G_GINT64_FORMAT
                                             " cpu %d pid %u file %s", r->tid, r->start, r->end,
                                             str (f, &ttv_syscall_analysis, r->syscall), r->ret, r->cpu,
                                             f->ctf ? r->tgid : 0,
                                             f->ctf ? str (f, &ttv_syscall_analysis, r->file) : "-"));
    }
  for (guint i = 0; i < f->truth->calls->len; i++)
    {
      const TtvSimTruthCall *c = &g_array_index (f->truth->calls, TtvSimTruthCall, i);
      g_ptr_array_add (want, g_strdup_printf ("%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s %" G_GINT64_FORMAT
                                              " cpu %d pid %u file %s", c->tid, c->start, c->end,
                                              syscall_name (c->number), c->ret, c->cpu, f->ctf ? c->tgid : 0,
                                              f->ctf ? c->file : "-"));
    }
  assert_same ("system calls", got, want);
}

static void
check_sched (Fixture *f)
{
  g_autoptr (GArray) wakeups = records (f, &ttv_sched_analysis, "wakeups");
  g_autoptr (GPtrArray) got = LINES (), want = LINES ();
  for (guint i = 0; i < wakeups->len; i++)
    {
      const TtvWakeupRecord *r = &g_array_index (wakeups, TtvWakeupRecord, i);
      guint32 waker = r->waker_kind == TTV_WAKER_THREAD ? r->waker_tid : r->waker_kind ? r->waker_id : 0;
      g_ptr_array_add (got, g_strdup_printf ("%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " cpu %d waker %u/%u new %u",
                                             r->tid, r->start, r->end, r->cpu, r->waker_kind, waker, r->is_new));
      /* CTF traces give the priority (ttv-gen writes 20), LTT none. */
      g_assert_cmpint (r->prio, ==, f->ctf ? 20 : TTV_ANALYSIS_NO_PRIO);
    }
  for (guint i = 0; i < f->truth->wakeups->len; i++)
    {
      const TtvSimTruthWakeup *w = &g_array_index (f->truth->wakeups, TtvSimTruthWakeup, i);
      g_ptr_array_add (want, g_strdup_printf ("%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " cpu %d waker %u/%u new %u",
                                              w->tid, w->woken, w->running, w->cpu, w->waker_kind,
                                              w->waker_kind ? w->waker : 0, w->is_new));
    }
  assert_same ("wakeups", got, want);

  g_autoptr (GArray) blocked = records (f, &ttv_sched_analysis, "blocked");
  g_autoptr (GPtrArray) got2 = LINES (), want2 = LINES ();
  for (guint i = 0; i < blocked->len; i++)
    {
      const TtvBlockedRecord *r = &g_array_index (blocked, TtvBlockedRecord, i);
      guint32 waker = r->waker_kind == TTV_WAKER_THREAD ? r->waker_tid : r->waker_kind ? r->waker_id : 0;
      g_ptr_array_add (got2, g_strdup_printf ("%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                              " cpu %d in %s %s waker %u/%u%s", r->tid, r->start, r->woken, r->end,
                                              r->cpu, str (f, &ttv_sched_analysis, r->syscall),
                                              r->state == TTV_BLOCKED_DISK ? "D" : "S", r->waker_kind, waker,
                                              r->unfinished ? " unfinished" : ""));
    }
  for (guint i = 0; i < f->truth->blocked->len; i++)
    {
      const TtvSimTruthBlocked *b = &g_array_index (f->truth->blocked, TtvSimTruthBlocked, i);
      g_ptr_array_add (want2, g_strdup_printf ("%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                               " cpu %d in %s %s waker %u/%u%s", b->tid, b->blocked, b->woken,
                                               b->running, b->cpu, b->number >= 0 ? syscall_name ((guint) b->number) : "",
                                               b->state == 2 ? "D" : "S", b->waker_kind,
                                               b->waker_kind ? b->waker : 0, b->unfinished ? " unfinished" : ""));
    }
  assert_same ("blocked", got2, want2);
}

static void
check_cpu (Fixture *f)
{
  g_autoptr (GArray) slices = records (f, &ttv_cpu_usage_analysis, "slices");
  g_autoptr (GPtrArray) got = LINES (), want = LINES ();
  for (guint i = 0; i < slices->len; i++)
    {
      const TtvCpuSlice *s = &g_array_index (slices, TtvCpuSlice, i);
      g_ptr_array_add (got, g_strdup_printf ("cpu %d %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, s->cpu, s->tid,
                                             s->start, s->end));
    }
  for (guint i = 0; i < f->truth->slices->len; i++)
    {
      const TtvSimTruthSlice *s = &g_array_index (f->truth->slices, TtvSimTruthSlice, i);
      g_ptr_array_add (want, g_strdup_printf ("cpu %d %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, s->cpu, s->tid,
                                              s->start, s->end));
    }
  assert_same ("run slices", got, want);
}

static void
check_irq_table (Fixture *f, const char *table, gboolean soft, gboolean raises)
{
  g_autoptr (GArray) irqs = records (f, &ttv_irq_analysis, table);
  g_autoptr (GPtrArray) got = LINES (), want = LINES ();
  for (guint i = 0; i < irqs->len; i++)
    {
      const TtvIrqRecord *r = &g_array_index (irqs, TtvIrqRecord, i);
      g_ptr_array_add (got, g_strdup_printf ("cpu %d %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, r->cpu, r->irq,
                                             r->start, r->end));
    }
  for (guint i = 0; i < f->truth->irqs->len; i++)
    {
      const TtvSimTruthIrq *q = &g_array_index (f->truth->irqs, TtvSimTruthIrq, i);
      if (q->soft != soft || (raises && !q->raise))
        continue;
      g_ptr_array_add (want, g_strdup_printf ("cpu %d %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, q->cpu, q->id,
                                              raises ? q->raise : q->entry, raises ? q->entry : q->exit));
    }
  assert_same (table, got, want);
}

static void
check_block (Fixture *f)
{
  g_autoptr (GArray) requests = records (f, &ttv_block_analysis, "requests");
  g_autoptr (GPtrArray) got = LINES (), want = LINES ();
  for (guint i = 0; i < requests->len; i++)
    {
      const TtvBlockRecord *r = &g_array_index (requests, TtvBlockRecord, i);
      g_ptr_array_add (got, g_strdup_printf ("%u %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                             " %u tid %u %s file %s", r->dev, r->sector, r->start, r->end,
                                             r->nr_sector, r->tid, r->write ? "w" : "r",
                                             f->ctf ? str (f, &ttv_block_analysis, r->file) : "-"));
    }
  for (guint i = 0; i < f->truth->io->len; i++)
    {
      const TtvSimTruthIo *io = &g_array_index (f->truth->io, TtvSimTruthIo, i);
      g_ptr_array_add (want, g_strdup_printf ("%u %" G_GUINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                                              " %u tid %u %s file %s", io->dev, io->sector, io->issue, io->complete,
                                              io->nr_sector, io->tid, io->write ? "w" : "r",
                                              f->ctf ? io->file : "-"));
    }
  assert_same ("block requests", got, want);
}

static void
check_futex (Fixture *f)
{
  g_autoptr (GArray) waits = records (f, &ttv_futex_analysis, "waits");
  g_autoptr (GPtrArray) got = LINES (), want = LINES ();
  for (guint i = 0; i < waits->len; i++)
    {
      const TtvFutexRecord *r = &g_array_index (waits, TtvFutexRecord, i);
      g_ptr_array_add (got, g_strdup_printf ("%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " 0x%" G_GINT64_MODIFIER
                                             "x blocked %" G_GINT64_FORMAT " waker %d", r->tid, r->start, r->end,
                                             r->uaddr, r->blocked, (gint) r->waker_tid));
    }
  for (guint i = 0; i < f->truth->futex->len; i++)
    {
      const TtvSimTruthFutex *w = &g_array_index (f->truth->futex, TtvSimTruthFutex, i);
      g_ptr_array_add (want, g_strdup_printf ("%u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " 0x%" G_GINT64_MODIFIER
                                              "x blocked %" G_GINT64_FORMAT " waker %d", w->tid, w->start, w->end,
                                              w->uaddr, w->blocked, (gint) w->waker));
    }
  assert_same ("futex waits", got, want);
}

static void
test_truth (gconstpointer data)
{
  const char *format = data;
  Fixture f = { 0 };
  numbers_only = g_str_equal (format, "lttng");
  fixture_open (&f, format, 11);
  check_syscalls (&f);
  check_sched (&f);
  check_cpu (&f);
  check_irq_table (&f, "irqs", FALSE, FALSE);
  check_irq_table (&f, "softirqs", TRUE, FALSE);
  check_irq_table (&f, "raises", TRUE, TRUE);
  check_block (&f);
  /* Futex addresses are arguments: only LTTng 2.x traces give them. */
  if (f.ctf)
    check_futex (&f);
  fixture_close (&f);
}

/* --- The probe: known values, period after period ---------------------------- */

#define PROBE_A TTV_SIM_PROBE_PID
#define PROBE_B (TTV_SIM_PROBE_PID + 1)
#define PROBE_C (TTV_SIM_PROBE_PID + 2)
#define PERIOD (10000 * US)

/* The base of period @k, and how many whole periods the trace holds. */
static TtvTime
probe_base (const Fixture *f, guint k)
{
  return f->options.start_time + 1000 * US + (TtvTime) k * PERIOD;
}

static guint
probe_periods (Fixture *f)
{
  TtvTime start, end;
  ttv_analysis_get_time_range (analysis (f, &ttv_cpu_usage_analysis), &start, &end);
  guint n = 0;
  while (probe_base (f, n + 1) - 30 * US <= end)
    n++;
  g_assert_cmpuint (n, >=, 5);
  return n;
}

/* Every record of @table for thread @tid starting in a whole period
 * (not the first: its threads were asleep before the trace) has
 * duration @us at offset @at_us of its period. */
static void
assert_every_period (Fixture *f, const TtvAnalysisClass *cls, const char *table, guint32 tid, gint64 at_us, gint64 us)
{
  g_autoptr (GError) error = NULL;
  const TtvAnalysisTable *t = ttv_analysis_find_table (analysis (f, cls), table);
  guint n = probe_periods (f);
  for (guint k = 1; k < n; k++)
    {
      TtvTime at = probe_base (f, k) + at_us * US;
      g_autoptr (GArray) got = ttv_analysis_table_query_series (t, 0, tid, at, at, &error);
      g_assert_no_error (error);
      guint found = 0;
      for (guint i = 0; i < got->len; i++)
        {
          const guint8 *r = (const guint8 *) got->data + i * ttv_analysis_table_get_spec (t)->record_size;
          if (ttv_analysis_record_start (r) != at)
            continue;
          g_assert_cmpint (ttv_analysis_record_end (r) - ttv_analysis_record_start (r), ==, us * US);
          found++;
        }
      if (found != 1)
        g_error ("%s: period %u: %u records of %u at +%" G_GINT64_FORMAT " us", table, k, found, tid, at_us);
    }
}

static void
test_probe (void)
{
  g_autoptr (GError) error = NULL;
  Fixture f = { 0 };
  numbers_only = FALSE;
  fixture_open (&f, "ctf", 23);
  guint n = probe_periods (&f);
  gint probe_cpu = 3;

  /* System calls: the client's read, the server's futex wait, the worker's read. */
  assert_every_period (&f, &ttv_syscall_analysis, "calls", PROBE_A, 100, 1820);
  assert_every_period (&f, &ttv_syscall_analysis, "calls", PROBE_B, 300, 1420);
  assert_every_period (&f, &ttv_syscall_analysis, "calls", PROBE_C, 400, 1110);
  /* Scheduling latency: by the timer (20, 125, 320 us), by the disk's IRQ
   * (60), by a thread (100). */
  assert_every_period (&f, &ttv_sched_analysis, "wakeups", PROBE_A, -20, 20);
  assert_every_period (&f, &ttv_sched_analysis, "wakeups", PROBE_B, -15, 125);
  assert_every_period (&f, &ttv_sched_analysis, "wakeups", PROBE_C, -10, 320);
  assert_every_period (&f, &ttv_sched_analysis, "wakeups", PROBE_C, 1440, 60);
  assert_every_period (&f, &ttv_sched_analysis, "wakeups", PROBE_B, 1610, 100);
  assert_every_period (&f, &ttv_sched_analysis, "wakeups", PROBE_A, 1810, 100);
  /* Blocked: the worker waits for the disk (D) 1080 us. */
  assert_every_period (&f, &ttv_sched_analysis, "blocked", PROBE_C, 420, 1080);
  assert_every_period (&f, &ttv_futex_analysis, "waits", PROBE_B, 300, 1420);

  /* The disk: every request takes 1 ms, issued in the worker's read of fd 4. */
  const TtvAnalysis *block = analysis (&f, &ttv_block_analysis);
  g_autoptr (GArray) requests = ttv_analysis_table_query (ttv_analysis_get_table (block, 0), TTV_QUERY_OVERLAP,
                                                          TTV_TIME_MIN, TTV_TIME_MAX, &error);
  guint probe_requests = 0;
  for (guint i = 0; i < requests->len; i++)
    {
      const TtvBlockRecord *r = &g_array_index (requests, TtvBlockRecord, i);
      if (r->dev != ((8u << 20) | 16u))
        continue;
      probe_requests++;
      g_assert_cmpint (r->end - r->start, ==, 1000 * US);
      g_assert_cmpuint (r->tid, ==, PROBE_C);
      g_assert_cmpstr (ttv_analysis_get_string (block, r->file), ==, "/var/lib/probe-client/4.db");
      g_assert_cmpstr (ttv_analysis_get_string (block, r->device), ==, "8:16");
    }
  g_assert_cmpuint (probe_requests, >=, n);

  /* CPU: 1005 us busy per period on the probe's CPU, 210, 400 and 320 us
   * of its threads, 75 of the idle task's interrupts. */
  const TtvAnalysis *cpu = analysis (&f, &ttv_cpu_usage_analysis);
  TtvTime t0 = probe_base (&f, 1) - 30 * US, t1 = probe_base (&f, n) - 30 * US;
  TtvTime busy;
  g_assert_true (ttv_cpu_usage_get_busy (cpu, probe_cpu, t0, t1, &busy, &error));
  g_assert_cmpint (busy, ==, (TtvTime) (n - 1) * 1005 * US);
  g_autoptr (GArray) top = ttv_cpu_usage_top_threads (cpu, t0, t1, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < top->len; i++)
    {
      const TtvThreadUsage *u = &g_array_index (top, TtvThreadUsage, i);
      if (u->tid >= PROBE_A && u->tid <= PROBE_C)
        {
          static const gint64 per_period[] = { 210, 400, 320 };
          g_assert_cmpint (u->cpu_time, ==, (TtvTime) (n - 1) * per_period[u->tid - PROBE_A] * US);
          g_assert_cmpuint (u->tgid, ==, PROBE_A);
        }
    }
  /* The share of the CPU over the bins of one period: 25 us of timer,
   * then 420 running, 1080 of nothing but 50 of the disk's IRQ... */
  TtvTime edges[3] = { probe_base (&f, 2) - 30 * US, probe_base (&f, 2) + 2010 * US, probe_base (&f, 3) - 30 * US };
  TtvTime bins[2];
  g_assert_true (ttv_cpu_usage_get_busy_bins (cpu, probe_cpu, edges, 3, bins, &error));
  g_assert_cmpint (bins[0], ==, 1005 * US);
  g_assert_cmpint (bins[1], ==, 0);

  /* The critical path of the client over a period: itself, the server,
   * the worker, the disk, back. */
  const struct { gint64 from, to; TtvPathKind kind; guint32 tid; const char *in; } want[] = {
    { 0, 110, TTV_PATH_RUNNING, PROBE_A, "" },
    { 110, 310, TTV_PATH_RUNNING, PROBE_B, "" },
    { 310, 420, TTV_PATH_RUNNING, PROBE_C, "" },
    { 420, 1440, TTV_PATH_DEVICE, PROBE_C, "read" },
    { 1440, 1500, TTV_PATH_WAIT_CPU, PROBE_C, "read" },
    { 1500, 1610, TTV_PATH_RUNNING, PROBE_C, "" },
    { 1610, 1710, TTV_PATH_WAIT_CPU, PROBE_B, "futex" },
    { 1710, 1810, TTV_PATH_RUNNING, PROBE_B, "" },
    { 1810, 1910, TTV_PATH_WAIT_CPU, PROBE_A, "read" },
    { 1910, 2010, TTV_PATH_RUNNING, PROBE_A, "" },
  };
  for (guint k = 1; k < n; k++)
    {
      TtvTime base = probe_base (&f, k);
      g_autoptr (GArray) path = ttv_critical_path_compute (analysis (&f, &ttv_sched_analysis), cpu, 0, PROBE_A, base,
                                                           base + 2010 * US, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (path->len, ==, G_N_ELEMENTS (want));
      for (guint i = 0; i < path->len; i++)
        {
          const TtvPathSegment *s = &g_array_index (path, TtvPathSegment, i);
          g_assert_cmpint (s->start, ==, base + want[i].from * US);
          g_assert_cmpint (s->end, ==, base + want[i].to * US);
          g_assert_cmpint (s->kind, ==, want[i].kind);
          g_assert_cmpuint (s->tid, ==, want[i].tid);
          g_assert_cmpstr (s->syscall, ==, want[i].in);
          if (s->kind == TTV_PATH_DEVICE)
            {
              g_assert_cmpuint (s->irq, ==, TTV_SIM_PROBE_IRQ);
              g_assert_false (s->softirq);
              g_assert_cmpstr (s->name, ==, "probe-disk");
            }
        }
    }
  fixture_close (&f);
}

/* --- sched_waking ---------------------------------------------------------------- */

/* Linux 4.3+ records sched_waking (on the waker's CPU, when the wakeup
 * starts) before sched_wakeup (when the task is queued): the wakeup
 * latency starts at the first of them.  A trace of two CPUs written here:
 * task 100 blocks at 2 us, is woken by task 200 on CPU 1 (waking at 5 us,
 * wakeup at 5.5 us) and runs at 9 us; it blocks again at 10 us, and only a
 * sched_wakeup (an older kernel's way) at 12 us wakes it to run at 15 us. */
enum { WAKING_SWITCH, WAKING_WAKING, WAKING_WAKEUP };

static void
waking_switch (TtvCtfWriter *w, guint cpu, TtvTime t, const char *prev, gint prev_tid, gint state, const char *next,
               gint next_tid)
{
  g_autoptr (GError) error = NULL;
  TtvScalar v[] = { TTV_SCALAR_STRING (prev), TTV_SCALAR_INT (prev_tid), TTV_SCALAR_INT (120), TTV_SCALAR_INT (state),
                    TTV_SCALAR_STRING (next), TTV_SCALAR_INT (next_tid), TTV_SCALAR_INT (120) };
  g_assert_true (ttv_ctf_writer_write_event (w, cpu, t, WAKING_SWITCH, v, G_N_ELEMENTS (v), &error));
}

static void
waking_wake (TtvCtfWriter *w, guint event, TtvTime t)
{
  g_autoptr (GError) error = NULL;
  TtvScalar v[] = { TTV_SCALAR_STRING ("sleeper"), TTV_SCALAR_INT (100), TTV_SCALAR_INT (120), TTV_SCALAR_INT (0) };
  g_assert_true (ttv_ctf_writer_write_event (w, 1, t, event, v, G_N_ELEMENTS (v), &error));
}

static void
test_sched_waking (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *trace = ttv_test_dup_tmp_path ("waking");
  TtvCtfWriter *w = ttv_test_kernel_ctf_writer_new (trace);
  const char *const names[] = { "sched_switch", "sched_waking", "sched_wakeup" };
  const char *const switch_fields[] = { "prev_comm", "prev_tid", "prev_prio", "prev_state",
                                        "next_comm", "next_tid", "next_prio", NULL };
  const char *const wake_fields[] = { "comm", "tid", "prio", "target_cpu", NULL };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (TtvType) fields = ttv_test_kernel_fields (i == WAKING_SWITCH ? switch_fields : wake_fields);
      g_assert_cmpint (ttv_ctf_writer_add_event (w, names[i], fields, &error), ==, (gint) i);
    }
  const TtvTime base = 1000000000;
  waking_switch (w, 0, base + 1000, "swapper/0", 0, 0, "sleeper", 100);
  /* The waker's name with a byte that is not UTF-8, as a kernel's comm
   * may hold: the JSON report must stay valid. */
  waking_switch (w, 1, base + 1500, "swapper/1", 0, 0, "wa\xffker", 200);
  waking_switch (w, 0, base + 2000, "sleeper", 100, 1, "swapper/0", 0);
  waking_wake (w, WAKING_WAKING, base + 5000);
  waking_wake (w, WAKING_WAKEUP, base + 5500);
  waking_switch (w, 0, base + 9000, "swapper/0", 0, 0, "sleeper", 100);
  waking_switch (w, 0, base + 10000, "sleeper", 100, 1, "swapper/0", 0);
  waking_wake (w, WAKING_WAKEUP, base + 12000);
  waking_switch (w, 0, base + 15000, "swapper/0", 0, 0, "sleeper", 100);
  waking_switch (w, 1, base + 16000, "wa\xffker", 200, 0, "swapper/1", 0);
  g_assert_true (ttv_ctf_writer_close (w, &error));

  Fixture f = { 0 };
  f.ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (f.ts, trace, &error));
  g_autoptr (GPtrArray) classes = g_ptr_array_new ();
  g_ptr_array_add (classes, (gpointer) &ttv_sched_analysis);
  TtvAnalysisOptions ao = { .no_cache = TRUE };
  f.analyses = ttv_analysis_run_many (f.ts, classes, &ao, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  g_autoptr (GArray) wakeups = records (&f, &ttv_sched_analysis, "wakeups");
  g_assert_cmpuint (wakeups->len, ==, 2);
  const TtvWakeupRecord *a = &g_array_index (wakeups, TtvWakeupRecord, 0);
  const TtvWakeupRecord *b = &g_array_index (wakeups, TtvWakeupRecord, 1);
  /* From sched_waking, not from the sched_wakeup after it; the waker is
   * the thread running on CPU 1. */
  g_assert_cmpint (a->tid, ==, 100);
  g_assert_cmpint (a->start, ==, base + 5000);
  g_assert_cmpint (a->end, ==, base + 9000);
  g_assert_cmpint (a->cpu, ==, 0);
  g_assert_cmpint (a->waker_cpu, ==, 1);
  g_assert_cmpint (a->waker_kind, ==, TTV_WAKER_THREAD);
  g_assert_cmpint (a->waker_tid, ==, 200);
  /* A sched_wakeup alone starts it. */
  g_assert_cmpint (b->start, ==, base + 12000);
  g_assert_cmpint (b->end, ==, base + 15000);
  g_autoptr (GArray) blocked = records (&f, &ttv_sched_analysis, "blocked");
  g_assert_cmpuint (blocked->len, ==, 2);

  /* Its records as JSON lines: valid UTF-8, the bad byte as U+FFFD. */
  const TtvAnalysis *sched = g_ptr_array_index (f.analyses, 0);
  TtvAnalysisOptions po = { .records = TRUE, .table = "wakeups" };
  g_autoptr (GString) out = g_string_new (NULL);
  g_assert_true (ttv_analysis_write (sched, TTV_ANALYSIS_FORMAT_JSONL, &po, out, &error));
  g_assert_no_error (error);
  g_test_message ("%s", out->str);
  g_assert_true (g_utf8_validate (out->str, (gssize) out->len, NULL));
  g_assert_nonnull (strstr (out->str, "\"wa\xef\xbf\xbdker\""));
  g_ptr_array_unref (f.analyses);
  ttv_traceset_unref (f.ts);
}

/* --- files of freed processes ------------------------------------------------ */

/* The file of an fd is the process's: a process's files go when it is
 * freed (a later process given its pid does not have them), or, when the
 * trace lost that free, when a new process takes the pid.  A CTF kernel
 * trace written here, one CPU: process 100 opens /etc/a as fd 5 and reads
 * it; it exits and is freed (or its free is lost: @mode); process 100
 * again reads fd 5, opens /etc/b as fd 6 and reads it, and opens "". */
enum { FREED_SWITCH, FREED_OPEN, FREED_OPEN_RET, FREED_READ, FREED_READ_RET, FREED_EXIT, FREED_FREE, FREED_FORK };

static void
freed_event (TtvCtfWriter *w, TtvTime t, guint event, const TtvScalar *v, guint n)
{
  g_autoptr (GError) error = NULL;
  g_assert_true (ttv_ctf_writer_write_event (w, 0, t, event, v, n, &error));
}

static void
freed_switch (TtvCtfWriter *w, TtvTime t, gint prev_tid, gint state, gint next_tid)
{
  TtvScalar v[] = { TTV_SCALAR_STRING (prev_tid ? "proc" : "swapper/0"), TTV_SCALAR_INT (prev_tid), TTV_SCALAR_INT (120),
                    TTV_SCALAR_INT (state), TTV_SCALAR_STRING (next_tid ? "proc" : "swapper/0"),
                    TTV_SCALAR_INT (next_tid), TTV_SCALAR_INT (120) };
  freed_event (w, t, FREED_SWITCH, v, G_N_ELEMENTS (v));
}

/* An openat of @file returning @fd, at @t. */
static void
freed_open (TtvCtfWriter *w, TtvTime t, const char *file, gint fd)
{
  TtvScalar open[] = { TTV_SCALAR_INT (-100), TTV_SCALAR_STRING (file) };
  freed_event (w, t, FREED_OPEN, open, G_N_ELEMENTS (open));
  TtvScalar ret[] = { TTV_SCALAR_INT (fd) };
  freed_event (w, t + 1 * US, FREED_OPEN_RET, ret, G_N_ELEMENTS (ret));
}

static void
freed_read (TtvCtfWriter *w, TtvTime t, gint fd)
{
  TtvScalar read[] = { TTV_SCALAR_INT (fd), TTV_SCALAR_INT (4096) };
  freed_event (w, t, FREED_READ, read, G_N_ELEMENTS (read));
  TtvScalar ret[] = { TTV_SCALAR_INT (10) };
  freed_event (w, t + 1 * US, FREED_READ_RET, ret, G_N_ELEMENTS (ret));
}

static void
freed_task (TtvCtfWriter *w, TtvTime t, guint event, gint tid)
{
  TtvScalar v[] = { TTV_SCALAR_STRING ("proc"), TTV_SCALAR_INT (tid), TTV_SCALAR_INT (120) };
  freed_event (w, t, event, v, G_N_ELEMENTS (v));
}

static void
freed_fork (TtvCtfWriter *w, TtvTime t, gint child)
{
  TtvScalar v[] = { TTV_SCALAR_STRING ("init"), TTV_SCALAR_INT (1), TTV_SCALAR_INT (1),
                    TTV_SCALAR_STRING ("proc"), TTV_SCALAR_INT (child), TTV_SCALAR_INT (child) };
  freed_event (w, t, FREED_FORK, v, G_N_ELEMENTS (v));
}

static TtvType *
freed_fields (guint event)
{
  static const char *const switch_fields[] = { "prev_comm", "prev_tid", "prev_prio", "prev_state",
                                               "next_comm", "next_tid", "next_prio", NULL };
  static const char *const ret_fields[] = { "ret", NULL };
  static const char *const read_fields[] = { "fd", "count", NULL };
  static const char *const task_fields[] = { "comm", "tid", "prio", NULL };
  static const char *const fork_fields[] = { "parent_comm", "parent_tid", "parent_pid",
                                             "child_comm", "child_tid", "child_pid", NULL };
  switch (event)
    {
    case FREED_SWITCH:
      return ttv_test_kernel_fields (switch_fields);
    case FREED_OPEN:
      {
        TtvType *s = ttv_type_new_struct ();
        ttv_type_add_field (s, "dfd", ttv_type_new_integer (32, TRUE, TTV_BYTE_ORDER_LITTLE, 32), NULL);
        ttv_type_add_field (s, "filename", ttv_type_new_string (), NULL);
        ttv_type_finish (s);
        return s;
      }
    case FREED_OPEN_RET:
    case FREED_READ_RET:
      return ttv_test_kernel_fields (ret_fields);
    case FREED_READ:
      return ttv_test_kernel_fields (read_fields);
    case FREED_FORK:
      return ttv_test_kernel_fields (fork_fields);
    default:
      return ttv_test_kernel_fields (task_fields);
    }
}

static void
test_freed_files (gconstpointer data)
{
  const char *mode = data;
  g_autoptr (GError) error = NULL;
  g_autofree char *trace = ttv_test_dup_tmp_path ("freed");
  TtvCtfWriter *w = ttv_test_kernel_ctf_writer_new (trace);
  const char *const names[] = { "sched_switch", "syscall_entry_openat", "syscall_exit_openat", "syscall_entry_read",
                                "syscall_exit_read", "sched_process_exit", "sched_process_free",
                                "sched_process_fork" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (TtvType) fields = freed_fields (i);
      g_assert_cmpint (ttv_ctf_writer_add_event (w, names[i], fields, &error), ==, (gint) i);
    }
  gboolean lost = g_str_equal (mode, "lost");
  const TtvTime base = 1000000000;
  freed_switch (w, base + 10 * US, 0, 0, 100);
  freed_open (w, base + 20 * US, "/etc/a", 5);
  freed_read (w, base + 30 * US, 5);
  freed_task (w, base + 40 * US, FREED_EXIT, 100);
  freed_switch (w, base + 50 * US, 100, 64, 0);   /* EXIT_DEAD */
  if (!lost)
    freed_task (w, base + 60 * US, FREED_FREE, 100);
  /* The pid again: by a fork (its free lost), or first seen running
   * (freed: the fork was not traced). */
  if (lost)
    freed_fork (w, base + 70 * US, 100);
  freed_switch (w, base + 80 * US, 0, 0, 100);
  freed_read (w, base + 90 * US, 5);
  freed_open (w, base + 100 * US, "/etc/b", 6);
  freed_read (w, base + 120 * US, 6);
  /* An empty path (AT_EMPTY_PATH) names no file. */
  freed_open (w, base + 125 * US, "", -2);
  freed_switch (w, base + 130 * US, 100, 1, 0);
  g_assert_true (ttv_ctf_writer_close (w, &error));

  Fixture f = { 0 };
  f.ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (f.ts, trace, &error));
  g_autoptr (GPtrArray) classes = g_ptr_array_new ();
  g_ptr_array_add (classes, (gpointer) &ttv_syscall_analysis);
  TtvAnalysisOptions ao = { .no_cache = TRUE };
  f.analyses = ttv_analysis_run_many (f.ts, classes, &ao, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (GArray) calls = records (&f, &ttv_syscall_analysis, "calls");
  g_assert_cmpuint (calls->len, ==, 6);
  g_assert_cmpuint (g_array_index (calls, TtvSyscallRecord, 5).file, ==, TTV_ANALYSIS_NO_STRING);
  /* In time order: open, read, read, open, read. */
  const char *want[] = { "/etc/a", "/etc/a", "", "/etc/b", "/etc/b" };   /* "": no file known */
  g_autoptr (GPtrArray) got = g_ptr_array_new ();
  for (guint i = 0; i < calls->len; i++)
    {
      const TtvSyscallRecord *r = &g_array_index (calls, TtvSyscallRecord, i);
      g_assert_cmpint (r->tid, ==, 100);
      g_ptr_array_add (got, (gpointer) str (&f, &ttv_syscall_analysis, r->file));
    }
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpstr (got->pdata[i], ==, want[i]);
  g_ptr_array_unref (f.analyses);
  ttv_traceset_unref (f.ts);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_data_func ("/analysis/truth/ctf", "ctf", test_truth);
  g_test_add_data_func ("/analysis/truth/ltt", "ltt", test_truth);
  g_test_add_data_func ("/analysis/truth/lttng", "lttng", test_truth);
  g_test_add_func ("/analysis/truth/probe", test_probe);
  g_test_add_func ("/analysis/truth/sched-waking", test_sched_waking);
  g_test_add_data_func ("/analysis/truth/freed-files/freed", "freed", test_freed_files);
  g_test_add_data_func ("/analysis/truth/freed-files/free-lost", "lost", test_freed_files);
  return g_test_run ();
}

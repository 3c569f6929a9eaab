/* test-state.c: the state engine against brute force and against the truth.
 * Traces come from the simulated kernel (whose own state is the truth) and
 * from the real CTF kernel traces in ../shared/traces when present. */
#include "ttv-test-util.h"
#include "ttv-ltt-sim.h"
#include "ttv-context.h"
#include "ttv-kernel-model.h"
#include "ttv-state-private.h"
#include "ttv-state-tracker.h"

#include <glib/gstdio.h>
#include <string.h>

#define N_CPUS 4
static const guint cpu_ids[N_CPUS] = { 0, 1, 3, 6 };

/* A sample of the simulator's truth after one event. */
typedef struct {
  TtvTime time;
  gint running[N_CPUS];
  gboolean unique;          /* the next event has a later time: the state at @time is this */
} Truth;

typedef struct {
  TtvSim *sim;
  GArray *truths;           /* of Truth */
  guint64 n;
  GRand *rand;
} Tap;

static gboolean
tap_event (gpointer data, gint stream, TtvTime time, guint event, const TtvScalar *values,
           guint n_values, GError **error)
{
  Tap *tap = data;
  tap->n++;
  if (tap->truths->len > 0)
    {
      Truth *last = &g_array_index (tap->truths, Truth, tap->truths->len - 1);
      if (last->unique && time == last->time)
        last->unique = FALSE;
    }
  if (stream >= 0 && g_rand_int_range (tap->rand, 0, 500) == 0)
    {
      Truth t = { time, { 0 }, TRUE };
      for (guint i = 0; i < N_CPUS; i++)
        t.running[i] = ttv_sim_get_running_pid (tap->sim, cpu_ids[i]);
      g_array_append_val (tap->truths, t);
    }
  return TRUE;
}

typedef struct {
  const char *dir;          /* the test's temporary directory */
  TtvTraceset *ts;
  GArray *truths;
  GHashTable *final_names;  /* pid -> name at the end, for live processes */
  gint final_running[N_CPUS];
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  guint64 n_events = GPOINTER_TO_SIZE (data);
  g_autoptr (GError) error = NULL;
  f->dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace_dir = g_build_filename (f->dir, "trace", NULL);

  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 7;
  so.cpu_ids = cpu_ids;
  so.n_cpus = N_CPUS;
  so.n_processes = 40;
  so.max_events = n_events;
  g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
  g_assert_no_error (error);
  Tap tap = { sim, g_array_new (FALSE, FALSE, sizeof (Truth)), 0, g_rand_new_with_seed (3) };
  ttv_test_write_ltt_simulation (trace_dir, sim, 16384, 7, tap_event, &tap);
  g_rand_free (tap.rand);
  f->truths = tap.truths;
  for (guint i = 0; i < N_CPUS; i++)
    f->final_running[i] = ttv_sim_get_running_pid (sim, cpu_ids[i]);
  f->final_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  for (guint pid = 1; pid < 100000; pid++)
    {
      const char *name = ttv_sim_get_process_name (sim, pid);
      if (name)
        g_hash_table_insert (f->final_names, GUINT_TO_POINTER (pid), g_strdup (name));
    }

  f->ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (f->ts, trace_dir, &error));
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  ttv_traceset_unref (f->ts);
  g_array_unref (f->truths);
  g_hash_table_unref (f->final_names);
}

static gint
running_pid (const TtvState *s, gint cpu)
{
  const TtvProcessState *p = ttv_state_get_running (s, cpu);
  return p ? (gint) p->pid : -1;
}

/* The state computed from the trace equals the simulator's own state. */
static void
test_truth (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (f->ts, NULL);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  const TtvState *end = ttv_state_tracker_get_state (tr);
  for (guint i = 0; i < N_CPUS; i++)
    g_assert_cmpint (running_pid (end, (gint) cpu_ids[i]), ==, f->final_running[i]);
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, f->final_names);
  guint checked = 0;
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      const TtvProcessState *p = ttv_state_get_process (end, GPOINTER_TO_UINT (k));
      g_assert_nonnull (p);
      g_assert_cmpstr (g_quark_to_string (p->name), ==, v);
      checked++;
    }
  g_assert_cmpuint (checked, >, 10);

  /* The trace starts with tasks already running, which it names when they
   * leave the CPU: until then the state cannot know them. */
  guint compared = 0, unknown = 0;
  for (guint i = 0; i < f->truths->len; i++)
    {
      const Truth *t = &g_array_index (f->truths, Truth, i);
      if (!t->unique)
        continue;
      g_autoptr (TtvState) s = ttv_state_tracker_dup_state_at (tr, t->time, &error);
      g_assert_no_error (error);
      for (guint c = 0; c < N_CPUS; c++)
        {
          gint got = running_pid (s, (gint) cpu_ids[c]);
          const TtvCpuState *cs = ttv_state_get_cpu (s, (gint) cpu_ids[c]);
          if (got < 0 && (cs == NULL || cs->running_pid == TTV_PID_NONE))
            {
              unknown++;
              continue;
            }
          g_assert_cmpint (got, ==, t->running[c]);
          compared++;
        }
    }
  g_assert_cmpuint (compared, >, 50 * N_CPUS);
  g_assert_cmpuint (unknown, <, compared / 10);
}

static void
check_checkpoints_against_replay (TtvTraceset *ts, const TtvCheckpointPolicy *policy, guint n_times,
                                  guint min_checkpoints)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (ts, policy);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_state_tracker_get_n_checkpoints (tr), >=, min_checkpoints);
  if (policy && policy->max_memory)
    g_assert_cmpuint (ttv_state_tracker_get_checkpoint_memory (tr), <=, policy->max_memory);

  /* Times at events (many of them shared by several CPUs), between events,
   * and outside the trace. */
  g_autoptr (GArray) times = ttv_test_event_times (ts);
  g_assert_cmpuint (times->len, >, 0);

  g_autoptr (GRand) rand = g_rand_new_with_seed (11);
  for (guint i = 0; i < n_times; i++)
    {
      TtvTime t;
      switch (i % 4)
        {
        case 0:
          t = g_array_index (times, TtvTime, g_rand_int_range (rand, 0, (gint) times->len));
          break;
        case 1:
          t = g_array_index (times, TtvTime, g_rand_int_range (rand, 0, (gint) times->len)) - 1;
          break;
        case 2:
          t = ttv_traceset_get_start (ts) + (TtvTime) (g_rand_double (rand)
                                                       * (double) (ttv_traceset_get_end (ts) - ttv_traceset_get_start (ts)));
          break;
        default:
          t = i % 8 == 3 ? ttv_traceset_get_start (ts) - 5 : ttv_traceset_get_end (ts) + 5;
          break;
        }
      g_autoptr (TtvState) a = ttv_state_tracker_dup_state_at (tr, t, &error);
      g_assert_no_error (error);
      g_autoptr (TtvState) b = ttv_state_tracker_dup_state_by_replay (tr, t, &error);
      g_assert_no_error (error);
      g_autoptr (GString) diff = g_string_new (NULL);
      if (!ttv_state_equal (a, b, diff))
        g_error ("state at %" G_GINT64_FORMAT " through checkpoints differs from replay: %s", t, diff->str);
    }
}

static void
test_checkpoints (Fixture *f, gconstpointer data)
{
  TtvCheckpointPolicy policy = { 997, 0 };
  check_checkpoints_against_replay (f->ts, &policy, 200, 20);
}

/* A small memory budget thins the checkpoints but keeps the results. */
static void
test_checkpoint_memory_bound (Fixture *f, gconstpointer data)
{
  TtvCheckpointPolicy policy = { 500, 64 * 1024 };
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (f->ts, &policy);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  g_assert_cmpuint (ttv_state_tracker_get_interval (tr), >, 500);
  check_checkpoints_against_replay (f->ts, &policy, 60, 2);
}

/* Checkpoints kept in a file: memory holds only where they are, so a
 * budget that would thin them in memory does not; the states read back
 * are the replayed ones; the file has no name; a small file budget thins. */
static void
test_checkpoint_spill (Fixture *f, gconstpointer data)
{
  g_autofree char *spill_dir = g_build_filename (f->dir, "spill", NULL);
  TtvCheckpointPolicy in_memory = { 997, 64 * 1024, NULL, 0 };
  TtvCheckpointPolicy spilled = { 997, 64 * 1024, spill_dir, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateTracker) mem = ttv_state_tracker_new (f->ts, &in_memory);
  g_assert_true (ttv_state_tracker_build (mem, NULL, NULL, NULL, &error));
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (f->ts, &spilled);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (ttv_state_tracker_get_interval (mem), >, 997);
  g_assert_cmpuint (ttv_state_tracker_get_interval (tr), ==, 997);
  g_assert_cmpuint (ttv_state_tracker_get_n_checkpoints (tr), >=, 40);
  g_assert_cmpuint (ttv_state_tracker_get_checkpoint_memory (tr), <=, spilled.max_memory);
  g_assert_cmpuint (ttv_state_tracker_get_checkpoint_spill (tr), >, 0);
  g_assert_cmpuint (ttv_state_tracker_get_checkpoint_spill (mem), ==, 0);
  /* Nothing left in the directory: the file is unnamed (or unlinked). */
  g_autoptr (GDir) dir = g_dir_open (spill_dir, 0, &error);
  g_assert_no_error (error);
  g_assert_null (g_dir_read_name (dir));
  check_checkpoints_against_replay (f->ts, &spilled, 120, 40);

  /* A snapshot of the final state reads back equal. */
  TtvState *last = ttv_state_tracker_get_state (tr);
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  ttv_state_snapshot (last, bytes);
  g_autoptr (TtvState) back = ttv_state_from_snapshot (bytes->data, bytes->len);
  g_assert_nonnull (back);
  g_autoptr (GString) diff = g_string_new (NULL);
  if (!ttv_state_equal (last, back, diff))
    g_error ("snapshot differs: %s", diff->str);
  /* Cut short or damaged: refused, never read past its end. */
  g_assert_null (ttv_state_from_snapshot (bytes->data, bytes->len - 1));
  g_assert_null (ttv_state_from_snapshot (bytes->data, 3));
  bytes->data[0] ^= 0xff;
  g_assert_null (ttv_state_from_snapshot (bytes->data, bytes->len));

  /* A file budget of a few snapshots thins them, results unchanged. */
  TtvCheckpointPolicy small_file = { 997, 64 * 1024, spill_dir, 4 * bytes->len };
  g_autoptr (TtvStateTracker) thin = ttv_state_tracker_new (f->ts, &small_file);
  g_assert_true (ttv_state_tracker_build (thin, NULL, NULL, NULL, &error));
  g_assert_cmpuint (ttv_state_tracker_get_interval (thin), >, 997);
  g_assert_cmpuint (ttv_state_tracker_get_checkpoint_spill (thin), <=, small_file.max_spill);
  check_checkpoints_against_replay (f->ts, &small_file, 40, 2);
}

/* Statistics against counts made here, by plain reading. */
static void
test_statistics (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (f->ts, NULL);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  TtvStatistics *st = ttv_state_tracker_get_statistics (tr);

  TtvTrace *trace = ttv_traceset_get_trace (f->ts, 0);
  g_autoptr (GHashTable) per_type = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) per_cpu = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) syscalls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* Per CPU the running pid; per pid the open syscall names (a stack). */
  gint running[8] = { -1, -1, -1, -1, -1, -1, -1, -1 };
  g_autoptr (GHashTable) open = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                       (GDestroyNotify) g_ptr_array_unref);
  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  g_autoptr (TtvContext) ctx = ttv_context_new (f->ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  guint64 total = 0;
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      total++;
      gpointer k = GUINT_TO_POINTER (ev->type->id);
      g_hash_table_insert (per_type, k, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (per_type, k)) + 1));
      k = GINT_TO_POINTER (ev->tracefile->cpu);
      g_hash_table_insert (per_cpu, k, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (per_cpu, k)) + 1));

      const char *name = ev->type->name;
      gboolean entry = g_str_equal (name, "syscall_entry"), exit = g_str_equal (name, "syscall_exit");
      if (!g_str_equal (name, "sched_switch") && !entry && !exit)
        continue;
      ttv_decoder_reset (dec);
      gint32 root = ttv_event_decode_fields (ev, dec, &error);
      g_assert_no_error (error);
      const TtvValue *r = ttv_decoder_get (dec, (guint32) root);
      gint cpu = ev->tracefile->cpu;
      if (g_str_equal (name, "sched_switch"))
        {
          guint64 next;
          g_assert_true (ttv_value_get_uint (ttv_decoder_get_field (dec, r, "next_pid"), &next));
          running[cpu] = (gint) next;
          continue;
        }
      if (running[cpu] < 0)
        continue;
      GPtrArray *stack = g_hash_table_lookup (open, GINT_TO_POINTER (running[cpu]));
      if (stack == NULL)
        {
          stack = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (open, GINT_TO_POINTER (running[cpu]), stack);
        }
      if (entry)
        {
          const TtvValue *id = ttv_decoder_get_field (dec, r, "syscall_id");
          g_ptr_array_add (stack, g_strdup (ttv_type_enum_label (id->type, id->v.u)));
        }
      else if (stack->len > 0)
        {
          char *sc = g_ptr_array_steal_index (stack, stack->len - 1);
          g_hash_table_insert (syscalls, sc, GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (syscalls, sc)) + 1));
        }
    }
  g_assert_no_error (error);

  g_assert_cmpuint (ttv_statistics_get_n_events (st), ==, total);
  for (guint i = 0; i < trace->event_types->len; i++)
    g_assert_cmpuint (ttv_statistics_get_type_count (st, 0, i), ==,
                      GPOINTER_TO_SIZE (g_hash_table_lookup (per_type, GUINT_TO_POINTER (i))));
  for (guint i = 0; i < N_CPUS; i++)
    g_assert_cmpuint (ttv_statistics_get_cpu_count (st, (gint) cpu_ids[i]), ==,
                      GPOINTER_TO_SIZE (g_hash_table_lookup (per_cpu, GINT_TO_POINTER (cpu_ids[i]))));
  GHashTableIter it;
  gpointer k, v;
  g_hash_table_iter_init (&it, syscalls);
  guint n_names = 0;
  while (g_hash_table_iter_next (&it, &k, &v))
    {
      const TtvDurationStats *ds = ttv_statistics_get_syscall (st, k);
      g_assert_nonnull (ds);
      g_assert_cmpuint (ds->count, ==, GPOINTER_TO_SIZE (v));
      g_assert_cmpint (ds->min, <=, ds->max);
      g_assert_cmpint (ds->total, >=, ds->max);
      n_names++;
    }
  g_assert_cmpuint (n_names, >, 5);

  /* The text table lists every syscall seen. */
  g_autoptr (GString) text = g_string_new (NULL);
  ttv_statistics_append_text (st, text);
  g_assert_nonnull (strstr (text->str, "\nsyscall "));
  g_assert_nonnull (strstr (text->str, "core.sched_switch"));
}

/* The kernel model of every trace of @ts. */
static TtvKernelModel *
kernel_model_of (TtvTraceset *ts)
{
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  return ttv_kernel_model_new (traces);
}

/* The shared real trace @name, or NULL when ../shared/traces is absent. */
static TtvTraceset *
open_shared_ctf (const char *name)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace (name);
  if (path == NULL)
    return NULL;
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  if (!ttv_traceset_add_path (ts, path, &error))
    g_error ("%s: %s", path, error->message);
  return ts;
}

/* After each sched_switch of a real trace, the task leaving the CPU has the
 * status its prev_state says, read here by the rules of the 3.x kernels
 * these traces come from: 0 runnable, TASK_RUNNING | TASK_STATE_MAX (1024)
 * preempted, so runnable too; TASK_INTERRUPTIBLE (1), TASK_UNINTERRUPTIBLE
 * (2) and TASK_KILLABLE (130) blocked. */
static void
check_switch_states (TtvTraceset *ts)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvKernelModel) model = kernel_model_of (ts);
  g_autoptr (TtvState) state = ttv_state_new ();
  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  g_autoptr (GHashTable) exited = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint checked[2] = { 0, 0 };
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      ttv_kernel_model_apply (model, state, 0, ev);
      gboolean exit = g_str_equal (ev->type->name, "sched_process_exit");
      if (!exit && !g_str_equal (ev->type->name, "sched_switch"))
        continue;
      ttv_decoder_reset (dec);
      const TtvValue *root = ttv_decoder_get (dec, (guint32) ttv_event_decode_fields (ev, dec, &error));
      gint64 prev, prev_state;
      if (exit)
        {
          /* Preempted on its way out, an exiting task is shown a zombie. */
          g_assert_true (ttv_value_get_int (ttv_decoder_get_field (dec, root, "tid"), &prev));
          g_hash_table_add (exited, GINT_TO_POINTER ((gint) prev));
          continue;
        }
      g_assert_true (ttv_value_get_int (ttv_decoder_get_field (dec, root, "prev_tid"), &prev));
      g_assert_true (ttv_value_get_int (ttv_decoder_get_field (dec, root, "prev_state"), &prev_state));
      if (prev == 0 || g_hash_table_contains (exited, GINT_TO_POINTER ((gint) prev)))
        continue;
      TtvProcessStatus want;
      if (prev_state == 0 || prev_state == 1024)
        want = TTV_PROCESS_WAIT_CPU;
      else if (prev_state == 1 || prev_state == 2 || prev_state == 130)
        want = TTV_PROCESS_WAIT;
      else
        continue;
      const TtvProcessState *p = ttv_state_get_process (state, (guint32) prev);
      g_assert_nonnull (p);
      if (p->status != want)
        g_error ("%" G_GINT64_FORMAT ": tid %" G_GINT64_FORMAT " left the CPU with prev_state %" G_GINT64_FORMAT
                 ": status %s, not %s", ev->time, prev, prev_state, ttv_process_status_name (p->status),
                 ttv_process_status_name (want));
      checked[want == TTV_PROCESS_WAIT]++;
    }
  g_assert_no_error (error);
  g_assert_cmpuint (checked[0] + checked[1], >, 100);
}

/* ttv_state_get_cpu_view() answers as the three lookups it stands for,
 * after every event of @ts, for CPUs 0 to 7 (some of them never seen) and
 * -1.  Returns how many answers had a known mode; @named: whether some
 * event named its own thread (a userspace trace). */
static guint64
check_cpu_views (TtvTraceset *ts, gboolean *named)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvKernelModel) model = kernel_model_of (ts);
  g_autoptr (TtvState) state = ttv_state_new ();
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  guint64 busy = 0;
  *named = FALSE;
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      ttv_kernel_model_apply (model, state, 0, ev);
      for (gint cpu = -1; cpu < 8; cpu++)
        {
          TtvExecMode mode;
          const TtvProcessState *p;
          const TtvCpuState *c = ttv_state_get_cpu_view (state, cpu, &mode, &p);
          g_assert_true (c == ttv_state_get_cpu (state, cpu));
          g_assert_cmpint (mode, ==, ttv_state_get_cpu_mode (state, cpu));
          g_assert_true (p == ttv_state_get_event_process (state, cpu));
          *named |= p != NULL && p != ttv_state_get_running (state, cpu);
          busy += mode != TTV_MODE_UNKNOWN;
        }
    }
  g_assert_no_error (error);
  return busy;
}

static void
assert_same_snapshots (const TtvState *a, const TtvState *b, const TtvEvent *ev)
{
  g_autoptr (GByteArray) sa = g_byte_array_new ();
  g_autoptr (GByteArray) sb = g_byte_array_new ();
  ttv_state_snapshot (a, sa);
  ttv_state_snapshot (b, sb);
  if (sa->len != sb->len || memcmp (sa->data, sb->data, sa->len) != 0)
    g_error ("after the event at %" G_GUINT64_FORMAT ": the state differs from the general path's", ev->time);
}

/* What the observers of the transitions' tests were told: a running hash
 * of every cpu_time notification, in order, and their number; and a
 * running hash of what cpu_spent tells of each (its CPU, its pid and how
 * long), from cpu_time or from cpu_spent. */
typedef struct {
  guint64 hash;
  guint64 n;
  guint64 spent_hash;
} Told;

static guint64
hash_words (guint64 hash, const guint64 *v, guint n)
{
  for (guint i = 0; i < n; i++)
    hash = (hash ^ v[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  return hash;
}

static void
told_cpu_time (gpointer data, gint cpu, guint32 pid, TtvExecMode mode, guint32 id, TtvTime start, TtvTime end)
{
  Told *told = data;
  guint64 v[] = { (guint64) cpu, pid, mode, id, (guint64) start, (guint64) end };
  told->hash = hash_words (told->hash, v, G_N_ELEMENTS (v));
  guint64 spent[] = { (guint64) cpu, pid, (guint64) (end - start) };
  told->spent_hash = hash_words (told->spent_hash, spent, G_N_ELEMENTS (spent));
  told->n++;
}

static void
told_cpu_spent (gpointer data, gint cpu, guint32 pid, TtvTime duration)
{
  Told *told = data;
  guint64 spent[] = { (guint64) cpu, pid, (guint64) duration };
  told->spent_hash = hash_words (told->spent_hash, spent, G_N_ELEMENTS (spent));
  told->n++;
}

static void
told_frame_end (gpointer data, gint cpu, guint32 pid, const TtvExecFrame *frame, TtvTime end)
{
}

/* An observer with frame_end makes the state end frames through its
 * general paths; one without it (the history builder) through the
 * observed ones (push_mode_observed () and the like). */
static const TtvStateObserver timed_framed = { .cpu_time = told_cpu_time, .frame_end = told_frame_end };
static const TtvStateObserver timed = { .cpu_time = told_cpu_time };
/* cpu_spent alone (the history builder's) takes its own way when it is
 * the only observer, the loop over observers beside another. */
static const TtvStateObserver spent = { .cpu_spent = told_cpu_spent };

static guint32
event_pid (const TtvState *s, gint cpu)
{
  const TtvProcessState *p = ttv_state_get_event_process (s, cpu);
  return p ? p->pid : TTV_PID_NONE;
}

/* The transitions' fast paths (a syscall, trap, IRQ or soft IRQ entered or
 * left by a known task, nothing observing the state) against their general paths, which an
 * observer listening to nothing forces: the same state after every event.
 * The paths taken with an observer without frame_end against those with
 * frame_end too: the same state, and the same cpu_time notifications.
 * cpu_spent, alone and beside a cpu_time observer: told the same as
 * cpu_time, in the same order.
 * And the kernel model's inline beginning of an event on the selected
 * machine (ttv_state_begin_event_on) against its general path, which
 * selecting a spare machine before each event forces (both states hold
 * that spare machine).  Returns how many events were checked. */
static guint64
check_quiet_transitions (TtvTraceset *ts)
{
  static const TtvStateObserver deaf = { NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvKernelModel) model = kernel_model_of (ts);
  g_autoptr (TtvState) fast = ttv_state_new ();
  g_autoptr (TtvState) general = ttv_state_new ();
  ttv_state_add_observer (general, &deaf, NULL);
  g_autoptr (TtvState) framed = ttv_state_new ();
  g_autoptr (TtvState) observed = ttv_state_new ();
  Told told_framed = { 0 }, told_observed = { 0 };
  ttv_state_add_observer (framed, &timed_framed, &told_framed);
  ttv_state_add_observer (observed, &timed, &told_observed);
  g_autoptr (TtvState) spent_alone = ttv_state_new ();
  g_autoptr (TtvState) spent_beside = ttv_state_new ();
  Told told_spent_alone = { 0 }, told_spent_beside = { 0 }, told_timed_beside = { 0 };
  ttv_state_add_observer (spent_alone, &spent, &told_spent_alone);
  ttv_state_add_observer (spent_beside, &timed, &told_timed_beside);
  ttv_state_add_observer (spent_beside, &spent, &told_spent_beside);
  /* Machine ids are below the number of traces. */
  guint spare = ttv_traceset_get_n_traces (ts);
  g_autoptr (TtvState) inline_begin = ttv_state_new ();
  g_autoptr (TtvState) other_machine = ttv_state_new ();
  ttv_state_select_machine (inline_begin, spare);
  ttv_state_select_machine (inline_begin, 0);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  guint64 n = 0;
  const TtvEvent *ev = NULL, *last = NULL;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      guint trace = ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx));
      ttv_kernel_model_apply (model, fast, trace, ev);
      ttv_kernel_model_apply (model, general, trace, ev);
      ttv_kernel_model_apply (model, framed, trace, ev);
      ttv_kernel_model_apply (model, observed, trace, ev);
      ttv_kernel_model_apply (model, spent_alone, trace, ev);
      ttv_kernel_model_apply (model, spent_beside, trace, ev);
      ttv_kernel_model_apply (model, inline_begin, trace, ev);
      ttv_state_select_machine (other_machine, spare);
      ttv_kernel_model_apply (model, other_machine, trace, ev);
      gint cpu = ev->tracefile->cpu;
      g_assert_cmpint (ttv_state_get_cpu_mode (fast, cpu), ==, ttv_state_get_cpu_mode (general, cpu));
      g_assert_cmpstr (ttv_state_get_event_syscall (fast, cpu), ==, ttv_state_get_event_syscall (general, cpu));
      g_assert_cmpuint (ttv_state_get_n_events (inline_begin), ==, ttv_state_get_n_events (other_machine));
      g_assert_cmpuint (event_pid (inline_begin, cpu), ==, event_pid (other_machine, cpu));
      g_assert_cmpstr (ttv_state_get_event_syscall (observed, cpu), ==, ttv_state_get_event_syscall (framed, cpu));
      g_assert_cmpuint (told_observed.n, ==, told_framed.n);
      g_assert_cmpuint (told_spent_alone.n, ==, told_observed.n);
      g_assert_cmpuint (told_spent_beside.n, ==, told_observed.n);
      if (++n % 997 == 0)
        {
          assert_same_snapshots (fast, general, ev);
          assert_same_snapshots (framed, general, ev);
          assert_same_snapshots (observed, general, ev);
          assert_same_snapshots (inline_begin, other_machine, ev);
        }
      last = ev;
    }
  g_assert_no_error (error);
  if (last)
    {
      assert_same_snapshots (fast, general, last);
      assert_same_snapshots (framed, general, last);
      assert_same_snapshots (observed, general, last);
      assert_same_snapshots (inline_begin, other_machine, last);
    }
  g_assert_cmpuint (told_observed.hash, ==, told_framed.hash);
  g_assert_cmpuint (told_timed_beside.hash, ==, told_observed.hash);
  g_assert_cmpuint (told_spent_alone.spent_hash, ==, told_observed.spent_hash);
  g_assert_cmpuint (told_spent_beside.spent_hash, ==, told_observed.spent_hash);
  g_test_message ("%" G_GUINT64_FORMAT " CPU times told", told_observed.n);
  return n;
}

/* Which of the two tasks of a switch, looked up by their pids, are not
 * idle tasks and have no name. */
static guint
unnamed_tasks (const TtvState *s, guint32 prev, guint32 next)
{
  const TtvProcessState *p = ttv_state_get_process (s, prev);
  const TtvProcessState *n = ttv_state_get_process (s, next);
  return (prev != 0 && p && p->name == 0 ? TTV_SWITCH_PREV_UNNAMED : 0)
         | (next != 0 && n && n->name == 0 ? TTV_SWITCH_NEXT_UNNAMED : 0);
}

/* The same fast paths on random transitions, frames left open and exits
 * without their entries (what lost events leave) included: pops of a mode
 * that is not the top frame's, of a mode the task is not in, pushes past
 * the nesting limit, switches between tasks, CPUs seen for the first time. */
static void
test_quiet_transitions (void)
{
  static const TtvStateObserver deaf = { NULL };
  static const TtvExecMode modes[] = { TTV_MODE_SYSCALL, TTV_MODE_TRAP, TTV_MODE_IRQ, TTV_MODE_SOFTIRQ };
  g_autoptr (GRand) rand = g_rand_new_with_seed (15);
  g_autoptr (TtvState) fast = ttv_state_new ();
  g_autoptr (TtvState) general = ttv_state_new ();
  ttv_state_add_observer (general, &deaf, NULL);
  g_autoptr (TtvState) framed = ttv_state_new ();
  g_autoptr (TtvState) observed = ttv_state_new ();
  Told told_framed = { 0 }, told_observed = { 0 };
  ttv_state_add_observer (framed, &timed_framed, &told_framed);
  ttv_state_add_observer (observed, &timed, &told_observed);
  TtvState *both[4] = { fast, general, framed, observed };
  GQuark calls[3] = { 0, g_quark_from_static_string ("read"), g_quark_from_static_string ("write") };
  TtvEvent ev = { 0 };
  for (guint n = 0; n < 200000; n++)
    {
      TtvTime t = 1000 + n * 10;
      gint cpu = g_rand_int_range (rand, 0, 3);
      TtvExecMode mode = modes[g_rand_int_range (rand, 0, G_N_ELEMENTS (modes))];
      guint32 id = (guint32) g_rand_int_range (rand, 0, 3);
      guint32 pid = (guint32) g_rand_int_range (rand, 0, 6);
      gint what = g_rand_int_range (rand, 0, 100);
      for (guint i = 0; i < G_N_ELEMENTS (both); i++)
        {
          /* The kernel model's inline beginning against the plain one. */
          if (i == 0)
            g_assert_true (ttv_state_begin_event_on (both[i], 0, t));
          else
            ttv_state_begin_event (both[i], t);
          if (what >= 95)
            ttv_state_user_event (both[i], cpu, pid + 100, pid + 100, NULL, t);
          else if (what < 5)
            {
              /* What the switch says of the tasks' names against their
               * lookups; some tasks named on the way. */
              guint32 prev = what < 3 ? TTV_PID_NONE : id;
              guint unnamed = ttv_state_sched_switch (both[i], cpu, prev, pid, TTV_PROCESS_WAIT, t);
              g_assert_cmpuint (unnamed, ==, unnamed_tasks (both[i], prev, pid));
              if (what == 4)
                ttv_state_name_process (both[i], pid, "named");
            }
          else if (what < 45)
            ttv_state_push_mode (both[i], cpu, mode, id, t);
          else if (what < 70)
            ttv_state_pop_mode (both[i], cpu, mode, t);
          else
            ttv_state_syscall_exit (both[i], cpu, calls[id], t);
        }
      g_assert_cmpint (ttv_state_get_cpu_mode (fast, cpu), ==, ttv_state_get_cpu_mode (general, cpu));
      g_assert_cmpstr (ttv_state_get_event_syscall (fast, cpu), ==, ttv_state_get_event_syscall (general, cpu));
      g_assert_cmpuint (event_pid (fast, cpu), ==, event_pid (general, cpu));
      g_assert_cmpstr (ttv_state_get_event_syscall (observed, cpu), ==, ttv_state_get_event_syscall (framed, cpu));
      g_assert_cmpuint (told_observed.n, ==, told_framed.n);
      if (n % 101 == 0)
        {
          ev.time = t;
          assert_same_snapshots (fast, general, &ev);
          assert_same_snapshots (framed, general, &ev);
          assert_same_snapshots (observed, general, &ev);
        }
    }
  g_assert_cmpuint (told_observed.hash, ==, told_framed.hash);
  g_assert_cmpuint (told_observed.n, >, 1000);
}

static void
test_cpu_view (Fixture *f, gconstpointer data)
{
  gboolean named;
  g_assert_cmpuint (check_cpu_views (f->ts, &named), >, 0);
  g_assert_cmpuint (check_quiet_transitions (f->ts), >, 0);
  g_assert_false (named);
  g_autoptr (TtvTraceset) ts = open_shared_ctf ("glxgears-ust");
  if (ts == NULL)
    return;
  check_cpu_views (ts, &named);
  g_assert_true (named);
  g_assert_cmpuint (check_quiet_transitions (ts), >, 0);
}

/* The real LTTng kernel traces: checkpoints against replay. */
static void
test_real_ctf (gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = open_shared_ctf (data);
  if (ts == NULL)
    return;
  TtvCheckpointPolicy policy = { 1500, 0 };
  check_checkpoints_against_replay (ts, &policy, 80, 5);
  check_switch_states (ts);
  g_assert_cmpuint (check_quiet_transitions (ts), >, 0);

  /* A kernel trace has a running process on its CPUs at its end. */
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (ts, NULL);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  g_autoptr (GPtrArray) cpus = ttv_state_list_cpus (ttv_state_tracker_get_state (tr));
  g_assert_cmpuint (cpus->len, >, 0);
  guint known = 0;
  for (guint i = 0; i < cpus->len; i++)
    known += ((const TtvCpuState *) g_ptr_array_index (cpus, i))->running_pid != TTV_PID_NONE;
  g_assert_cmpuint (known, >, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/state/sim/truth", Fixture, GSIZE_TO_POINTER (120000), fixture_set_up, test_truth, fixture_tear_down);
  g_test_add ("/state/sim/checkpoints", Fixture, GSIZE_TO_POINTER (60000), fixture_set_up, test_checkpoints, fixture_tear_down);
  g_test_add ("/state/sim/checkpoint-memory", Fixture, GSIZE_TO_POINTER (40000), fixture_set_up, test_checkpoint_memory_bound, fixture_tear_down);
  g_test_add ("/state/sim/checkpoint-spill", Fixture, GSIZE_TO_POINTER (60000), fixture_set_up, test_checkpoint_spill, fixture_tear_down);
  g_test_add ("/state/sim/statistics", Fixture, GSIZE_TO_POINTER (80000), fixture_set_up, test_statistics, fixture_tear_down);
  g_test_add ("/state/sim/cpu-view", Fixture, GSIZE_TO_POINTER (20000), fixture_set_up, test_cpu_view, fixture_tear_down);
  g_test_add_func ("/state/quiet-transitions", test_quiet_transitions);
  g_test_add_data_func ("/state/ctf/arm64-kernel", "arm64-kernel", test_real_ctf);
  g_test_add_data_func ("/state/ctf/bigendian-kernel", "bigendian-kernel", test_real_ctf);
  g_test_add_data_func ("/state/ctf/scp-kernel", "scp-kernel", test_real_ctf);
  return g_test_run ();
}

/* test-ctf-writer.c: the CTF 1.8 writer and ttv-gen --format ctf, read back by
 * our CTF reader (values, state) and by babeltrace2 when it is installed. */
#include "ttv-test-util.h"
#include "ttv-ctf-net-dev.h"
#include "ttv-ctf-sim.h"
#include "ttv-ctf.h"
#include "ttv-context.h"
#include "ttv-decoder.h"
#include "ttv-error.h"
#include "ttv-field-accessor.h"
#include "ttv-state-tracker.h"
#include "ttv-traceset.h"

#include <glib/gstdio.h>
#include <string.h>

#define N_CPUS 3
static const guint cpu_ids[N_CPUS] = { 0, 1, 3 };

/* --- The simulation, recorded through the tap ---------------------------------- */

typedef struct {
  TtvTime time;
  guint cpu;
  guint event;
  guint64 v[4];
  char *str;
  char *syscall;                  /* SYSCALL_ENTRY: the enum label */
} Expected;

typedef struct {
  TtvSim *sim;
  GArray *expected;               /* of Expected */
  const TtvType *syscall_enum;    /* weak */
} Tap;

static gboolean
tap_event (gpointer data, gint stream, TtvTime time, guint event, const TtvScalar *values,
           guint n_values, GError **error)
{
  Tap *tap = data;
  Expected e = { time, stream < 0 ? cpu_ids[0] : (guint) stream, event, { 0 }, NULL, NULL };
  for (guint i = 0; i < MIN (n_values, 4); i++)
    if (values[i].kind == TTV_TYPE_INTEGER)
      e.v[i] = values[i].u;
  if (event == TTV_SIM_EVENT_PROCESS)
    {
      e.str = g_strdup (values[0].str);
      e.v[0] = values[1].u;
      e.v[1] = values[2].u;
    }
  else if (event == TTV_SIM_EVENT_INTERRUPT)
    e.str = g_strdup (values[3].str);
  else if (event == TTV_SIM_EVENT_PROCESS_EXEC)
    e.str = g_strdup (values[1].str);
  else if (event == TTV_SIM_EVENT_DEV_XMIT || event == TTV_SIM_EVENT_NETIF_RECEIVE)
    e.str = g_strdup (values[2].str);
  else if (event == TTV_SIM_EVENT_SYSCALL_ENTRY)
    e.syscall = g_strdup (ttv_type_enum_label (tap->syscall_enum, values[0].u));
  g_array_append_val (tap->expected, e);
  return TRUE;
}

static void
expected_clear (gpointer data)
{
  Expected *e = data;
  g_free (e->str);
  g_free (e->syscall);
}

/* Fields to compare, by sim event: CTF field name and index in Expected.v
 * (-1: the string). */
typedef struct {
  const char *name;
  gint index;
} Check;

static const Check checks[TTV_SIM_N_EVENTS][5] = {
  [TTV_SIM_EVENT_SYSCALL_EXIT] = { { "ret", 0 } },
  [TTV_SIM_EVENT_TRAP_ENTRY] = { { "trap_id", 0 }, { "address", 1 } },
  [TTV_SIM_EVENT_IRQ_ENTRY] = { { "irq", 0 } },
  [TTV_SIM_EVENT_SOFT_IRQ_ENTRY] = { { "vec", 0 } },
  [TTV_SIM_EVENT_SOFT_IRQ_EXIT] = { { "vec", 0 } },
  [TTV_SIM_EVENT_SCHED_SWITCH] = { { "prev_tid", 0 }, { "next_tid", 1 } },
  [TTV_SIM_EVENT_SCHED_WAKEUP] = { { "tid", 0 }, { "target_cpu", 1 } },
  [TTV_SIM_EVENT_PROCESS_FORK] = { { "parent_tid", 0 }, { "child_tid", 1 }, { "child_pid", 2 } },
  [TTV_SIM_EVENT_PROCESS_EXEC] = { { "tid", 0 }, { "filename", -1 } },
  [TTV_SIM_EVENT_PROCESS_EXIT] = { { "tid", 0 } },
  [TTV_SIM_EVENT_PROCESS_FREE] = { { "tid", 0 } },
  [TTV_SIM_EVENT_PROCESS] = { { "tid", 0 }, { "ppid", 1 }, { "name", -1 } },
  [TTV_SIM_EVENT_INTERRUPT] = { { "irq", 0 }, { "name", -1 } },
  [TTV_SIM_EVENT_REQUEST_ISSUE] = { { "dev", 0 }, { "sector", 1 }, { "nr_sector", 2 }, { "rwbs", 3 } },
  [TTV_SIM_EVENT_REQUEST_COMPLETE] = { { "dev", 0 }, { "sector", 1 }, { "nr_sector", 2 }, { "error", 3 } },
  [TTV_SIM_EVENT_DEV_XMIT] = { { "skbaddr", 0 }, { "len", 1 }, { "name", -1 } },
  [TTV_SIM_EVENT_NETIF_RECEIVE] = { { "skbaddr", 0 }, { "len", 1 }, { "name", -1 } },
};

typedef struct {
  char *dir;
  GArray *expected;
  gint final_running[N_CPUS];
  guint64 n_events;
} Generated;

static Generated *
generate (const char *name, TtvByteOrder order, guint long_bits, TtvCtfHeaderKind header,
          guint32 packet_size, guint64 n_events)
{
  g_autoptr (GError) error = NULL;
  Generated *g = g_new0 (Generated, 1);
  g->dir = g_build_filename (ttv_test_get_tmp_dir (), name, NULL);
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 11;
  so.cpu_ids = cpu_ids;
  so.n_cpus = N_CPUS;
  so.n_processes = 30;
  so.max_events = n_events;
  so.long_bits = so.pointer_bits = long_bits;
  g_autoptr (TtvSim) sim = ttv_sim_new (&so, &error);
  g_assert_no_error (error);
  g_autoptr (TtvSimSchema) schema = ttv_sim_schema_new (order);
  Tap tap = { sim, g_array_new (FALSE, FALSE, sizeof (Expected)),
              ((TtvField *) g_ptr_array_index (
                 schema->events[TTV_SIM_EVENT_SYSCALL_ENTRY].fields->fields, 0))->type };
  g_array_set_clear_func (tap.expected, expected_clear);
  TtvCtfWriterOptions wo = { .byte_order = order, .header = header, .packet_size = packet_size,
                             .long_bits = long_bits, .hostname = "test-host" };
  TtvCtfSimStats stats;
  g_assert_true (ttv_ctf_write_simulation (g->dir, sim, &wo, tap_event, &tap, &stats, &error));
  g_assert_no_error (error);
  /* The sim's events, and the statedump's files the writer adds. */
  g_assert_cmpuint (stats.n_events, >, tap.expected->len);
  g_assert_cmpuint (stats.n_events, <=, tap.expected->len + 3 * so.n_processes);
  g_assert_cmpuint (stats.n_packets, >, N_CPUS);
  g->expected = tap.expected;
  g->n_events = stats.n_events;
  for (guint i = 0; i < N_CPUS; i++)
    g->final_running[i] = ttv_sim_get_running_pid (sim, cpu_ids[i]);
  return g;
}

static void
generated_free (Generated *g)
{
  ttv_test_remove_tree (g->dir);
  g_free (g->dir);
  g_array_unref (g->expected);
  g_free (g);
}

static TtvTraceset *
open_trace (const char *dir)
{
  g_autoptr (GError) error = NULL;
  TtvTraceset *ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, dir, &error));
  g_assert_no_error (error);
  return ts;
}

/* Every stream holds the sim's events of its CPU, in order, with their
 * names, times and values. */
static void
check_against_sim (Generated *g)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = open_trace (g->dir);
  TtvTrace *trace = ttv_traceset_get_trace (ts, 0);
  g_assert_true (ttv_ctf_trace_is_ctf (trace));
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_no_error (error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));

  /* The expected events of each CPU, in order. */
  g_autoptr (GHashTable) next = g_hash_table_new (NULL, NULL);   /* cpu -> index + 1 of last match */
  TtvDecoder *scratch = ttv_decoder_new ();
  guint64 n = 0, n_checked_values = 0, n_with_checks = 0;
  guint n_syscall_exit_named = 0;
  const TtvEvent *ev;
  TtvTime prev_time = TTV_TIME_MIN;
  guint n_files = 0;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      g_assert_cmpint (ev->time, >=, prev_time);
      prev_time = ev->time;
      guint cpu = (guint) ev->tracefile->cpu;
      /* The files of the statedump: the writer's own events, after their
       * process's state. */
      if (g_str_equal (ev->type->name, "lttng_statedump_file_descriptor"))
        {
          n_files++;
          continue;
        }
      guint i = GPOINTER_TO_UINT (g_hash_table_lookup (next, GUINT_TO_POINTER (cpu)));
      while (i < g->expected->len && g_array_index (g->expected, Expected, i).cpu != cpu)
        i++;
      g_assert_cmpuint (i, <, g->expected->len);
      const Expected *e = &g_array_index (g->expected, Expected, i);
      g_hash_table_insert (next, GUINT_TO_POINTER (cpu), GUINT_TO_POINTER (i + 1));
      n++;

      g_assert_cmpint (ev->time, ==, e->time);
      const char *name = ev->type->name;
      if (e->event == TTV_SIM_EVENT_SYSCALL_ENTRY)
        {
          g_autofree char *want = g_strconcat ("syscall_entry_", e->syscall, NULL);
          g_assert_cmpstr (name, ==, want);
        }
      else if (e->event == TTV_SIM_EVENT_SYSCALL_EXIT)
        {
          g_assert_true (g_str_has_prefix (name, "syscall_exit_"));
          n_syscall_exit_named += !g_str_equal (name, "syscall_exit_unknown");
        }
      else
        g_assert_cmpstr (name, ==, ttv_ctf_sim_event_name (e->event));

      n_with_checks += checks[e->event][0].name != NULL;
      for (guint c = 0; c < 5 && checks[e->event][c].name; c++)
        {
          TtvFieldAccessor acc;
          ttv_field_accessor_init (&acc, ev->type, checks[e->event][c].name);
          g_assert_true (ttv_field_accessor_is_valid (&acc));
          if (checks[e->event][c].index < 0)
            {
              gsize len = 0;
              const char *s = ttv_field_accessor_get_string (&acc, ev, scratch, &len);
              g_assert_nonnull (s);
              g_autofree char *got = g_strndup (s, len);
              g_autofree char *want = g_strndup (e->str, 15);
              g_assert_cmpstr (got, ==, checks[e->event][c].name[0] == 'f' ? e->str : want);
            }
          else
            {
              gint64 v = 0;
              g_assert_true (ttv_field_accessor_get_int (&acc, ev, scratch, &v));
              g_assert_cmpint (v, ==, (gint64) e->v[checks[e->event][c].index]);
            }
          n_checked_values++;
        }
    }
  g_assert_no_error (error);
  ttv_decoder_free (scratch);
  g_assert_cmpuint (n, ==, g->expected->len);
  /* Every event with fields to check had them checked. */
  g_assert_cmpuint (n_with_checks, >, n / 2);
  g_assert_cmpuint (n_checked_values, >=, n_with_checks);
  g_assert_cmpuint (n_syscall_exit_named, >, 100);
  g_assert_cmpuint (n_files, >, 0);
}

static void
check_state (Generated *g)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = open_trace (g->dir);
  g_autoptr (TtvStateTracker) tr = ttv_state_tracker_new (ts, NULL);
  g_assert_true (ttv_state_tracker_build (tr, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  const TtvState *end = ttv_state_tracker_get_state (tr);
  for (guint i = 0; i < N_CPUS; i++)
    {
      const TtvProcessState *p = ttv_state_get_running (end, (gint) cpu_ids[i]);
      g_assert_cmpint (p ? (gint) p->pid : -1, ==, g->final_running[i]);
    }
}

static void
test_sim (gconstpointer data)
{
  guint variant = GPOINTER_TO_UINT (data);
  Generated *g = variant == 0 ? generate ("le64", TTV_BYTE_ORDER_LITTLE, 64, TTV_CTF_HEADER_COMPACT, 4096, 30000)
                              : generate ("be32", TTV_BYTE_ORDER_BIG, 32, TTV_CTF_HEADER_LARGE, 2048, 20000);
  check_against_sim (g);
  check_state (g);
  generated_free (g);
}

/* --- babeltrace2 and ttv-report ------------------------------------------------ */

static gboolean
run (const char * const *argv, char **out, char **err, gint *status)
{
  g_autoptr (GError) error = NULL;
  gboolean ok = g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                              status, &error);
  g_assert_no_error (error);
  return ok;
}

/* Splits @s in place at newlines (a plain loop: g_strsplit's strstr calls are
 * quadratic under ASan's strict string checks). */
static GPtrArray *
split_lines (char *s)
{
  GPtrArray *lines = g_ptr_array_new ();
  char *start = s;
  for (char *p = s; *p; p++)
    if (*p == '\n')
      {
        *p = '\0';
        g_ptr_array_add (lines, start);
        start = p + 1;
      }
  if (*start)
    g_ptr_array_add (lines, start);
  return lines;
}

static guint
count_lines (const char *s)
{
  guint n = 0;
  for (; *s; s++)
    n += *s == '\n';
  return n;
}

/* Compares `ttv-report --format=babeltrace` with `babeltrace2 --clock-gmt`
 * and checks that babeltrace2 says nothing on stderr. */
static void
compare_with_babeltrace (const char *dir, guint64 n_events)
{
  g_autofree char *bt = g_find_program_in_path ("babeltrace2");
  if (bt == NULL)
    {
      g_test_skip ("babeltrace2 not in PATH: cannot check that it reads the trace");
      return;
    }
  g_autofree char *out = NULL, *err = NULL;
  gint status = 0;
  const char *bt_argv[] = { bt, "--clock-gmt", dir, NULL };
  g_assert_true (run (bt_argv, &out, &err, &status));
  if (*err)
    g_test_message ("babeltrace2 stderr: %s", err);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpuint (count_lines (out), ==, n_events);

  g_autofree char *report = g_build_filename (TTV_REPORT_PATH, NULL);
  g_autofree char *mine = NULL, *mine_err = NULL;
  const char *r_argv[] = { report, "--format=babeltrace", dir, NULL };
  g_assert_true (run (r_argv, &mine, &mine_err, &status));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_autoptr (GPtrArray) want = split_lines (out);
  g_autoptr (GPtrArray) got = split_lines (mine);
  for (guint i = 0; i < want->len && i < got->len; i++)
    {
      const char *w = g_ptr_array_index (want, i), *g = g_ptr_array_index (got, i);
      if (!g_str_equal (w, g))
        {
          g_test_message ("line %u differs:\nbabeltrace2: %s\nttv:         %s", i + 1, w, g);
          g_assert_cmpstr (g, ==, w);
        }
    }
  g_assert_cmpuint (got->len, ==, want->len);
}

static void
test_ttv_gen (gconstpointer data)
{
  const char *variant = data;
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), variant, NULL);
  gboolean big = g_str_equal (variant, "gen-be-ilp32");
  const char *argv[] = { TTV_GEN_PATH, "--format", "ctf", "--cpu-ids", "0,2,5", "--events", "20000",
                         "--seed", "5", "--block-size", "8192", "-q", "-o", dir,
                         big ? "--arch-size=ILP32" : "--arch-size=LP64",
                         big ? "--endian=big" : "--endian=little", NULL };
  g_autofree char *out = NULL, *err = NULL;
  gint status = 0;
  g_assert_true (run (argv, &out, &err, &status));
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  /* Our reader: every event, in time order. */
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = open_trace (dir);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  guint64 n = 0, n_files = 0;
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      n++;
      /* The statedump's files, counted in -n as every event (ttv-gen.1). */
      n_files += g_str_equal (ev->type->name, "lttng_statedump_file_descriptor");
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n, ==, 20000);
  g_assert_cmpuint (n_files, >, 0);
  g_assert_cmpuint (ttv_traceset_get_n_tracefiles (ts), ==, 3);

  compare_with_babeltrace (dir, n);
  ttv_test_remove_tree (dir);
}

/* --- The writer API: every type, both headers, gaps, packets ------------------ */

static void
test_types (gconstpointer data)
{
  guint variant = GPOINTER_TO_UINT (data);
  TtvByteOrder order = variant & 1 ? TTV_BYTE_ORDER_BIG : TTV_BYTE_ORDER_LITTLE;
  TtvCtfHeaderKind header = variant & 2 ? TTV_CTF_HEADER_LARGE : TTV_CTF_HEADER_COMPACT;
  g_autofree char *name = g_strdup_printf ("types-%u", variant);
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), name, NULL);
  g_autoptr (GError) error = NULL;
  TtvCtfWriterOptions wo = { .byte_order = order, .header = header, .packet_size = 512,
                             .clock_offset = 1600000000 * TTV_NSEC_PER_SEC + 5,
                             .hostname = "types" };
  TtvCtfWriter *w = ttv_ctf_writer_new (dir, &wo, &error);
  g_assert_no_error (error);

  /* 40 classes: ids above 30 need extended compact headers. */
  for (guint i = 0; i < 39; i++)
    {
      g_autofree char *ename = g_strdup_printf ("filler_%u", i);
      g_autoptr (TtvType) st = ttv_type_new_struct ();
      ttv_type_add_field (st, "x", ttv_type_new_integer (16, FALSE, order, 16), NULL);
      ttv_type_finish (st);
      g_assert_cmpint (ttv_ctf_writer_add_event (w, ename, st, &error), ==, (gint) i);
    }
  g_autoptr (TtvType) st = ttv_type_new_struct ();
  ttv_type_add_field (st, "c", ttv_type_new_integer (8, TRUE, order, 8), NULL);
  ttv_type_add_field (st, "u16", ttv_type_new_integer (16, FALSE, order, 16), NULL);
  /* Packed as LTTng's "lttng_packed" layouts declare them: less aligned
   * than its size (the writer once aligned it to 8 bytes anyway). */
  ttv_type_add_field (st, "packed", ttv_type_new_integer (64, TRUE, order, 8), NULL);
  TtvType *hex = ttv_type_new_integer (32, FALSE, order, 32);
  hex->base = 16;
  ttv_type_add_field (st, "hex", hex, NULL);
  ttv_type_add_field (st, "s64", ttv_type_new_integer (64, TRUE, order, 64), NULL);
  ttv_type_add_field (st, "s", ttv_type_new_string (), NULL);
  TtvType *en = ttv_type_new_enum (ttv_type_new_integer (8, FALSE, order, 8));
  ttv_type_add_mapping (en, "ZERO", 0, 0);
  ttv_type_add_mapping (en, "SOME", 1, 9);
  ttv_type_add_field (st, "en", en, NULL);
  ttv_type_add_field (st, "d", ttv_type_new_float (64, order, 64), NULL);
  ttv_type_add_field (st, "f", ttv_type_new_float (32, order, 32), NULL);
  TtvType *ch = ttv_type_new_integer (8, FALSE, order, 8);
  ch->encoding = TTV_ENCODING_UTF8;
  ttv_type_add_field (st, "txt", ttv_type_new_array (ch, 8), NULL);
  ttv_type_add_field (st, "arr", ttv_type_new_array (ttv_type_new_integer (16, TRUE, order, 16), 3), NULL);
  ttv_type_add_field (st, "n", ttv_type_new_integer (32, FALSE, order, 32), NULL);
  ttv_type_add_field (st, "seq", ttv_type_new_sequence_ref (ttv_type_new_integer (32, FALSE, order, 32), "n"), NULL);
  TtvType *inner = ttv_type_new_struct ();
  ttv_type_add_field (inner, "a", ttv_type_new_integer (8, FALSE, order, 8), NULL);
  ttv_type_add_field (inner, "b", ttv_type_new_integer (64, FALSE, order, 64), NULL);
  ttv_type_add_field (st, "inner", inner, NULL);
  ttv_type_finish (st);
  gint big_id = ttv_ctf_writer_add_event (w, "everything", st, &error);
  g_assert_no_error (error);
  g_assert_cmpint (big_id, ==, 39);

  /* Gaps that need 64-bit timestamps (more than 2^27 and 2^32 ns). */
  static const TtvTime gaps[] = { 3, 1, 0, 200000000, 5, 5000000000, 1, 1, 1 << 26, 7 };
  TtvTime t = wo.clock_offset + 1000;
  guint n = 0;
  for (guint round = 0; round < 30; round++)
    for (guint i = 0; i < G_N_ELEMENTS (gaps); i++)
      {
        t += gaps[i];
        guint cpu = round % 2;   /* equal times only within a stream */
        if ((i + round) % 3 == 0)
          {
            g_autofree char *s = g_strdup_printf ("str\"%u\\'?\x01\x1b\x7f\t\n", n);
            guint count = n % 4;
            g_autoptr (GArray) v = g_array_new (FALSE, FALSE, sizeof (TtvScalar));
            TtvScalar head[] = {
              TTV_SCALAR_INT (-5), TTV_SCALAR_UINT (65535), TTV_SCALAR_INT (-1000003 * (gint64) n),
              TTV_SCALAR_UINT (0xdeadbeef),
              TTV_SCALAR_INT (G_MININT64 + n), TTV_SCALAR_STRING (s), TTV_SCALAR_UINT (n % 10),
              TTV_SCALAR_FLOAT (1.5 + n), TTV_SCALAR_FLOAT (-0.25), TTV_SCALAR_STRING ("comm-name-long"),
              TTV_SCALAR_INT (-1), TTV_SCALAR_INT (2), TTV_SCALAR_INT (n),
              TTV_SCALAR_UINT (count), TTV_SCALAR_UINT (count),
            };
            g_array_append_vals (v, head, G_N_ELEMENTS (head));
            for (guint j = 0; j < count; j++)
              {
                TtvScalar e = TTV_SCALAR_UINT (10 + j);
                g_array_append_val (v, e);
              }
            TtvScalar tail[] = { TTV_SCALAR_UINT (7), TTV_SCALAR_UINT (G_MAXUINT64) };
            g_array_append_vals (v, tail, 2);
            guint nv = v->len;
            const TtvScalar *v2 = (const TtvScalar *) v->data;
            g_assert_true (ttv_ctf_writer_write_event (w, cpu, t, (guint) big_id, v2, nv, &error));
          }
        else
          {
            TtvScalar v[] = { TTV_SCALAR_UINT (n) };
            g_assert_true (ttv_ctf_writer_write_event (w, cpu, t, (round * 7 + i) % 39, v, 1, &error));
          }
        g_assert_no_error (error);
        n++;
      }

  /* Bad values are refused, the writer stays usable. */
  TtvScalar bad[] = { TTV_SCALAR_UINT (70000) };
  g_assert_false (ttv_ctf_writer_write_event (w, 0, t, 0, bad, 1, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  TtvScalar str[] = { TTV_SCALAR_STRING ("x") };
  g_assert_false (ttv_ctf_writer_write_event (w, 0, t, 0, str, 1, &error));
  g_clear_error (&error);
  TtvScalar two[] = { TTV_SCALAR_UINT (1), TTV_SCALAR_UINT (2) };
  g_assert_false (ttv_ctf_writer_write_event (w, 0, t, 0, two, 2, &error));
  g_clear_error (&error);
  g_assert_false (ttv_ctf_writer_write_event (w, 29 % 2, t - 1, 0, two, 1, &error));
  g_clear_error (&error);
  g_assert_false (ttv_ctf_writer_write_event (w, 0, t, 99, two, 1, &error));
  g_clear_error (&error);
  g_assert_false (ttv_ctf_writer_write_event (w, 0, wo.clock_offset - 1, 0, two, 1, &error));
  g_clear_error (&error);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "late", st, &error), ==, -1);
  g_clear_error (&error);
  g_assert_cmpuint (ttv_ctf_writer_get_n_events (w), ==, n);
  g_assert_true (ttv_ctf_writer_close (w, &error));
  g_assert_no_error (error);

  /* Read back: times and a few values. */
  g_autoptr (TtvTraceset) ts = open_trace (dir);
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  TtvDecoder *scratch = ttv_decoder_new ();
  TtvTime expect_t = wo.clock_offset + 1000;
  guint k = 0;
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      expect_t += gaps[k % G_N_ELEMENTS (gaps)];
      g_assert_cmpint (ev->time, ==, expect_t);
      TtvFieldAccessor acc;
      gint64 v;
      if (g_str_equal (ev->type->name, "everything"))
        {
          ttv_field_accessor_init (&acc, ev->type, "s64");
          g_assert_true (ttv_field_accessor_get_int (&acc, ev, scratch, &v));
          g_assert_cmpint (v, ==, G_MININT64 + k);
          ttv_field_accessor_init (&acc, ev->type, "c");
          g_assert_true (ttv_field_accessor_get_int (&acc, ev, scratch, &v));
          g_assert_cmpint (v, ==, -5);
          ttv_field_accessor_init (&acc, ev->type, "u16");
          g_assert_true (ttv_field_accessor_get_int (&acc, ev, scratch, &v));
          g_assert_cmpint (v, ==, 65535);
          ttv_field_accessor_init (&acc, ev->type, "packed");
          g_assert_true (ttv_field_accessor_get_int (&acc, ev, scratch, &v));
          g_assert_cmpint (v, ==, -1000003 * (gint64) k);
          /* (fields after the string: checked through babeltrace2's lines) */
        }
      else
        {
          ttv_field_accessor_init (&acc, ev->type, "x");
          g_assert_true (ttv_field_accessor_get_int (&acc, ev, scratch, &v));
          g_assert_cmpint (v, ==, k);
        }
      k++;
    }
  g_assert_no_error (error);
  ttv_decoder_free (scratch);
  g_assert_cmpuint (k, ==, n);
  compare_with_babeltrace (dir, n);
  ttv_test_remove_tree (dir);
}

static void
test_bad_arguments (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), "bad", NULL);
  TtvCtfWriterOptions wo = { .packet_size = 100 };
  g_assert_null (ttv_ctf_writer_new (dir, &wo, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  wo = (TtvCtfWriterOptions) { .long_bits = 16 };
  g_assert_null (ttv_ctf_writer_new (dir, &wo, &error));
  g_clear_error (&error);
  wo = (TtvCtfWriterOptions) { .channel = "../x" };
  g_assert_null (ttv_ctf_writer_new (dir, &wo, &error));
  g_clear_error (&error);

  wo = (TtvCtfWriterOptions) { 0 };
  TtvCtfWriter *w = ttv_ctf_writer_new (dir, &wo, &error);
  g_assert_no_error (error);
  g_autoptr (TtvType) variant = ttv_type_new_struct ();
  ttv_type_add_field (variant, "v", ttv_type_new_variant_ref ("x"), NULL);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "v", variant, &error), ==, -1);
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  g_autoptr (TtvType) odd = ttv_type_new_struct ();
  ttv_type_add_field (odd, "x", ttv_type_new_integer (12, FALSE, TTV_BYTE_ORDER_LITTLE, 3), NULL);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "odd", odd, &error), ==, -1);
  g_clear_error (&error);
  g_autoptr (TtvType) badname = ttv_type_new_struct ();
  ttv_type_add_field (badname, "a b", ttv_type_new_string (), NULL);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "badname", badname, &error), ==, -1);
  g_clear_error (&error);
  /* An event larger than a packet. */
  g_autoptr (TtvType) s = ttv_type_new_struct ();
  ttv_type_add_field (s, "s", ttv_type_new_string (), NULL);
  ttv_type_finish (s);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "\"quoted\" name", s, &error), ==, 0);
  g_autofree char *huge = g_strnfill (70000, 'x');
  TtvScalar v[] = { TTV_SCALAR_STRING (huge) };
  g_assert_false (ttv_ctf_writer_write_event (w, 0, 10, 0, v, 1, &error));
  g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
  g_clear_error (&error);
  v[0] = TTV_SCALAR_STRING ("ok");
  g_assert_true (ttv_ctf_writer_write_event (w, 0, 10, 0, v, 1, &error));
  g_assert_false (ttv_ctf_writer_write_event (w, 70000, 10, 0, v, 1, &error));
  g_clear_error (&error);
  g_assert_true (ttv_ctf_writer_close (w, &error));
  g_assert_no_error (error);

  /* A second writer does not overwrite the trace. */
  g_assert_null (ttv_ctf_writer_new (dir, &wo, &error));
  g_assert_error (error, TTV_FORMAT_ERROR, TTV_FORMAT_ERROR_IO);
  g_clear_error (&error);

  /* The quoted event name survives the metadata. */
  g_autoptr (TtvTraceset) ts = open_trace (dir);
  TtvTrace *trace = ttv_traceset_get_trace (ts, 0);
  g_assert_cmpuint (trace->event_types->len, ==, 1);
  g_assert_cmpstr (((TtvEventType *) g_ptr_array_index (trace->event_types, 0))->name, ==,
                   "\"quoted\" name");
  ttv_test_remove_tree (dir);
}

/* --- Variants, bit fields, nested structs: lttng-modules' net_dev events ------ */

/* The packets of each kind lttng-modules records: TCP over IPv4 (one with
 * every flag bit set, the 9th included) and IPv6, UDP, and an ARP frame. */
static const TtvSimNetEvent net_packets[] = {
  { .sk = 0xffff888012345600, .saddr = 0x0a000001, .daddr = 0x0a000002, .sport = 40002, .dport = 22,
    .seq = 0xdeadbeef, .ack_seq = 12345, .flags = 0x18, .protocol = 6, .len = 100 },
  { .sk = 0xffff888012345700, .saddr = 0xc0a80101, .daddr = 0x0a000002, .sport = 1, .dport = 65535,
    .seq = 1, .ack_seq = 0xffffffff, .flags = 0x1ff, .protocol = 6, .len = 0, .receive = TRUE },
  { .sk = 0xffff888012345800, .saddr = 0x0a000001, .daddr = 0x0a000003, .sport = 40003, .dport = 22,
    .seq = 77, .ack_seq = 88, .flags = 0x10, .protocol = 6, .ipv6 = TRUE, .len = 1400 },
  { .sk = 0xffff888012345900, .saddr = 0x0a000002, .daddr = 0x0a000001, .sport = 53000, .dport = 53,
    .seq = 4242, .protocol = 17, .len = 40 },
  { .sk = 0xffff888012345a00, .saddr = 0x0a000002, .daddr = 0x0a000001, .protocol = 0, .receive = TRUE },
};

static char *
write_net_dev (const char *name, TtvByteOrder order, guint long_bits, TtvCtfMetadataFormat metadata, guint *n)
{
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), name, NULL);
  g_autoptr (GError) error = NULL;
  TtvCtfWriterOptions wo = { .byte_order = order, .long_bits = long_bits, .packet_size = 1024,
                             .clock_offset = 1700000000 * TTV_NSEC_PER_SEC, .hostname = "netdev",
                             .metadata = metadata };
  TtvCtfWriter *w = ttv_ctf_writer_new (dir, &wo, &error);
  g_assert_no_error (error);
  g_autoptr (TtvType) type = ttv_ctf_net_dev_type (order, long_bits);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "net_dev_queue", type, &error), ==, 0);
  g_assert_cmpint (ttv_ctf_writer_add_event (w, "net_if_receive_skb", type, &error), ==, 1);
  g_assert_no_error (error);
  *n = 0;
  /* Enough rounds to fill several packets: events cross packet ends. */
  for (guint round = 0; round < 12; round++)
    for (guint i = 0; i < G_N_ELEMENTS (net_packets); i++)
      {
        TtvSimNetEvent e = net_packets[i];
        e.seq += round;
        if (long_bits == 32)
          e.sk &= G_MAXUINT32;
        TtvScalar v[TTV_CTF_NET_DEV_MAX_VALUES];
        guint nv = ttv_ctf_net_dev_values (&e, round % 2 ? "eth1" : "lo", v);
        g_assert_true (ttv_ctf_writer_write_event (w, i % 2, wo.clock_offset + 1000 * (*n + 1), e.receive, v, nv,
                                                   &error));
        g_assert_no_error (error);
        (*n)++;
      }
  g_assert_true (ttv_ctf_writer_close (w, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&dir);
}

/* Our reader's view of the first TCP packet: every header field where the
 * packet has it, bit fields included. */
static void
check_net_dev_values (const char *dir)
{
  g_autoptr (TtvTraceset) ts = open_trace (dir);
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_no_error (error);
  g_autoptr (TtvDecoder) d = ttv_decoder_new ();
  const TtvEvent *ev = ttv_context_next (ctx, &error);
  g_assert_nonnull (ev);
  gint32 root = ttv_event_decode_fields (ev, d, &error);
  g_assert_no_error (error);
  const TtvValue *r = ttv_decoder_get (d, (guint32) root);
  const TtvValue *nh = ttv_decoder_get_field (d, r, "network_header");
  g_assert_nonnull (nh);
  g_assert_cmpuint (nh->n_children, ==, 1);
  const TtvValue *ip = ttv_decoder_get_children (d, nh);
  g_assert_cmpstr (ip->name, ==, "ipv4");
  static const struct { const char *name; guint64 value; } ipv4[] = {
    { "version", 4 }, { "ihl", 5 }, { "tot_len", 140 }, { "frag_off", 0x4000 }, { "ttl", 64 }, { "protocol", 6 },
    { "transport_header_type", 1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (ipv4); i++)
    {
      guint64 x = 0;
      g_assert_true (ttv_value_get_uint (ttv_decoder_get_field (d, ip, ipv4[i].name), &x));
      g_assert_cmpuint (x, ==, ipv4[i].value);
    }
  const TtvValue *th = ttv_decoder_get_field (d, ip, "transport_header");
  const TtvValue *tcp = ttv_decoder_get_children (d, th);
  g_assert_cmpstr (tcp->name, ==, "tcp");
  static const struct { const char *name; guint64 value; } fields[] = {
    { "source_port", 40002 }, { "dest_port", 22 }, { "seq", 0xdeadbeef }, { "ack_seq", 12345 },
    { "data_offset", 5 }, { "reserved", 0 }, { "flags", 0x18 }, { "window_size", 502 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      guint64 x = 0;
      g_assert_true (ttv_value_get_uint (ttv_decoder_get_field (d, tcp, fields[i].name), &x));
      g_assert_cmpuint (x, ==, fields[i].value);
    }
}

/* The report of @dir (ttv-report --format=babeltrace). */
static char *
report_text (const char *dir)
{
  g_autofree char *out = NULL, *err = NULL;
  gint status = 0;
  const char *argv[] = { TTV_REPORT_PATH, "--format=babeltrace", dir, NULL };
  g_assert_true (run (argv, &out, &err, &status));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (err, ==, "");
  return g_steal_pointer (&out);
}

/* CTF 1.8: read back by our reader as written, and as babeltrace2 reads
 * it; CTF 2: the same report as the CTF 1.8 trace. */
static void
test_net_dev (gconstpointer data)
{
  gboolean big = GPOINTER_TO_UINT (data) != 0;
  TtvByteOrder order = big ? TTV_BYTE_ORDER_BIG : TTV_BYTE_ORDER_LITTLE;
  guint long_bits = big ? 32 : 64;
  guint n1, n2;
  g_autofree char *tsdl = write_net_dev (big ? "net-dev-be" : "net-dev-le", order, long_bits,
                                         TTV_CTF_METADATA_TSDL, &n1);
  g_autofree char *ctf2 = write_net_dev (big ? "net-dev-be-ctf2" : "net-dev-le-ctf2", order, long_bits,
                                         TTV_CTF_METADATA_CTF2, &n2);
  check_net_dev_values (tsdl);
  check_net_dev_values (ctf2);
  g_autofree char *a = report_text (tsdl), *b = report_text (ctf2);
  g_assert_cmpuint (count_lines (a), ==, n1);
  g_assert_cmpstr (a, ==, b);
  g_assert_nonnull (strstr (a, "flags = 0x1FF"));
  g_assert_nonnull (strstr (a, "hop_limit = 64, saddr_padding = { }, saddr = [ [0] = 0xFD00,"));
  g_assert_nonnull (strstr (a, "{ source_port = 53000, dest_port = 53, len = 48, check = "));
  g_assert_nonnull (strstr (a, "network_header_type = ( \"unknown\" : container = 0 ), network_header = { { } } }"));
  compare_with_babeltrace (tsdl, n1);

  /* lttng-modules names the options with its underscore ("} _ipv4;"),
   * which babeltrace2 2.0.4 cannot read: ours reads it the same. */
  g_autofree char *lttng = g_strconcat (tsdl, "-lttng", NULL);
  ttv_test_copy_dir (tsdl, lttng);
  g_autofree char *path = g_build_filename (lttng, "metadata", NULL);
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_autoptr (GRegex) option = g_regex_new ("\\} (align\\(\\d+\\) )?(unknown|ipv4|ipv6|tcp|udp|icmp);", 0, 0, NULL);
  g_autofree char *underscored = g_regex_replace (option, text, -1, 0, "} \\1_\\2;", 0, NULL);
  g_assert_cmpstr (underscored, !=, text);
  g_assert_true (g_file_set_contents (path, underscored, -1, NULL));
  g_autofree char *c = report_text (lttng);
  g_assert_cmpstr (c, ==, a);
  ttv_test_remove_tree (lttng);
  ttv_test_remove_tree (tsdl);
  ttv_test_remove_tree (ctf2);
}

/* Variants the writer cannot declare: a tag that is not an enum before
 * them, an option no label selects, a variant as an array element. */
static void
test_bad_variants (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_build_filename (ttv_test_get_tmp_dir (), "bad-variants", NULL);
  TtvCtfWriterOptions wo = { 0 };
  TtvCtfWriter *w = ttv_ctf_writer_new (dir, &wo, &error);
  g_assert_no_error (error);
  for (guint c = 0; c < 4; c++)
    {
      g_autoptr (TtvType) st = ttv_type_new_struct ();
      TtvType *tag = ttv_type_new_enum (ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8));
      ttv_type_add_mapping (tag, "a", 0, 0);
      TtvType *v = ttv_type_new_variant_ref ("tag");
      ttv_type_add_field (v, c == 1 ? "b" : "a", ttv_type_new_integer (8, FALSE, TTV_BYTE_ORDER_LITTLE, 8), NULL);
      if (c == 0)
        {
          ttv_type_add_field (st, "v", v, NULL);     /* before its tag */
          ttv_type_add_field (st, "tag", tag, NULL);
        }
      else
        {
          ttv_type_add_field (st, "tag", tag, NULL);
          ttv_type_add_field (st, "v", c == 2 ? ttv_type_new_array (v, 2) : v, NULL);
        }
      if (c == 3)
        ttv_type_add_field (st, "plain", ttv_type_new_variant_ref ("v"), NULL);   /* tag not an enum */
      ttv_type_finish (st);
      g_assert_cmpint (ttv_ctf_writer_add_event (w, "bad", st, &error), ==, -1);
      g_assert_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT);
      g_test_message ("%s", error->message);
      g_clear_error (&error);
    }
  ttv_ctf_writer_abort (w);
  ttv_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/ctf-writer/sim/le64-compact", GUINT_TO_POINTER (0), test_sim);
  g_test_add_data_func ("/ctf-writer/sim/be32-large", GUINT_TO_POINTER (1), test_sim);
  g_test_add_data_func ("/ctf-writer/ttv-gen/le-lp64", "gen-le-lp64", test_ttv_gen);
  g_test_add_data_func ("/ctf-writer/ttv-gen/be-ilp32", "gen-be-ilp32", test_ttv_gen);
  for (guint v = 0; v < 4; v++)
    {
      g_autofree char *path = g_strdup_printf ("/ctf-writer/types/%s-%s", v & 1 ? "be" : "le",
                                               v & 2 ? "large" : "compact");
      g_test_add_data_func (path, GUINT_TO_POINTER (v), test_types);
    }
  g_test_add_func ("/ctf-writer/bad-arguments", test_bad_arguments);
  g_test_add_data_func ("/ctf-writer/net-dev/le64", GUINT_TO_POINTER (0), test_net_dev);
  g_test_add_data_func ("/ctf-writer/net-dev/be32", GUINT_TO_POINTER (1), test_net_dev);
  g_test_add_func ("/ctf-writer/bad-variants", test_bad_variants);
  return g_test_run ();
}

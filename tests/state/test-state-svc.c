/* test-state-svc.c: the system call "at" each event, as ttv-report shows it
 * (--columns svc, {$svc} in format files, the filter state.syscall), against
 * a walk of the raw events done here: on a syscall's exit it is the call the
 * event ends, as trcrpt users expect, although the state after the event is
 * back in user mode.  On the real arm64-kernel trace (LTTng 2.5: sys_NAME /
 * exit_syscall) and on simulated LTT and CTF (syscall_entry_NAME /
 * syscall_exit_NAME) traces. */
#include "ttv-state-test-util.h"
#include "ttv-context.h"

#include <string.h>
#include <sys/wait.h>

/* Runs ttv-report with @args (NULL-terminated) and returns its output. */
static char *
report (const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (char *) TTV_REPORT_PATH);
  va_list ap;
  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  int status = 0;
  g_autoptr (GError) error = NULL;
  char *out = NULL;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    g_error ("ttv-report failed: %s", err);
  return out;
}

/* One event as the walk sees it. */
typedef struct {
  TtvTime time;
  char *name;              /* full event name */
  char *svc;               /* the expected system call, "-" for none */
  gboolean exit;           /* a syscall exit */
} Expected;

static void
expected_clear (gpointer data)
{
  Expected *e = data;
  g_free (e->name);
  g_free (e->svc);
}

/* The call a syscall entry event names (sys_NAME, syscall_entry_NAME, or
 * the label of LTT's syscall_id), or NULL when @ev is no entry. */
static char *
entry_name (const TtvEvent *ev, TtvDecoder *dec)
{
  const char *n = ev->type->name;
  if (g_str_has_prefix (n, "sys_"))
    return g_strdup (n + 4);
  if (g_str_has_prefix (n, "syscall_entry_"))
    return g_strdup (n + strlen ("syscall_entry_"));
  if (!g_str_equal (n, "syscall_entry"))
    return NULL;
  ttv_decoder_reset (dec);
  const TtvValue *root = ttv_decoder_get (dec, (guint32) ttv_event_decode_fields (ev, dec, NULL));
  const TtvValue *id = ttv_decoder_get_field (dec, root, "syscall_id");
  g_assert_nonnull (id);
  return g_strdup (ttv_type_enum_label (id->type, id->v.u));
}

/* NULL: no exit; "": an exit that does not name its call; else the name. */
static const char *
exit_name (const TtvEvent *ev)
{
  const char *n = ev->type->name;
  if (g_str_equal (n, "exit_syscall") || g_str_equal (n, "syscall_exit")
      || g_str_equal (n, "syscall_exit_unknown"))
    return "";
  if (g_str_has_prefix (n, "syscall_exit_"))
    return n + strlen ("syscall_exit_");
  return NULL;
}

static gint64
switch_next (const TtvEvent *ev, TtvDecoder *dec)
{
  ttv_decoder_reset (dec);
  const TtvValue *root = ttv_decoder_get (dec, (guint32) ttv_event_decode_fields (ev, dec, NULL));
  const TtvValue *v = ttv_decoder_get_field (dec, root, "next_tid");
  if (v == NULL)
    v = ttv_decoder_get_field (dec, root, "next_pid");
  gint64 next = 0;
  g_assert_true (v && ttv_value_get_int (v, &next));
  return next;
}

/* Per CPU the running thread (from sched_switch), per thread its open calls;
 * after each event, the call it is about. */
static GArray *
walk (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TtvTraceset) ts = ttv_traceset_new ();
  g_assert_true (ttv_traceset_add_path (ts, path, &error));
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, &error);
  g_assert_true (ttv_context_seek_begin (ctx, &error));
  g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
  g_autoptr (GHashTable) running = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) calls = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                                        (GDestroyNotify) g_ptr_array_unref);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Expected));
  g_array_set_clear_func (out, expected_clear);
  const TtvEvent *ev;
  while ((ev = ttv_context_next (ctx, &error)))
    {
      gpointer cpu = GINT_TO_POINTER (ev->tracefile->cpu);
      if (g_str_equal (ev->type->name, "sched_switch"))
        g_hash_table_insert (running, cpu, GINT_TO_POINTER ((gint) switch_next (ev, dec) + 1));
      gint tid = GPOINTER_TO_INT (g_hash_table_lookup (running, cpu)) - 1;   /* -1: unknown */
      GPtrArray *stack = NULL;
      if (tid > 0)
        {
          stack = g_hash_table_lookup (calls, GINT_TO_POINTER (tid));
          if (stack == NULL)
            {
              stack = g_ptr_array_new_with_free_func (g_free);
              g_hash_table_insert (calls, GINT_TO_POINTER (tid), stack);
            }
        }
      Expected e = { ev->time, g_strdup (ev->type->full_name), NULL, FALSE };
      g_autofree char *entry = entry_name (ev, dec);
      const char *exit = exit_name (ev);
      if (entry && stack)
        g_ptr_array_add (stack, g_strdup (entry));
      if (exit)
        {
          e.exit = TRUE;
          g_autofree char *popped = stack && stack->len ? g_ptr_array_steal_index (stack, stack->len - 1) : NULL;
          e.svc = g_strdup (*exit ? exit : popped ? popped : "-");
        }
      else
        e.svc = g_strdup (stack && stack->len ? g_ptr_array_index (stack, stack->len - 1) : "-");
      g_array_append_val (out, e);
    }
  g_assert_no_error (error);
  return out;
}

/* The first two words of a column layout line: SVC and EVENT. */
static void
svc_and_event (const char *line, char **svc, char **event)
{
  g_auto (GStrv) w = g_strsplit_set (line, " ", -1);
  guint n = 0;
  *svc = *event = NULL;
  for (guint i = 0; w[i] && n < 2; i++)
    if (*w[i])
      *(n++ == 0 ? svc : event) = g_strdup (w[i]);
  g_assert_nonnull (*event);
}

/* --columns svc names, on every line, the call the walk expects. */
static void
check_columns (const char *path, GArray *want)
{
  g_autofree char *out = report ("--columns", "svc", "--timestamp", "none", "-h", path, NULL);
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (out);
  g_assert_cmpuint (lines->len, ==, want->len);
  guint exits = 0, named = 0;
  for (guint i = 0; i < want->len; i++)
    {
      const Expected *e = &g_array_index (want, Expected, i);
      g_autofree char *svc = NULL, *event = NULL;
      svc_and_event (g_ptr_array_index (lines, i), &svc, &event);
      g_assert_cmpstr (event, ==, e->name);
      if (!g_str_equal (svc, e->svc))
        g_error ("line %u, %s at %" G_GINT64_FORMAT ": SVC %s, the events say %s", i + 1, e->name,
                 e->time, svc, e->svc);
      exits += e->exit;
      named += e->exit && !g_str_equal (e->svc, "-");
    }
  g_test_message ("%u lines, %u syscall exits, %u of them named", want->len, exits, named);
  g_assert_cmpuint (named, >, 10);
}

/* state.syscall = NAME keeps exactly the events the walk puts in that call,
 * exits included. */
static void
check_filter (const char *path, GArray *want, const char *call)
{
  g_autofree char *expr = g_strdup_printf ("state.syscall = %s", call);
  g_autofree char *out = report ("--filter", expr, "--columns", "svc", "--timestamp", "none", "-h", path, NULL);
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (out);
  guint k = 0, exits = 0;
  for (guint i = 0; i < want->len; i++)
    {
      const Expected *e = &g_array_index (want, Expected, i);
      if (!g_str_equal (e->svc, call))
        continue;
      g_assert_cmpuint (k, <, lines->len);
      g_autofree char *svc = NULL, *event = NULL;
      svc_and_event (g_ptr_array_index (lines, k++), &svc, &event);
      g_assert_cmpstr (svc, ==, call);
      g_assert_cmpstr (event, ==, e->name);
      exits += e->exit;
    }
  g_assert_cmpuint (k, ==, lines->len);
  g_assert_cmpuint (exits, >, 0);
}

/* kernel.ttvfmt's exit templates print the call ({$svc}). */
static void
check_format_file (const char *path, GArray *want, const char *exits)
{
  g_autofree char *out = report ("-t", TTV_KERNEL_FORMAT, "-d", exits, path, NULL);
  g_autoptr (GPtrArray) lines = ttv_test_lines_of (out);
  guint k = 0;
  for (guint i = 0; i < want->len; i++)
    {
      const Expected *e = &g_array_index (want, Expected, i);
      if (!e->exit)
        continue;
      g_assert_cmpuint (k, <, lines->len);
      g_autofree char *tail = g_strdup_printf (" SYSCALL EXIT %s ret=", e->svc);
      const char *line = g_ptr_array_index (lines, k++);
      if (strstr (line, tail) == NULL)
        g_error ("%s: expected \"%s\"", line, tail);
    }
  g_assert_cmpuint (k, ==, lines->len);
}

static void
test_arm64 (void)
{
  g_autofree char *path = ttv_test_dup_shared_ctf_trace ("arm64-kernel");
  if (path == NULL)
    return;
  g_autoptr (GArray) want = walk (path);
  check_columns (path, want);
  check_filter (path, want, "ioctl");
  check_format_file (path, want, "exit_syscall");
}

static void
test_simulated (gconstpointer data)
{
  gboolean ctf = GPOINTER_TO_INT (data);
  const char *dir = ttv_test_get_tmp_dir ();
  g_autofree char *trace_dir = g_build_filename (dir, "trace", NULL);
  TtvSimOptions so;
  ttv_sim_options_init (&so);
  so.seed = 9;
  so.n_cpus = 3;
  so.n_processes = 25;
  so.max_events = 15000;
  ttv_state_test_write_sim (trace_dir, ctf ? TTV_TEST_FORMAT_CTF : TTV_TEST_FORMAT_LTT, &so,
                            TTV_BYTE_ORDER_LITTLE, 8192);
  g_autoptr (GArray) want = walk (trace_dir);
  check_columns (trace_dir, want);
  check_filter (trace_dir, want, "read");
  check_format_file (trace_dir, want, ctf ? "syscall_exit_*" : "core.syscall_exit");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/state/svc/ctf/arm64-kernel", test_arm64);
  g_test_add_data_func ("/state/svc/sim-ltt", GINT_TO_POINTER (FALSE), test_simulated);
  g_test_add_data_func ("/state/svc/sim-ctf", GINT_TO_POINTER (TRUE), test_simulated);
  return g_test_run ();
}

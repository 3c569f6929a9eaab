/* ttv-syscall-analysis.c: the "syscalls" analysis: every system call the
 * trace saw enter and return, with its thread, return value and the file
 * of its fd argument; and a call's arguments read back from its entry
 * event.  See ttv-kernel-analyses.h. */
#include "ttv-kernel-context.h"
#include "ttv-context.h"
#include "ttv-error.h"

#include <glib/gi18n-lib.h>
#include <string.h>

G_STATIC_ASSERT (sizeof (TtvSyscallRecord) == 56);

static const TtvAnalysisColumn call_columns[] = {
  { "start", N_("Start"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvSyscallRecord, start), NULL },
  { "end", N_("End"), TTV_COLUMN_TIME, G_STRUCT_OFFSET (TtvSyscallRecord, end), NULL },
  { "duration", N_("Duration"), TTV_COLUMN_DURATION, -1, NULL },
  { "syscall", N_("System call"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvSyscallRecord, syscall), NULL },
  { TTV_ANALYSIS_MACHINE_COLUMN, N_("Machine"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvSyscallRecord, machine), NULL },
  { "tid", N_("TID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvSyscallRecord, tid), NULL },
  { "tgid", N_("PID"), TTV_COLUMN_TID, G_STRUCT_OFFSET (TtvSyscallRecord, tgid), NULL },
  { "name", N_("Name"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvSyscallRecord, name), NULL },
  { "cpu", N_("CPU"), TTV_COLUMN_CPU, G_STRUCT_OFFSET (TtvSyscallRecord, cpu), NULL },
  { "ret", N_("Return"), TTV_COLUMN_INT, G_STRUCT_OFFSET (TtvSyscallRecord, ret), NULL },
  { "file", N_("File"), TTV_COLUMN_STRING, G_STRUCT_OFFSET (TtvSyscallRecord, file), NULL },
};

static const TtvAnalysisTableSpec calls_spec = {
  "calls", sizeof (TtvSyscallRecord), call_columns, G_N_ELEMENTS (call_columns),
  { G_STRUCT_OFFSET (TtvSyscallRecord, key), -1 }, G_STRUCT_OFFSET (TtvSyscallRecord, syscall), FALSE, TRUE,
};

static const TtvAnalysisTableSpec *const tables[] = { &calls_spec };

typedef struct {
  TtvAnalysisBuilder *b;
  TtvTableBuilder *calls;
  TtvSyscallExit exit;
  TtvFdTracker *fds;
  GArray *machine_names;   /* per machine: guint32 string of its name (none with one machine) */
} Syscalls;

static gpointer
syscalls_attach (TtvAnalysisPass *pass, const TtvAnalysisOptions *options, GError **error)
{
  TtvAnalysisBuilder *b = ttv_analysis_pass_get_builder (pass);
  Syscalls *s = g_new0 (Syscalls, 1);
  s->b = b;
  s->calls = ttv_analysis_builder_get_table (b, 0);
  s->fds = ttv_fd_tracker_new (FALSE);
  s->machine_names = ttv_kernel_machine_names (b);
  return s;
}

static void
syscalls_free (gpointer data)
{
  Syscalls *s = data;
  ttv_fd_tracker_free (s->fds);
  g_array_unref (s->machine_names);
  g_free (s);
}

static void
syscalls_before_event (gpointer data, const TtvAnalysisEvent *ev)
{
  Syscalls *s = data;
  ttv_syscall_exit_before (&s->exit, ev);
  ttv_fd_tracker_before_event (s->fds, ev);
}

static void
on_frame_end (gpointer data, gint cpu, guint32 pid, const TtvExecFrame *frame, TtvTime end)
{
  Syscalls *s = data;
  /* Only calls that return: a frame ended by anything else lost its exit. */
  if (frame->mode != TTV_MODE_SYSCALL || !ttv_syscall_exit_matches (&s->exit, cpu) || pid == TTV_PID_NONE)
    return;
  TtvSyscallRecord r;
  memset (&r, 0, sizeof r);
  r.start = frame->entry;
  r.end = end;
  r.ret = s->exit.ret;
  r.tid = pid;
  /* The state calls with the event's machine selected. */
  guint machine = MIN (ttv_state_get_machine (ttv_analysis_builder_get_state (s->b)), TTV_ANALYSIS_MAX_MACHINES - 1);
  guint32 key = ttv_thread_key (machine, pid);
  r.key = key;
  r.machine = ttv_kernel_machine_name (s->machine_names, machine);
  r.cpu = ttv_fd_tracker_get_entry_cpu (s->fds, key, cpu);
  r.syscall = frame->id ? ttv_analysis_builder_intern_quark (s->b, frame->id) : TTV_ANALYSIS_NO_STRING;
  r.name = ttv_kernel_thread_name (s->b, ttv_analysis_builder_get_state (s->b), pid, &r.tgid);
  r.file = ttv_fd_tracker_get_file_string (s->fds, key, s->b);
  ttv_table_builder_push (s->calls, &r);
  /* One call per exit. */
  s->exit.active = FALSE;
}

static const TtvStateObserver syscalls_observer = { .frame_end = on_frame_end };

const TtvAnalysisClass ttv_syscall_analysis = {
  .name = "syscalls",
  .title = N_("System calls"),
  .description = N_("Every system call from entry to exit, per thread, with its return value"),
  .formats = TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_TEXT) | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_JSONL)
             | TTV_ANALYSIS_FORMAT_BIT (TTV_ANALYSIS_FORMAT_CSV),
  .needs_state = TRUE,
  .attach = syscalls_attach,
  .free = syscalls_free,
  .tables = tables,
  .n_tables = G_N_ELEMENTS (tables),
  .version = 2,
  .observer = &syscalls_observer,
  .before_event = syscalls_before_event,
};

/* ---- arguments ---- */

char *
ttv_syscall_dup_arguments (TtvTraceset *ts, const TtvSyscallRecord *call, GError **error)
{
  g_autoptr (TtvContext) ctx = ttv_context_new (ts, error);
  if (ctx == NULL || !ttv_context_seek_time (ctx, call->start, error))
    return NULL;
  g_autoptr (GPtrArray) traces = g_ptr_array_new ();
  for (guint i = 0; i < ttv_traceset_get_n_traces (ts); i++)
    g_ptr_array_add (traces, ttv_traceset_get_trace (ts, i));
  g_autoptr (TtvKernelModel) model = ttv_kernel_model_new (traces);
  const TtvEvent *ev;
  GError *local = NULL;
  /* The entry event: at the call's start, on its CPU, a syscall entry
   * (one CPU enters one call at a time). */
  while ((ev = ttv_context_next (ctx, &local)) != NULL && ev->time == call->start)
    {
      guint trace = ttv_traceset_get_stream_trace (ts, ttv_context_get_stream (ctx));
      /* On the call's machine (its key's top bits: ttv_thread_key). */
      if ((ttv_traceset_get_n_machines (ts) > 1 && ttv_traceset_get_trace_machine (ts, trace) != call->key >> 24)
          || ev->tracefile->cpu != call->cpu
          || ttv_kernel_model_get_action (model, trace, ev->type) != TTV_KM_SYSCALL_ENTRY)
        continue;
      g_autoptr (TtvDecoder) dec = ttv_decoder_new ();
      gint32 root = ttv_event_decode_fields (ev, dec, &local);
      if (root < 0)
        break;
      GString *out = g_string_new (NULL);
      ttv_decoder_append_value (dec, (guint32) root, TTV_VALUE_STYLE_PLAIN, out);
      return g_string_free (out, FALSE);
    }
  if (local)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  return NULL;
}

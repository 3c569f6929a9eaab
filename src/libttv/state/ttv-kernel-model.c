/* ttv-kernel-model.c: the kernel model tables and their binding to the
 * event types of opened traces (see ttv-kernel-model.h). */
#include "ttv-kernel-model.h"
#include "ttv-event-owner.h"
#include "ttv-field-accessor.h"
#include "ttv-state-private.h"
#include "ttv-traceset.h"

#include <string.h>

/* LTT (seed 000) traces as ttv-gen writes them: facilities core and block. */
static const TtvKernelModelEntry ltt_table[] = {
  { "core.sched_switch", TTV_KM_SCHED_SWITCH, { "prev_pid", "next_pid", "prev_state" } },
  { "core.process_fork", TTV_KM_FORK, { "parent_pid", "child_pid", "child_tgid" } },
  { "core.process_exec", TTV_KM_EXEC, { "filename", "pid" } },
  { "core.process_exit", TTV_KM_EXIT, { "pid" } },
  { "core.process_free", TTV_KM_FREE, { "pid" } },
  { "core.sched_wakeup", TTV_KM_WAKEUP, { "pid", NULL, "target_cpu" } },
  { "core.syscall_entry", TTV_KM_SYSCALL_ENTRY, { "syscall_id" } },
  { "core.syscall_exit", TTV_KM_SYSCALL_EXIT, { "ret" } },
  { "core.trap_entry", TTV_KM_TRAP_ENTRY, { "trap_id" } },
  { "core.trap_exit", TTV_KM_TRAP_EXIT, { NULL } },
  { "core.irq_entry", TTV_KM_IRQ_ENTRY, { "irq_id" } },
  { "core.irq_exit", TTV_KM_IRQ_EXIT, { NULL } },
  { "core.soft_irq_entry", TTV_KM_SOFTIRQ_ENTRY, { "softirq_id" } },
  { "core.soft_irq_exit", TTV_KM_SOFTIRQ_EXIT, { NULL } },
  { "core.process", TTV_KM_PROCESS_DESCRIPTION, { "pid", NULL, "ppid", "name", "state" } },
  { "core.interrupt", TTV_KM_IRQ_DESCRIPTION, { "number", "name" } },
  { "block.request_issue", TTV_KM_BLOCK_ISSUE, { "dev", "sector", "nr_sector", "rw" } },
  { "block.request_complete", TTV_KM_BLOCK_COMPLETE, { "dev", "sector", "nr_sector" } },
  { "core.soft_irq_raise", TTV_KM_SOFTIRQ_RAISE, { "softirq_id" } },
  { NULL }
};

/* LTTng 2.x kernel traces (lttng-modules 2.1 to 2.13). */
static const TtvKernelModelEntry lttng2_table[] = {
  { "sched_switch", TTV_KM_SCHED_SWITCH, { "prev_tid", "next_tid", "prev_state", "prev_comm", "next_comm", "next_prio" } },
  { "sched_process_fork", TTV_KM_FORK, { "parent_tid", "child_tid", "child_pid", "child_comm" } },
  { "sched_process_exec", TTV_KM_EXEC, { "filename", "tid" } },
  { "sched_process_exit", TTV_KM_EXIT, { "tid" } },
  { "sched_process_free", TTV_KM_FREE, { "tid" } },
  { "sched_wakeup", TTV_KM_WAKEUP, { "tid", "prio", "target_cpu" } },
  { "sched_wakeup_new", TTV_KM_WAKEUP, { "tid", "prio", "target_cpu" } },
  { "sched_waking", TTV_KM_WAKEUP, { "tid", "prio", "target_cpu" } },
  { "syscall_entry_*", TTV_KM_SYSCALL_ENTRY, { NULL, "fd", "filename", "uaddr", "op" } },
  { "syscall_exit_*", TTV_KM_SYSCALL_EXIT, { "ret" } },
  { "compat_syscall_entry_*", TTV_KM_SYSCALL_ENTRY, { NULL, "fd", "filename", "uaddr", "op" } },
  { "compat_syscall_exit_*", TTV_KM_SYSCALL_EXIT, { "ret" } },
  { "exit_syscall", TTV_KM_SYSCALL_EXIT, { "ret" } },
  { "sys_*", TTV_KM_SYSCALL_ENTRY, { NULL, "fd", "filename", "uaddr", "op" } },
  /* Not lttng-modules events: ttv-gen's CTF traces name page faults so. */
  { "trap_entry", TTV_KM_TRAP_ENTRY, { "trap_id" } },
  { "trap_exit", TTV_KM_TRAP_EXIT, { NULL } },
  { "irq_handler_entry", TTV_KM_IRQ_ENTRY, { "irq", "name" } },
  { "irq_handler_exit", TTV_KM_IRQ_EXIT, { "irq" } },
  { "softirq_entry", TTV_KM_SOFTIRQ_ENTRY, { "vec" } },
  { "softirq_exit", TTV_KM_SOFTIRQ_EXIT, { "vec" } },
  { "lttng_statedump_process_state", TTV_KM_PROCESS_DESCRIPTION, { "tid", "pid", "ppid", "name", "status" } },
  { "lttng_statedump_interrupt", TTV_KM_IRQ_DESCRIPTION, { "irq", "name" } },
  { "block_rq_issue", TTV_KM_BLOCK_ISSUE, { "dev", "sector", "nr_sector", "rwbs", "comm" } },
  { "block_rq_complete", TTV_KM_BLOCK_COMPLETE, { "dev", "sector", "nr_sector", "rwbs" } },
  /* A requeued request leaves the device until it is issued again. */
  { "block_rq_requeue", TTV_KM_BLOCK_REQUEUE, { "dev", "sector", "nr_sector", "rwbs" } },
  { "softirq_raise", TTV_KM_SOFTIRQ_RAISE, { "vec" } },
  { "lttng_statedump_file_descriptor", TTV_KM_FD_DESCRIPTION, { "pid", "fd", "filename" } },
  { NULL }
};

/* LTTng 0.x (seed 001) kernel markers, by channel.marker. */
static const TtvKernelModelEntry lttng0_table[] = {
  { "kernel.sched_schedule", TTV_KM_SCHED_SWITCH, { "prev_pid", "next_pid", "prev_state" } },
  { "kernel.process_fork", TTV_KM_FORK, { "parent_pid", "child_pid", "child_tgid" } },
  { "fs.exec", TTV_KM_EXEC, { "filename" } },
  { "kernel.process_exit", TTV_KM_EXIT, { "pid" } },
  { "kernel.process_free", TTV_KM_FREE, { "pid" } },
  { "kernel.sched_try_wakeup", TTV_KM_WAKEUP, { "pid" } },
  { "kernel.syscall_entry", TTV_KM_SYSCALL_ENTRY, { "syscall_id" } },
  { "kernel.syscall_exit", TTV_KM_SYSCALL_EXIT, { "ret" } },
  { "kernel.trap_entry", TTV_KM_TRAP_ENTRY, { "trap_id" } },
  { "kernel.trap_exit", TTV_KM_TRAP_EXIT, { NULL } },
  { "kernel.irq_entry", TTV_KM_IRQ_ENTRY, { "irq_id" } },
  { "kernel.irq_exit", TTV_KM_IRQ_EXIT, { NULL } },
  { "kernel.softirq_entry", TTV_KM_SOFTIRQ_ENTRY, { "softirq_id" } },
  { "kernel.softirq_exit", TTV_KM_SOFTIRQ_EXIT, { NULL } },
  { "kernel.softirq_raise", TTV_KM_SOFTIRQ_RAISE, { "softirq_id" } },
  { "task_state.process_state", TTV_KM_PROCESS_DESCRIPTION, { "pid", "parent_pid", "name", "status" } },
  { "irq_state.interrupt", TTV_KM_IRQ_DESCRIPTION, { "irq_id", "name" } },
  { "fd_state.file_descriptor", TTV_KM_FD_DESCRIPTION, { "pid", "fd", "filename" } },
  { NULL }
};

/* Linux's softirq_to_name[] (IRQ_POLL was BLOCK_IOPOLL before 4.5). */
static const char *const softirq_names[] = {
  "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

const char *
ttv_kernel_model_get_softirq_name (guint32 vec)
{
  return vec < G_N_ELEMENTS (softirq_names) ? softirq_names[vec] : NULL;
}

static const TtvKernelModelEntry *const tables[] = { ltt_table, lttng2_table, lttng0_table };

/* Enum values are mapped once, at bind time, to what the state needs: a
 * syscall's name as a quark, a task state as a status. */
#define MAX_CACHED_ENUM 4096

typedef struct {
  TtvKernelAction action;
  guint family;                         /* the table it matched: index in tables[] */
  GQuark syscall;                       /* from the event name ("syscall_entry_read") */
  TtvFieldAccessor fields[TTV_KM_MAX_FIELDS];
  GArray *quark_by_value;               /* of GQuark: syscall enum labels, or NULL */
  GArray *status_by_value;              /* of TtvProcessStatus: prev_state / status enum, or NULL */
  gboolean user_context;                /* a userspace event naming its thread (vtid, vpid, procname) */
} Binding;

/* The name the model last gave an IRQ (see irq_named_as_before()). */
typedef struct {
  guint32 irq;
  GQuark name;                          /* 0: an empty slot */
  const char *text;                     /* the quark's string */
  gsize len;                            /* strlen (text) */
} IrqNameMemo;

/* By IRQ number modulo this: the few IRQs a machine keeps busy. */
#define IRQ_NAME_MEMOS 16

/* A trace's bindings, indexed by event type id, in one array so that
 * the event loop finds them in one load. */
typedef struct {
  Binding *bindings;                    /* owned: n of them */
  guint n;
} TraceBindings;

struct _TtvKernelModel {
  TraceBindings *by_trace;              /* owned: one per trace of traces */
  GPtrArray *traces;                    /* weak TtvTrace *, a copy of the array given */
  guint *trace_machine;                 /* owned: the machine of each trace */
  TtvDecoder *scratch;                  /* owned */
  IrqNameMemo irq_names[IRQ_NAME_MEMOS];
};

static gboolean
entry_matches (const TtvKernelModelEntry *e, const TtvEventType *et, const char **suffix)
{
  gsize n = strlen (e->event);
  *suffix = NULL;
  if (n > 0 && e->event[n - 1] == '*')
    {
      if (strncmp (et->name, e->event, n - 1) == 0 && et->name[n - 1] != '\0')
        {
          *suffix = et->name + n - 1;
          return TRUE;
        }
      return FALSE;
    }
  return strcmp (et->full_name, e->event) == 0 || strcmp (et->name, e->event) == 0;
}

static TtvProcessStatus status_from_label (const char *label);
static TtvProcessStatus switch_label_status (const char *label);

/* For an enum field with small values, the table value -> f(label). */
static GArray *
map_enum (const TtvFieldAccessor *acc, gsize elem_size, void (*fill) (const char *label, gpointer slot))
{
  if (!ttv_field_accessor_is_valid (acc) || acc->type->kind != TTV_TYPE_ENUM)
    return NULL;
  GArray *map = g_array_new (FALSE, TRUE, elem_size);
  for (guint i = 0; i < acc->type->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (acc->type->mappings, TtvEnumMapping, i);
      for (guint64 v = m->start; v <= m->end && v < MAX_CACHED_ENUM; v++)
        {
          if (v >= map->len)
            g_array_set_size (map, (guint) v + 1);
          fill (m->label, map->data + v * elem_size);
        }
    }
  return map;
}

static void
fill_quark (const char *label, gpointer slot)
{
  *(GQuark *) slot = g_quark_from_string (label);
}

static void
fill_switch_status (const char *label, gpointer slot)
{
  *(TtvProcessStatus *) slot = switch_label_status (label);
}

static void
fill_description_status (const char *label, gpointer slot)
{
  *(TtvProcessStatus *) slot = status_from_label (label);
}

static void
binding_clear (Binding *b)
{
  if (b->quark_by_value)
    g_array_unref (b->quark_by_value);
  if (b->status_by_value)
    g_array_unref (b->status_by_value);
}

/* Userspace (LTTng-UST) events say which thread emitted them through
 * their contexts; kernel events are about the task the kernel runs. */
static gboolean
names_user_thread (const TtvTrace *trace, const TtvEventType *et)
{
  return g_strcmp0 (ttv_trace_get_info (trace, "domain"), "ust") == 0
         && (ttv_event_type_has_context (trace, et, "vtid") || ttv_event_type_has_context (trace, et, "vpid"));
}

static void
bind_event_type (Binding *b, const TtvTrace *trace, const TtvEventType *et)
{
  memset (b, 0, sizeof *b);
  b->user_context = names_user_thread (trace, et);
  for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
    for (const TtvKernelModelEntry *e = tables[t]; e->event; e++)
      {
        const char *suffix;
        if (!entry_matches (e, et, &suffix))
          continue;
        b->action = e->action;
        b->family = t;
        /* syscall_exit_unknown (LTTng 2.6+, ttv-gen) names no call. */
        if (suffix && !(b->action == TTV_KM_SYSCALL_EXIT && g_str_equal (suffix, "unknown")))
          b->syscall = g_quark_from_string (suffix);
        for (guint i = 0; i < TTV_KM_MAX_FIELDS; i++)
          if (e->fields[i])
            ttv_field_accessor_init (&b->fields[i], et, e->fields[i]);
        if (b->action == TTV_KM_SYSCALL_ENTRY)
          b->quark_by_value = map_enum (&b->fields[0], sizeof (GQuark), fill_quark);
        else if (b->action == TTV_KM_SCHED_SWITCH)
          b->status_by_value = map_enum (&b->fields[2], sizeof (TtvProcessStatus), fill_switch_status);
        else if (b->action == TTV_KM_PROCESS_DESCRIPTION)
          b->status_by_value = map_enum (&b->fields[4], sizeof (TtvProcessStatus), fill_description_status);
        return;
      }
}

TtvKernelModel *
ttv_kernel_model_new (GPtrArray *traces)
{
  TtvKernelModel *m = g_new0 (TtvKernelModel, 1);
  m->scratch = ttv_decoder_new ();
  m->traces = g_ptr_array_copy (traces, NULL, NULL);
  m->trace_machine = g_new0 (guint, MAX (traces->len, 1));
  ttv_traces_number_machines (traces, m->trace_machine, NULL);
  m->by_trace = g_new0 (TraceBindings, MAX (traces->len, 1));
  for (guint i = 0; i < traces->len; i++)
    {
      const TtvTrace *trace = g_ptr_array_index (traces, i);
      TraceBindings *t = &m->by_trace[i];

      t->n = trace->event_types->len;
      t->bindings = g_new0 (Binding, MAX (t->n, 1));
      for (guint j = 0; j < t->n; j++)
        bind_event_type (&t->bindings[j], trace, g_ptr_array_index (trace->event_types, j));
    }
  return m;
}

void
ttv_kernel_model_free (TtvKernelModel *m)
{
  if (m == NULL)
    return;
  for (guint i = 0; i < m->traces->len; i++)
    {
      for (guint j = 0; j < m->by_trace[i].n; j++)
        binding_clear (&m->by_trace[i].bindings[j]);
      g_free (m->by_trace[i].bindings);
    }
  g_free (m->by_trace);
  g_ptr_array_unref (m->traces);
  g_free (m->trace_machine);
  ttv_decoder_free (m->scratch);
  g_free (m);
}

/* The binding of @et in trace @trace_index, which the model holds
 * (trace_index < m->traces->len: by_trace has one entry per trace); NULL
 * for a type the trace gained after the model was built. */
static inline const Binding *
binding_in_trace (const TtvKernelModel *m, guint trace_index, const TtvEventType *et)
{
  const TraceBindings *t = &m->by_trace[trace_index];
  return et->id < t->n ? &t->bindings[et->id] : NULL;
}

static const Binding *
binding_for (const TtvKernelModel *m, guint trace_index, const TtvEventType *et)
{
  if (trace_index >= m->traces->len)
    return NULL;
  return binding_in_trace (m, trace_index, et);
}

const char *
ttv_kernel_model_get_trace_softirq_name (const TtvKernelModel *m, guint trace_index, guint32 vec)
{
  if (trace_index >= m->traces->len)
    return NULL;
  const TraceBindings *t = &m->by_trace[trace_index];
  for (guint i = 0; i < t->n; i++)
    {
      const Binding *b = &t->bindings[i];
      const TtvFieldAccessor *acc = &b->fields[0];

      if (b->action != TTV_KM_SOFTIRQ_ENTRY)
        continue;
      /* The trace's own labels (LTT's enumeration of the vectors). */
      if (ttv_field_accessor_is_valid (acc) && acc->type->kind == TTV_TYPE_ENUM && acc->type->mappings)
        {
          for (guint m_i = 0; m_i < acc->type->mappings->len; m_i++)
            {
              const TtvEnumMapping *map = &g_array_index (acc->type->mappings, TtvEnumMapping, m_i);

              if (vec >= map->start && vec <= map->end)
                return map->label;
            }
        }
      /* LTTng 2 gives the bare number of Linux's vector. */
      else if (tables[b->family] == lttng2_table)
        return ttv_kernel_model_get_softirq_name (vec);
    }
  return NULL;
}

TtvKernelAction
ttv_kernel_model_get_action (const TtvKernelModel *m, guint trace_index, const TtvEventType *et)
{
  const Binding *b = binding_for (m, trace_index, et);
  return b ? b->action : TTV_KM_NONE;
}

static gboolean
get_u32 (TtvKernelModel *m, const Binding *b, guint i, const TtvEvent *ev, guint32 *out)
{
  gint64 v;
  if (!ttv_field_accessor_get_int (&b->fields[i], ev, m->scratch, &v))
    return FALSE;
  *out = (guint32) v;
  return TRUE;
}

/* Status of a task leaving the CPU, from an enum label (LTT) or from the
 * Linux task state bits (LTTng 2.x): 0 is runnable, EXIT_ZOMBIE (32) and
 * EXIT_DEAD (16) end it, TASK_DEAD (64/128 depending on the kernel) too. */
static TtvProcessStatus
switch_label_status (const char *label)
{
  if (g_ascii_strcasecmp (label, "RUNNING") == 0 || g_ascii_strcasecmp (label, "TASK_RUNNING") == 0)
    return TTV_PROCESS_WAIT_CPU;
  if (g_ascii_strcasecmp (label, "ZOMBIE") == 0)
    return TTV_PROCESS_ZOMBIE;
  if (g_ascii_strcasecmp (label, "DEAD") == 0)
    return TTV_PROCESS_DEAD;
  return TTV_PROCESS_WAIT;
}

/* The status from the cached enum table when the value is in it. */
static gboolean
cached_status (const Binding *b, gint64 v, TtvProcessStatus *out)
{
  if (b->status_by_value == NULL || v < 0 || (guint64) v >= b->status_by_value->len)
    return FALSE;
  *out = g_array_index (b->status_by_value, TtvProcessStatus, v);
  return TRUE;
}

/* Linux task state bits of a task leaving the CPU (LTTng 2.x): 0 is
 * runnable, EXIT_DEAD (16) and EXIT_ZOMBIE (32) end it.  A preempted task
 * is runnable too, whatever it was about to do: lttng-modules reports it as
 * TASK_RUNNING | TASK_STATE_MAX, a lone bit above the state bits (1024 on
 * Linux 3.x, 2048 or 4096 on 4.x; TASK_REPORT_MAX, 256, from 4.14 on).
 * 512 alone is TASK_PARKED before 4.14: a parked kernel thread. */
static TtvProcessStatus
switch_number_status (gint64 v)
{
  if (v == 0 || ((v & 0xff) == 0 && v != 512))
    return TTV_PROCESS_WAIT_CPU;
  if (v & (16 | 32))
    return TTV_PROCESS_ZOMBIE;
  return TTV_PROCESS_WAIT;
}

/* Status named by a process description's enum label (seed 000's
 * Running / WaitInterruptible / Zombie ..., LTTng's LTTNG_WAIT_CPU ...). */
static TtvProcessStatus
status_from_label (const char *label)
{
  if (strstr (label, "Zombie") || strstr (label, "ZOMBIE"))
    return TTV_PROCESS_ZOMBIE;
  if (g_str_equal (label, "Running") || strstr (label, "WAIT_CPU"))
    return TTV_PROCESS_WAIT_CPU;
  if (strstr (label, "WAIT_FORK"))
    return TTV_PROCESS_WAIT_FORK;
  if (strstr (label, "EXIT") || strstr (label, "DEAD"))
    return TTV_PROCESS_EXIT;
  return TTV_PROCESS_WAIT;
}

/* LTTng's statedump status numbers (1 wait-fork, 2 wait-cpu, 3 exit,
 * 4 zombie, 5 wait). */
static TtvProcessStatus
description_number_status (gint64 v)
{
  switch (v)
    {
    case 1: return TTV_PROCESS_WAIT_FORK;
    case 2: return TTV_PROCESS_WAIT_CPU;
    case 3: return TTV_PROCESS_EXIT;
    case 4: return TTV_PROCESS_ZOMBIE;
    default: return TTV_PROCESS_WAIT;
    }
}

/* A status field reads as an enum label (LTT) or as a number (LTTng). */
typedef struct {
  guint field;
  TtvProcessStatus (*from_label) (const char *label);
  TtvProcessStatus (*from_number) (gint64 value);
} StatusField;

static const StatusField switch_out = { 2, switch_label_status, switch_number_status };
static const StatusField description = { 4, status_from_label, description_number_status };

static TtvProcessStatus
read_status (TtvKernelModel *m, const Binding *b, const TtvEvent *ev, const StatusField *sf)
{
  const TtvFieldAccessor *acc = &b->fields[sf->field];
  gint64 v;
  TtvProcessStatus status;
  if (!ttv_field_accessor_get_int (acc, ev, m->scratch, &v))
    return TTV_PROCESS_WAIT;
  if (cached_status (b, v, &status))
    return status;
  if (acc->type->kind == TTV_TYPE_ENUM)
    {
      const char *label = ttv_type_enum_label (acc->type, (guint64) v);
      return label ? sf->from_label (label) : TTV_PROCESS_WAIT;
    }
  return sf->from_number (v);
}

/* The call an entry event names by its id field (LTT, LTTng 0.x). */
static G_NO_INLINE guint32
syscall_quark_from_field (TtvKernelModel *m, const Binding *b, const TtvEvent *ev)
{
  const TtvFieldAccessor *acc = &b->fields[0];
  gint64 v;
  if (ttv_field_accessor_get_int (acc, ev, m->scratch, &v))
    {
      if (b->quark_by_value && v >= 0 && (guint64) v < b->quark_by_value->len
          && g_array_index (b->quark_by_value, GQuark, v))
        return g_array_index (b->quark_by_value, GQuark, v);
      char name[32];
      g_snprintf (name, sizeof name, "syscall_%" G_GINT64_FORMAT, v);
      return g_quark_from_string (name);
    }
  return g_quark_from_static_string ("unknown");
}

/* Inline: LTTng 2 names the call in the event's name, known at bind time. */
static inline guint32
syscall_quark (TtvKernelModel *m, const Binding *b, const TtvEvent *ev)
{
  return b->syscall ? b->syscall : syscall_quark_from_field (m, b, ev);
}

static char *dup_string_field (TtvKernelModel *m, const Binding *b, guint i, const TtvEvent *ev);

static void
name_if_unnamed (TtvKernelModel *m, TtvState *s, const Binding *b, guint i, const TtvEvent *ev, guint32 pid)
{
  if (pid == 0 || !ttv_field_accessor_is_valid (&b->fields[i]))
    return;
  const TtvProcessState *p = ttv_state_get_process (s, pid);
  if (p == NULL || p->name != 0)
    return;
  g_autofree char *name = dup_string_field (m, b, i, ev);
  if (name && *name)
    ttv_state_name_process (s, pid, name);
}

static char *
dup_string_field (TtvKernelModel *m, const Binding *b, guint i, const TtvEvent *ev)
{
  gsize len = 0;
  const char *s = ttv_field_accessor_get_string (&b->fields[i], ev, m->scratch, &len);
  return s ? g_strndup (s, len) : NULL;
}

/* LTTng names an IRQ at each of its entries, nearly always as before.
 * TRUE when the entry's bytes spell, NUL included, the name the model
 * last gave the IRQ and the state still has it (the model may apply to
 * other states, and descriptions rename): naming it again would change
 * nothing.  This spares the search for the NUL over the packet's rest and
 * the state's comparison. */
static gboolean
irq_named_as_before (const TtvKernelModel *m, const TtvState *s, const Binding *b, const TtvEvent *ev,
                     guint32 irq)
{
  const IrqNameMemo *memo = &m->irq_names[irq % IRQ_NAME_MEMOS];
  gsize avail = 0;
  const char *bytes = ttv_field_accessor_string_start (&b->fields[1], ev, &avail);
  if (bytes == NULL || memo->name == 0 || memo->irq != irq || memo->len >= avail)
    return FALSE;
  const TtvIrqState *q = ttv_state_get_irq (s, irq, FALSE);
  return q != NULL && q->name == memo->name && memcmp (bytes, memo->text, memo->len + 1) == 0;
}

static void
remember_irq_name (TtvKernelModel *m, const TtvState *s, guint32 irq)
{
  const TtvIrqState *q = ttv_state_get_irq (s, irq, FALSE);
  if (q == NULL || q->name == 0)
    return;
  IrqNameMemo *memo = &m->irq_names[irq % IRQ_NAME_MEMOS];
  memo->irq = irq;
  memo->name = q->name;
  memo->text = g_quark_to_string (q->name);
  memo->len = strlen (memo->text);
}

/* The name is read where it lies in the trace data and copied only when
 * it changes. */
static void
name_irq_from_field (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev, guint32 irq)
{
  if (irq_named_as_before (m, s, b, ev, irq))
    return;
  gsize len = 0;
  const char *name = ttv_field_accessor_get_string (&b->fields[1], ev, m->scratch, &len);
  if (name == NULL)
    return;
  ttv_state_name_irq_bytes (s, irq, name, len);
  remember_irq_name (m, s, irq);
}

/* The request a block event is about; anonymous when the trace does not
 * give its sector and size. */
static gboolean
read_block_request (TtvKernelModel *m, const Binding *b, const TtvEvent *ev, TtvBlockRequest *rq)
{
  gint64 sector, n;
  memset (rq, 0, sizeof *rq);
  if (!get_u32 (m, b, 0, ev, &rq->dev))
    return FALSE;
  if (ttv_field_accessor_get_int (&b->fields[1], ev, m->scratch, &sector)
      && ttv_field_accessor_get_int (&b->fields[2], ev, m->scratch, &n))
    {
      rq->sector = (guint64) sector;
      rq->n_sectors = (guint32) n;
    }
  else
    rq->anonymous = TRUE;
  return TRUE;
}

/* Events without a pid field are about the task running on their CPU. */
static guint32
running_pid (const TtvState *s, gint cpu)
{
  const TtvProcessState *p = ttv_state_get_running (s, cpu);
  return p ? p->pid : TTV_PID_NONE;
}

static void
apply_user_context (TtvKernelModel *m, TtvState *s, const TtvEvent *ev)
{
  TtvEventOwner owner;
  if (!ttv_event_owner_from_context (ev, m->scratch, &owner) || owner.tid < 0)
    return;
  guint32 tgid = owner.pid >= 0 && owner.pid < G_MAXUINT32 ? (guint32) owner.pid : TTV_PID_NONE;
  if (owner.tid < G_MAXUINT32)
    ttv_state_user_event (s, ev->tracefile->cpu, (guint32) owner.tid, tgid, owner.name, ev->time);
}

gboolean
ttv_kernel_model_get_int (TtvKernelModel *m, guint trace_index, const TtvEvent *ev, guint field,
                          gint64 *out)
{
  const Binding *b = binding_for (m, trace_index, ev->type);
  if (b == NULL || field >= TTV_KM_MAX_FIELDS)
    return FALSE;
  return ttv_field_accessor_get_int (&b->fields[field], ev, m->scratch, out);
}

char *
ttv_kernel_model_dup_string (TtvKernelModel *m, guint trace_index, const TtvEvent *ev, guint field)
{
  const Binding *b = binding_for (m, trace_index, ev->type);
  if (b == NULL || field >= TTV_KM_MAX_FIELDS || !ttv_field_accessor_is_valid (&b->fields[field]))
    return NULL;
  return dup_string_field (m, b, field, ev);
}

GQuark
ttv_kernel_model_get_syscall (TtvKernelModel *m, guint trace_index, const TtvEvent *ev)
{
  const Binding *b = binding_for (m, trace_index, ev->type);
  if (b == NULL)
    return 0;
  if (b->action == TTV_KM_SYSCALL_ENTRY)
    return syscall_quark (m, b, ev);
  return b->action == TTV_KM_SYSCALL_EXIT ? b->syscall : 0;
}

/* One function per action, called through apply_action[] as the last
 * thing ttv_kernel_model_apply() does: each saves only what it needs, and
 * the common ones (a syscall, a trap, an IRQ entered or left) save nothing
 * before they pass the event on to the state. */
typedef void (*ApplyAction) (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev);

static void
apply_nothing (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
}

static void
apply_sched_switch (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a, c;
  if (get_u32 (m, b, 0, ev, &a) && get_u32 (m, b, 1, ev, &c))
    {
      guint unnamed = ttv_state_sched_switch (s, ev->tracefile->cpu, a, c, read_status (m, b, ev, &switch_out),
                                              ev->time);
      /* LTTng names both tasks: the only names of tasks that existed
       * before the trace when there is no statedump.  The state says
       * which still need one, without looking them up again. */
      if (G_UNLIKELY (unnamed & TTV_SWITCH_PREV_UNNAMED))
        name_if_unnamed (m, s, b, 3, ev, a);
      if (G_UNLIKELY (unnamed & TTV_SWITCH_NEXT_UNNAMED))
        name_if_unnamed (m, s, b, 4, ev, c);
    }
}

static void
apply_fork (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a, c, d;
  if (get_u32 (m, b, TTV_KM_FORK_PARENT, ev, &a) && get_u32 (m, b, TTV_KM_FORK_CHILD, ev, &c))
    {
      g_autofree char *name = dup_string_field (m, b, TTV_KM_FORK_CHILD_NAME, ev);
      if (!get_u32 (m, b, TTV_KM_FORK_CHILD_TGID, ev, &d))
        d = c;
      ttv_state_fork (s, a, c, d, name, ev->time);
    }
}

static void
apply_exec (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a;
  g_autofree char *filename = dup_string_field (m, b, 0, ev);
  if (!get_u32 (m, b, 1, ev, &a))
    a = running_pid (s, ev->tracefile->cpu);
  if (a != TTV_PID_NONE)
    ttv_state_exec (s, a, filename, ev->time);
}

/* Exit, free and wakeup: about the task their pid field names, or else
 * the task running on their CPU. */
static void
apply_task_event (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a;
  if (!get_u32 (m, b, TTV_KM_TASK_PID, ev, &a))
    a = running_pid (s, ev->tracefile->cpu);
  if (a == TTV_PID_NONE)
    return;
  if (b->action == TTV_KM_EXIT)
    ttv_state_exit (s, a, ev->time);
  else if (b->action == TTV_KM_FREE)
    ttv_state_free_process (s, a, ev->time);
  else
    ttv_state_wakeup (s, a, ev->time);
}

static void
apply_syscall_entry (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  ttv_state_push_mode (s, ev->tracefile->cpu, TTV_MODE_SYSCALL, syscall_quark (m, b, ev), ev->time);
}

static void
apply_syscall_exit (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  ttv_state_syscall_exit (s, ev->tracefile->cpu, b->syscall, ev->time);
}

static void
apply_trap_entry (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a;
  if (!get_u32 (m, b, 0, ev, &a))
    a = 0;
  ttv_state_push_mode (s, ev->tracefile->cpu, TTV_MODE_TRAP, a, ev->time);
}

static void
apply_trap_exit (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  ttv_state_pop_mode (s, ev->tracefile->cpu, TTV_MODE_TRAP, ev->time);
}

static void
apply_irq_entry (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a;
  if (get_u32 (m, b, 0, ev, &a))
    {
      name_irq_from_field (m, s, b, ev, a);
      ttv_state_push_mode (s, ev->tracefile->cpu, TTV_MODE_IRQ, a, ev->time);
    }
}

static void
apply_irq_exit (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  ttv_state_pop_mode (s, ev->tracefile->cpu, TTV_MODE_IRQ, ev->time);
}

static void
apply_softirq_entry (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a;
  if (get_u32 (m, b, 0, ev, &a))
    ttv_state_push_mode (s, ev->tracefile->cpu, TTV_MODE_SOFTIRQ, a, ev->time);
}

static void
apply_softirq_exit (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  ttv_state_pop_mode (s, ev->tracefile->cpu, TTV_MODE_SOFTIRQ, ev->time);
}

static void
apply_process_description (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a, c, d;
  if (get_u32 (m, b, 0, ev, &a))
    {
      g_autofree char *name = dup_string_field (m, b, 3, ev);
      if (!get_u32 (m, b, 1, ev, &c))
        c = a;
      if (!get_u32 (m, b, 2, ev, &d))
        d = TTV_PID_NONE;
      ttv_state_declare_process (s, a, c, d, name, read_status (m, b, ev, &description), ev->tracefile->cpu,
                                 ev->time);
    }
}

static void
apply_irq_description (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  guint32 a;
  if (get_u32 (m, b, 0, ev, &a))
    {
      g_autofree char *name = dup_string_field (m, b, 1, ev);
      ttv_state_name_irq (s, a, name);
    }
}

static void
apply_block_event (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  TtvBlockRequest rq;
  if (!read_block_request (m, b, ev, &rq))
    return;
  if (b->action == TTV_KM_BLOCK_ISSUE)
    ttv_state_block_issue (s, &rq, ev->time);
  else
    ttv_state_block_complete (s, &rq, ev->time);
}

static const ApplyAction apply_action[] = {
  [TTV_KM_NONE] = apply_nothing,
  [TTV_KM_SCHED_SWITCH] = apply_sched_switch,
  [TTV_KM_FORK] = apply_fork,
  [TTV_KM_EXEC] = apply_exec,
  [TTV_KM_EXIT] = apply_task_event,
  [TTV_KM_FREE] = apply_task_event,
  [TTV_KM_WAKEUP] = apply_task_event,
  [TTV_KM_SYSCALL_ENTRY] = apply_syscall_entry,
  [TTV_KM_SYSCALL_EXIT] = apply_syscall_exit,
  [TTV_KM_TRAP_ENTRY] = apply_trap_entry,
  [TTV_KM_TRAP_EXIT] = apply_trap_exit,
  [TTV_KM_IRQ_ENTRY] = apply_irq_entry,
  [TTV_KM_IRQ_EXIT] = apply_irq_exit,
  [TTV_KM_SOFTIRQ_ENTRY] = apply_softirq_entry,
  [TTV_KM_SOFTIRQ_EXIT] = apply_softirq_exit,
  [TTV_KM_PROCESS_DESCRIPTION] = apply_process_description,
  [TTV_KM_IRQ_DESCRIPTION] = apply_irq_description,
  [TTV_KM_BLOCK_ISSUE] = apply_block_event,
  [TTV_KM_BLOCK_COMPLETE] = apply_block_event,
  [TTV_KM_BLOCK_REQUEUE] = apply_block_event,
  [TTV_KM_SOFTIRQ_RAISE] = apply_nothing,
  [TTV_KM_FD_DESCRIPTION] = apply_nothing,
};
G_STATIC_ASSERT (G_N_ELEMENTS (apply_action) == TTV_KM_FD_DESCRIPTION + 1);

/* An event whose binding names its thread in its context (userspace):
 * out of line, so that ttv_kernel_model_apply() needs no frame. */
static G_NO_INLINE void
apply_with_user_context (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  apply_user_context (m, s, ev);
  apply_action[b->action] (m, s, b, ev);
}

static void
apply_bound (TtvKernelModel *m, TtvState *s, const Binding *b, const TtvEvent *ev)
{
  if (b == NULL)
    return;
  if (G_UNLIKELY (b->user_context))
    apply_with_user_context (m, s, b, ev);
  else
    apply_action[b->action] (m, s, b, ev);
}

/* An event of a trace not in the model, or the first of a machine since
 * another's. */
static G_NO_INLINE void
apply_beginning_otherwise (TtvKernelModel *m, TtvState *s, guint trace_index, const TtvEvent *ev)
{
  if (trace_index < m->traces->len)
    ttv_state_begin_machine_event (s, m->trace_machine[trace_index], ev->time);
  else
    ttv_state_begin_event (s, ev->time);
  apply_bound (m, s, binding_for (m, trace_index, ev->type), ev);
}

/* Every call here ends the function (a jump, no register saved): the
 * usual event begins inline, on the machine of the last one. */
void
ttv_kernel_model_apply (TtvKernelModel *m, TtvState *s, guint trace_index, const TtvEvent *ev)
{
  if (G_UNLIKELY (trace_index >= m->traces->len
                  || !ttv_state_begin_event_on (s, m->trace_machine[trace_index], ev->time)))
    apply_beginning_otherwise (m, s, trace_index, ev);
  else
    apply_bound (m, s, binding_in_trace (m, trace_index, ev->type), ev);
}

void
ttv_kernel_model_apply_initial (TtvKernelModel *m, TtvState *s, const TtvTrace *trace)
{
  guint index;
  if (g_ptr_array_find (m->traces, trace, &index))
    ttv_state_select_machine (s, m->trace_machine[index]);
  /* LTT and LTTng 0.x keep the processes and interrupts that existed at
   * trace start in control files, outside the event stream. */
  const GArray *procs = ttv_trace_get_processes (trace);
  for (guint i = 0; procs && i < procs->len; i++)
    {
      const TtvTraceProcess *p = &g_array_index (procs, TtvTraceProcess, i);
      ttv_state_declare_process (s, p->pid, p->pid, p->ppid, p->name,
                                 p->state_name ? status_from_label (p->state_name) : TTV_PROCESS_WAIT,
                                 -1, p->time);
    }
  const GArray *irqs = ttv_trace_get_interrupts (trace);
  for (guint i = 0; irqs && i < irqs->len; i++)
    {
      const TtvTraceInterrupt *q = &g_array_index (irqs, TtvTraceInterrupt, i);
      ttv_state_name_irq (s, q->number, q->name);
    }
}

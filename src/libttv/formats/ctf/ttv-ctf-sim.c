/* ttv-ctf-sim.c: the simulated kernel's events translated to LTTng 2.x kernel
 * events and written with the CTF writer (see the header). */
#include "ttv-ctf-sim.h"

#include "ttv-ctf-net-dev.h"
#include "ttv-error.h"
#include "ttv-sim-net.h"

#include <string.h>

#define MAX_FIELDS 16
#define IRQ_STACK 16
#define COMM_LEN 16

/* The event classes, in id order: the frequent ones first get compact headers. */
typedef enum {
  K_SCHED_SWITCH, K_SCHED_WAKEUP, K_IRQ_ENTRY, K_IRQ_EXIT, K_SOFTIRQ_ENTRY, K_SOFTIRQ_EXIT,
  K_TRAP_ENTRY, K_TRAP_EXIT, K_FORK, K_EXEC, K_EXIT, K_FREE, K_BLOCK_ISSUE, K_BLOCK_COMPLETE,
  K_NET_XMIT, K_NET_RECEIVE, K_STATEDUMP_PROCESS, K_STATEDUMP_INTERRUPT, K_SYSCALL_ENTRY_UNKNOWN,
  K_SYSCALL_EXIT_UNKNOWN, K_SOFTIRQ_RAISE, K_STATEDUMP_FD, K_N,
  /* Declared last, and only when the machine talks over a network: traces
   * without one keep their event ids. */
  K_INET_OUT = K_N, K_INET_IN, K_NET_DEV_QUEUE, K_NET_IF_RECEIVE, K_ALL
} Kind;

static const char * const kind_names[K_ALL] = {
  "sched_switch", "sched_wakeup", "irq_handler_entry", "irq_handler_exit", "softirq_entry",
  "softirq_exit", "trap_entry", "trap_exit", "sched_process_fork", "sched_process_exec",
  "sched_process_exit", "sched_process_free", "block_rq_issue", "block_rq_complete",
  "net_dev_xmit", "netif_receive_skb", "lttng_statedump_process_state",
  "lttng_statedump_interrupt", "syscall_entry_unknown", "syscall_exit_unknown", "softirq_raise",
  "lttng_statedump_file_descriptor", "inet_sock_local_out", "inet_sock_local_in",
  "net_dev_queue", "net_if_receive_skb",
};

/* Syscalls frequent enough in the simulation to deserve compact ids. */
static const char * const hot_syscalls[] = {
  "read", "write", "clock_gettime", "futex", "gettimeofday", "recvfrom", "epoll_wait", "poll",
  "close", "ioctl", "sendto",
};

typedef struct {
  char comm[COMM_LEN];
  guint32 tgid;
  gint syscall;                   /* enum value of the syscall in progress, -1: none */
} Task;

typedef struct {
  guint32 irq[IRQ_STACK];
  guint depth;
} IrqStack;

/* The arguments a syscall entry event carries (the sim knows these). */
typedef enum { ARGS_NONE, ARGS_FD, ARGS_OPEN, ARGS_OPENAT, ARGS_FUTEX } ArgsKind;

static ArgsKind
args_kind (const char *label)
{
  static const char *const fd_calls[] = { "read", "write", "pread64", "close", "fstat", "lseek", "ioctl",
                                          "fcntl", "fsync", NULL };
  if (g_strv_contains (fd_calls, label))
    return ARGS_FD;
  if (g_str_equal (label, "open"))
    return ARGS_OPEN;
  if (g_str_equal (label, "openat"))
    return ARGS_OPENAT;
  return g_str_equal (label, "futex") ? ARGS_FUTEX : ARGS_NONE;
}

typedef struct {
  TtvCtfWriter *writer;           /* weak */
  TtvSim *sim;                    /* weak */
  GArray *entry_args;             /* of ArgsKind, by syscall enum value */
  guint control_cpu;              /* stream of the statedump events */
  gint kind_handle[K_ALL];
  const GArray *network;          /* of TtvSimNetEvent, by time; may be NULL */
  TtvCtfNetEvents net_events;
  guint pointer_bits;             /* of the traced machine: 32-bit kernels' sockets are 0xc... */
  guint network_next;
  GArray *entry_handle;           /* of gint, by syscall enum value */
  GArray *exit_handle;
  GHashTable *tasks;              /* pid -> Task *, owned */
  GHashTable *irq_names;          /* irq number -> char *, owned */
  GHashTable *irq_stacks;         /* cpu id -> IrqStack *, owned */
  TtvSimEmitFunc tap;
  gpointer tap_data;
  TtvCtfSimStats *stats;
  char swapper[COMM_LEN];
} Sink;

const char *
ttv_ctf_sim_event_name (guint sim_event)
{
  switch (sim_event)
    {
    case TTV_SIM_EVENT_TRAP_ENTRY: return kind_names[K_TRAP_ENTRY];
    case TTV_SIM_EVENT_TRAP_EXIT: return kind_names[K_TRAP_EXIT];
    case TTV_SIM_EVENT_IRQ_ENTRY: return kind_names[K_IRQ_ENTRY];
    case TTV_SIM_EVENT_IRQ_EXIT: return kind_names[K_IRQ_EXIT];
    case TTV_SIM_EVENT_SOFT_IRQ_ENTRY: return kind_names[K_SOFTIRQ_ENTRY];
    case TTV_SIM_EVENT_SOFT_IRQ_EXIT: return kind_names[K_SOFTIRQ_EXIT];
    case TTV_SIM_EVENT_SCHED_SWITCH: return kind_names[K_SCHED_SWITCH];
    case TTV_SIM_EVENT_SCHED_WAKEUP: return kind_names[K_SCHED_WAKEUP];
    case TTV_SIM_EVENT_PROCESS_FORK: return kind_names[K_FORK];
    case TTV_SIM_EVENT_PROCESS_EXEC: return kind_names[K_EXEC];
    case TTV_SIM_EVENT_PROCESS_EXIT: return kind_names[K_EXIT];
    case TTV_SIM_EVENT_PROCESS_FREE: return kind_names[K_FREE];
    case TTV_SIM_EVENT_PROCESS: return kind_names[K_STATEDUMP_PROCESS];
    case TTV_SIM_EVENT_INTERRUPT: return kind_names[K_STATEDUMP_INTERRUPT];
    case TTV_SIM_EVENT_REQUEST_ISSUE: return kind_names[K_BLOCK_ISSUE];
    case TTV_SIM_EVENT_REQUEST_COMPLETE: return kind_names[K_BLOCK_COMPLETE];
    case TTV_SIM_EVENT_DEV_XMIT: return kind_names[K_NET_XMIT];
    case TTV_SIM_EVENT_NETIF_RECEIVE: return kind_names[K_NET_RECEIVE];
    case TTV_SIM_EVENT_SOFT_IRQ_RAISE: return kind_names[K_SOFTIRQ_RAISE];
    default: return NULL;
    }
}

/* --- Event class layouts (LTTng 2.x kernel) ----------------------------------- */

typedef struct {
  TtvByteOrder order;
  guint long_bits;
  TtvType *current;
} Layout;

static TtvType *
int_type (Layout *l, guint bits, gboolean is_signed, guint base)
{
  TtvType *t = ttv_type_new_integer (bits, is_signed, l->order, bits);
  t->base = base;
  return t;
}

static void
field (Layout *l, const char *name, TtvType *type)
{
  ttv_type_add_field (l->current, name, type, NULL);
}

static void s32 (Layout *l, const char *name) { field (l, name, int_type (l, 32, TRUE, 10)); }
static void u32 (Layout *l, const char *name) { field (l, name, int_type (l, 32, FALSE, 10)); }
static void u64 (Layout *l, const char *name) { field (l, name, int_type (l, 64, FALSE, 10)); }
static void str (Layout *l, const char *name) { field (l, name, ttv_type_new_string ()); }

static void
comm (Layout *l, const char *name)
{
  TtvType *c = ttv_type_new_integer (8, FALSE, l->order, 8);
  c->encoding = TTV_ENCODING_UTF8;
  field (l, name, ttv_type_new_array (c, COMM_LEN));
}

static void
ulong_hex (Layout *l, const char *name)
{
  field (l, name, int_type (l, l->long_bits, FALSE, 16));
}

static void
slong (Layout *l, const char *name)
{
  field (l, name, int_type (l, l->long_bits, TRUE, 10));
}

static TtvType *
layout_of (Layout *l, Kind k)
{
  l->current = ttv_type_new_struct ();
  switch (k)
    {
    case K_SCHED_SWITCH:
      comm (l, "prev_comm"); s32 (l, "prev_tid"); s32 (l, "prev_prio");
      field (l, "prev_state", int_type (l, 64, TRUE, 10));
      comm (l, "next_comm"); s32 (l, "next_tid"); s32 (l, "next_prio");
      break;
    case K_SCHED_WAKEUP:
      comm (l, "comm"); s32 (l, "tid"); s32 (l, "prio"); s32 (l, "target_cpu");
      break;
    case K_IRQ_ENTRY:
      s32 (l, "irq"); str (l, "name");
      break;
    case K_IRQ_EXIT:
      s32 (l, "irq"); s32 (l, "ret");
      break;
    case K_SOFTIRQ_ENTRY:
    case K_SOFTIRQ_EXIT:
      u32 (l, "vec");
      break;
    case K_TRAP_ENTRY:
      field (l, "trap_id", int_type (l, 16, FALSE, 10)); ulong_hex (l, "address");
      break;
    case K_TRAP_EXIT:
      break;
    case K_FORK:
      comm (l, "parent_comm"); s32 (l, "parent_tid"); s32 (l, "parent_pid");
      comm (l, "child_comm"); s32 (l, "child_tid"); s32 (l, "child_pid");
      break;
    case K_EXEC:
      str (l, "filename"); s32 (l, "tid"); s32 (l, "old_tid");
      break;
    case K_EXIT:
    case K_FREE:
      comm (l, "comm"); s32 (l, "tid"); s32 (l, "prio");
      break;
    case K_BLOCK_ISSUE:
      u32 (l, "dev"); u64 (l, "sector"); u32 (l, "nr_sector"); u32 (l, "bytes"); s32 (l, "tid");
      u32 (l, "rwbs"); comm (l, "comm");
      break;
    case K_BLOCK_COMPLETE:
      u32 (l, "dev"); u64 (l, "sector"); u32 (l, "nr_sector"); s32 (l, "error"); u32 (l, "rwbs");
      break;
    case K_NET_XMIT:
      ulong_hex (l, "skbaddr"); s32 (l, "rc"); u32 (l, "len"); str (l, "name");
      break;
    case K_NET_RECEIVE:
      ulong_hex (l, "skbaddr"); u32 (l, "len"); str (l, "name");
      break;
    case K_STATEDUMP_PROCESS:
      s32 (l, "tid"); s32 (l, "vtid"); s32 (l, "pid"); s32 (l, "vpid"); s32 (l, "ppid");
      s32 (l, "vppid"); comm (l, "name"); s32 (l, "type"); s32 (l, "mode"); s32 (l, "submode");
      s32 (l, "status"); s32 (l, "ns_level");
      break;
    case K_STATEDUMP_INTERRUPT:
      u32 (l, "irq"); str (l, "name"); str (l, "action");
      break;
    case K_SYSCALL_ENTRY_UNKNOWN:
      s32 (l, "id");
      break;
    case K_SYSCALL_EXIT_UNKNOWN:
      s32 (l, "id"); slong (l, "ret");
      break;
    case K_SOFTIRQ_RAISE:
      u32 (l, "vec");
      break;
    case K_STATEDUMP_FD:
      s32 (l, "pid"); s32 (l, "fd"); str (l, "filename");
      break;
    case K_INET_OUT:
    case K_INET_IN:
      ulong_hex (l, "sk"); u32 (l, "saddr"); u32 (l, "daddr");
      field (l, "sport", int_type (l, 16, FALSE, 10)); field (l, "dport", int_type (l, 16, FALSE, 10));
      u32 (l, "seq"); u32 (l, "ack_seq"); field (l, "flags", int_type (l, 8, FALSE, 16));
      break;
    case K_ALL:
    default:
      break;
    }
  ttv_type_finish (l->current);
  return l->current;
}

static gint
add (Sink *sink, const char *name, TtvType *fields, GError **error)
{
  gint h = ttv_ctf_writer_add_event (sink->writer, name, fields, error);
  ttv_type_unref (fields);
  return h;
}

static gboolean
add_syscall (Sink *sink, Layout *l, guint value, const char *label, GError **error)
{
  if (g_array_index (sink->entry_handle, gint, value) >= 0)
    return TRUE;
  g_autofree char *entry = g_strconcat ("syscall_entry_", label, NULL);
  g_autofree char *exit_ = g_strconcat ("syscall_exit_", label, NULL);
  /* The arguments as lttng-modules names them, those the sim knows. */
  ArgsKind kind = args_kind (label);
  g_array_index (sink->entry_args, ArgsKind, value) = kind;
  l->current = ttv_type_new_struct ();
  switch (kind)
    {
    case ARGS_FD:
      u32 (l, "fd");
      break;
    case ARGS_OPENAT:
      s32 (l, "dfd");
      /* fall through */
    case ARGS_OPEN:
      str (l, "filename"); s32 (l, "flags"); u32 (l, "mode");
      break;
    case ARGS_FUTEX:
      ulong_hex (l, "uaddr"); s32 (l, "op"); u32 (l, "val");
      break;
    default:
      break;
    }
  ttv_type_finish (l->current);
  gint a = add (sink, entry, l->current, error);
  if (a < 0)
    return FALSE;
  l->current = ttv_type_new_struct ();
  slong (l, "ret");
  ttv_type_finish (l->current);
  gint b = add (sink, exit_, l->current, error);
  if (b < 0)
    return FALSE;
  g_array_index (sink->entry_handle, gint, value) = a;
  g_array_index (sink->exit_handle, gint, value) = b;
  return TRUE;
}

static gboolean
declare_events (Sink *sink, const TtvCtfWriterOptions *opts, GError **error)
{
  Layout l = { opts->byte_order, opts->long_bits ? opts->long_bits : 64, NULL };
  g_autoptr (TtvSimSchema) schema = ttv_sim_schema_new (opts->byte_order);
  const TtvType *sc = ((TtvField *) g_ptr_array_index (
                         schema->events[TTV_SIM_EVENT_SYSCALL_ENTRY].fields->fields, 0))->type;
  guint64 max_value = 0;
  for (guint i = 0; i < sc->mappings->len; i++)
    max_value = MAX (max_value, g_array_index (sc->mappings, TtvEnumMapping, i).end);
  max_value = MIN (max_value, 4095);
  g_array_set_size (sink->entry_handle, (guint) max_value + 1);
  g_array_set_size (sink->exit_handle, (guint) max_value + 1);
  g_array_set_size (sink->entry_args, (guint) max_value + 1);
  for (guint i = 0; i <= max_value; i++)
    g_array_index (sink->entry_handle, gint, i) = g_array_index (sink->exit_handle, gint, i) = -1;

  /* Compact ids (0..30): scheduling, interrupts, traps, the hot syscalls. */
  for (Kind k = K_SCHED_SWITCH; k <= K_TRAP_EXIT; k++)
    if ((sink->kind_handle[k] = add (sink, kind_names[k], layout_of (&l, k), error)) < 0)
      return FALSE;
  for (guint h = 0; h < G_N_ELEMENTS (hot_syscalls); h++)
    for (guint i = 0; i < sc->mappings->len; i++)
      {
        const TtvEnumMapping *m = &g_array_index (sc->mappings, TtvEnumMapping, i);
        if (m->start == m->end && m->start <= max_value && g_str_equal (m->label, hot_syscalls[h])
            && !add_syscall (sink, &l, (guint) m->start, m->label, error))
          return FALSE;
      }
  for (Kind k = K_FORK; k < K_N; k++)
    if ((sink->kind_handle[k] = add (sink, kind_names[k], layout_of (&l, k), error)) < 0)
      return FALSE;
  for (guint i = 0; i < sc->mappings->len; i++)
    {
      const TtvEnumMapping *m = &g_array_index (sc->mappings, TtvEnumMapping, i);
      if (m->start == m->end && m->start <= max_value
          && !add_syscall (sink, &l, (guint) m->start, m->label, error))
        return FALSE;
    }
  if (sink->network && sink->net_events == TTV_CTF_NET_INET_SOCK)
    for (Kind k = K_INET_OUT; k <= K_INET_IN; k++)
      if ((sink->kind_handle[k] = add (sink, kind_names[k], layout_of (&l, k), error)) < 0)
        return FALSE;
  if (sink->network && sink->net_events == TTV_CTF_NET_DEV)
    for (Kind k = K_NET_DEV_QUEUE; k <= K_NET_IF_RECEIVE; k++)
      if ((sink->kind_handle[k] = add (sink, kind_names[k], ttv_ctf_net_dev_type (l.order, l.long_bits),
                                       error)) < 0)
        return FALSE;
  return TRUE;
}

/* --- Translation ------------------------------------------------------------- */

static Task *
task_get (Sink *sink, guint32 pid)
{
  Task *t = g_hash_table_lookup (sink->tasks, GUINT_TO_POINTER (pid));
  if (t == NULL)
    {
      t = g_new0 (Task, 1);
      t->tgid = pid;
      t->syscall = -1;
      const char *name = ttv_sim_get_process_name (sink->sim, pid);
      g_strlcpy (t->comm, name ? name : "", sizeof t->comm);
      g_hash_table_insert (sink->tasks, GUINT_TO_POINTER (pid), t);
    }
  return t;
}

static const char *
comm_of (Sink *sink, guint32 pid, guint cpu)
{
  if (pid == 0)
    {
      g_snprintf (sink->swapper, sizeof sink->swapper, "swapper/%u", cpu);
      return sink->swapper;
    }
  return task_get (sink, pid)->comm;
}

static guint32
tgid_of (Sink *sink, guint32 pid)
{
  return pid == 0 ? 0 : task_get (sink, pid)->tgid;
}

static IrqStack *
irq_stack (Sink *sink, guint cpu)
{
  IrqStack *s = g_hash_table_lookup (sink->irq_stacks, GUINT_TO_POINTER (cpu));
  if (s == NULL)
    {
      s = g_new0 (IrqStack, 1);
      g_hash_table_insert (sink->irq_stacks, GUINT_TO_POINTER (cpu), s);
    }
  return s;
}

/* Linux task state bits for a sim prev_state. */
static gint64
task_state_bits (guint64 state)
{
  switch (state)
    {
    case TTV_SIM_TASK_RUNNING: return 0;
    case TTV_SIM_TASK_WAIT_INTERRUPTIBLE: return 1;
    case TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE: return 2;
    case TTV_SIM_TASK_ZOMBIE: return 32;   /* EXIT_ZOMBIE */
    case TTV_SIM_TASK_DEAD: return 16;     /* EXIT_DEAD */
    default: return 1;
    }
}

/* LTTng's statedump status for a sim process state: runnable tasks are
 * LTTNG_WAIT_CPU (2) until the first sched_switch shows who runs. */
static gint64
statedump_status (guint64 state)
{
  switch (state)
    {
    case TTV_SIM_PROCESS_RUNNING: return 2;
    case TTV_SIM_PROCESS_ZOMBIE: return 4;
    default: return 5;               /* LTTNG_WAIT */
    }
}

#define I(x) TTV_SCALAR_INT (x)
#define U(x) TTV_SCALAR_UINT (x)
#define S(x) TTV_SCALAR_STRING (x)

/* The packets that left or arrived up to @time, on the control CPU's
 * stream (every stream stays in time order: they are not later than the
 * event about to be written). */
static gboolean
write_network (Sink *sink, TtvTime time, GError **error)
{
  const TtvSimNetEvent *e;
  while ((e = ttv_sim_net_next_due (sink->network, &sink->network_next, time)) != NULL)
    {
      TtvSimNetEvent at = *e;
      if (sink->pointer_bits == 32)
        at.sk = 0xc0000000u | (e->sk & 0x3fffffffu);
      e = &at;
      gboolean ok;
      if (sink->net_events == TTV_CTF_NET_DEV)
        {
          TtvScalar v[TTV_CTF_NET_DEV_MAX_VALUES];
          guint n = ttv_ctf_net_dev_values (e, "eth0", v);
          gint handle = sink->kind_handle[e->receive ? K_NET_IF_RECEIVE : K_NET_DEV_QUEUE];
          ok = ttv_ctf_writer_write_event (sink->writer, sink->control_cpu, e->time, (guint) handle, v, n, error);
        }
      else if (!ttv_sim_net_event_is_tcp (e))
        continue;   /* inet_sock events are TCP's */
      else
        {
          TtvScalar v[] = { U (e->sk), U (e->saddr), U (e->daddr), U (e->sport), U (e->dport),
                            U (e->seq), U (e->ack_seq), U (e->flags) };
          gint handle = sink->kind_handle[e->receive ? K_INET_IN : K_INET_OUT];
          ok = ttv_ctf_writer_write_event (sink->writer, sink->control_cpu, e->time, (guint) handle, v,
                                           G_N_ELEMENTS (v), error);
        }
      if (!ok)
        return FALSE;
      sink->stats->n_events++;
    }
  return TRUE;
}

static gboolean
ctf_emit (gpointer user_data, gint stream, TtvTime time, guint event, const TtvScalar *values,
          guint n_values, GError **error)
{
  Sink *sink = user_data;
  if (sink->network && !write_network (sink, time, error))
    return FALSE;
  if (sink->stats->n_events++ == 0)
    sink->stats->first = time;
  sink->stats->last = time;

  guint cpu = stream < 0 ? sink->control_cpu : (guint) stream;
  TtvScalar v[MAX_FIELDS];
  guint n = 0;
  gint handle = -1;
  const TtvScalar *in = values;

  switch (event)
    {
    case TTV_SIM_EVENT_SYSCALL_ENTRY:
      {
        guint64 id = in[0].u;
        gint pid = ttv_sim_get_running_pid (sink->sim, cpu);
        if (pid > 0)
          task_get (sink, (guint32) pid)->syscall = id < sink->entry_handle->len ? (gint) id : -1;
        if (id < sink->entry_handle->len && g_array_index (sink->entry_handle, gint, id) >= 0)
          {
            handle = g_array_index (sink->entry_handle, gint, id);
            TtvSimCallArgs a;
            if (!ttv_sim_get_call_args (sink->sim, cpu, &a))
              memset (&a, 0, sizeof a);
            switch (g_array_index (sink->entry_args, ArgsKind, id))
              {
              case ARGS_FD:
                v[n++] = U (a.fd >= 0 ? (guint64) a.fd : 0);
                break;
              case ARGS_OPENAT:
                v[n++] = I (-100);      /* AT_FDCWD */
                /* fall through */
              case ARGS_OPEN:
                v[n++] = S (a.filename ? a.filename : "");
                v[n++] = I (0);
                v[n++] = U (0644);
                break;
              case ARGS_FUTEX:
                v[n++] = U (a.uaddr);
                v[n++] = I ((gint32) a.op);
                v[n++] = U (0);
                break;
              default:
                break;
              }
          }
        else
          {
            handle = sink->kind_handle[K_SYSCALL_ENTRY_UNKNOWN];
            v[n++] = I ((gint32) id);
          }
      }
      break;
    case TTV_SIM_EVENT_SYSCALL_EXIT:
      {
        gint pid = ttv_sim_get_running_pid (sink->sim, cpu);
        gint id = -1;
        if (pid > 0)
          {
            Task *t = task_get (sink, (guint32) pid);
            id = t->syscall;
            t->syscall = -1;
          }
        if (id >= 0 && g_array_index (sink->exit_handle, gint, id) >= 0)
          handle = g_array_index (sink->exit_handle, gint, id);
        else
          {
            handle = sink->kind_handle[K_SYSCALL_EXIT_UNKNOWN];
            v[n++] = I (id);
          }
        v[n++] = in[0];
      }
      break;
    case TTV_SIM_EVENT_TRAP_ENTRY:
      handle = sink->kind_handle[K_TRAP_ENTRY];
      v[n++] = in[0];
      v[n++] = in[1];
      break;
    case TTV_SIM_EVENT_TRAP_EXIT:
      handle = sink->kind_handle[K_TRAP_EXIT];
      break;
    case TTV_SIM_EVENT_IRQ_ENTRY:
      {
        guint32 irq = (guint32) in[0].u;
        IrqStack *s = irq_stack (sink, cpu);
        if (s->depth < IRQ_STACK)
          s->irq[s->depth] = irq;
        s->depth++;
        const char *name = g_hash_table_lookup (sink->irq_names, GUINT_TO_POINTER (irq));
        handle = sink->kind_handle[K_IRQ_ENTRY];
        v[n++] = I ((gint32) irq);
        v[n++] = S (name ? name : "");
      }
      break;
    case TTV_SIM_EVENT_IRQ_EXIT:
      {
        IrqStack *s = irq_stack (sink, cpu);
        guint32 irq = 0;
        if (s->depth > 0)
          {
            s->depth--;
            irq = s->depth < IRQ_STACK ? s->irq[s->depth] : 0;
          }
        handle = sink->kind_handle[K_IRQ_EXIT];
        v[n++] = I ((gint32) irq);
        v[n++] = I (1);        /* IRQ_HANDLED */
      }
      break;
    case TTV_SIM_EVENT_SOFT_IRQ_ENTRY:
    case TTV_SIM_EVENT_SOFT_IRQ_EXIT:
      handle = sink->kind_handle[event == TTV_SIM_EVENT_SOFT_IRQ_ENTRY ? K_SOFTIRQ_ENTRY
                                                                       : K_SOFTIRQ_EXIT];
      v[n++] = U (in[0].u);
      break;
    case TTV_SIM_EVENT_SCHED_SWITCH:
      {
        guint32 prev = (guint32) in[0].u, next = (guint32) in[1].u;
        handle = sink->kind_handle[K_SCHED_SWITCH];
        v[n++] = S (comm_of (sink, prev, cpu));
        v[n++] = I ((gint32) prev);
        v[n++] = I (20);
        v[n++] = I (task_state_bits (in[2].u));
        /* comm_of reuses one buffer for swapper: copy before the second call. */
        char prev_comm[COMM_LEN];
        g_strlcpy (prev_comm, v[0].str, sizeof prev_comm);
        v[0] = S (prev_comm);
        v[n++] = S (comm_of (sink, next, cpu));
        v[n++] = I ((gint32) next);
        v[n++] = I (20);
        if (!ttv_ctf_writer_write_event (sink->writer, cpu, time, (guint) handle, v, n, error))
          return FALSE;
        handle = -1;
      }
      break;
    case TTV_SIM_EVENT_SCHED_WAKEUP:
      {
        guint32 pid = (guint32) in[0].u;
        handle = sink->kind_handle[K_SCHED_WAKEUP];
        v[n++] = S (comm_of (sink, pid, cpu));
        v[n++] = I ((gint32) pid);
        v[n++] = I (20);
        v[n++] = I ((gint32) in[1].u);
      }
      break;
    case TTV_SIM_EVENT_PROCESS_FORK:
      {
        guint32 parent = (guint32) in[0].u, child = (guint32) in[1].u, tgid = (guint32) in[2].u;
        Task *c = task_get (sink, child);      /* the sim already knows the child */
        c->tgid = tgid;
        c->syscall = -1;
        char parent_comm[COMM_LEN];
        g_strlcpy (parent_comm, comm_of (sink, parent, cpu), sizeof parent_comm);
        if (!c->comm[0])
          g_strlcpy (c->comm, parent_comm, sizeof c->comm);
        handle = sink->kind_handle[K_FORK];
        v[n++] = S (parent_comm);
        v[n++] = I ((gint32) parent);
        v[n++] = I ((gint32) tgid_of (sink, parent));
        v[n++] = S (c->comm);
        v[n++] = I ((gint32) child);
        v[n++] = I ((gint32) tgid);
        if (!ttv_ctf_writer_write_event (sink->writer, cpu, time, (guint) handle, v, n, error))
          return FALSE;
        handle = -1;
      }
      break;
    case TTV_SIM_EVENT_PROCESS_EXEC:
      {
        guint32 pid = (guint32) in[0].u;
        Task *t = task_get (sink, pid);
        const char *name = ttv_sim_get_process_name (sink->sim, pid);
        if (name == NULL)
          {
            const char *slash = strrchr (in[1].str ? in[1].str : "", '/');
            name = slash ? slash + 1 : in[1].str ? in[1].str : "";
          }
        g_strlcpy (t->comm, name, sizeof t->comm);
        handle = sink->kind_handle[K_EXEC];
        v[n++] = in[1];
        v[n++] = I ((gint32) pid);
        v[n++] = I ((gint32) pid);
      }
      break;
    case TTV_SIM_EVENT_PROCESS_EXIT:
    case TTV_SIM_EVENT_PROCESS_FREE:
      {
        guint32 pid = (guint32) in[0].u;
        handle = sink->kind_handle[event == TTV_SIM_EVENT_PROCESS_EXIT ? K_EXIT : K_FREE];
        v[n++] = S (comm_of (sink, pid, cpu));
        v[n++] = I ((gint32) pid);
        v[n++] = I (20);
        if (!ttv_ctf_writer_write_event (sink->writer, cpu, time, (guint) handle, v, n, error))
          return FALSE;
        handle = -1;
        if (event == TTV_SIM_EVENT_PROCESS_FREE)
          g_hash_table_remove (sink->tasks, GUINT_TO_POINTER (pid));
      }
      break;
    case TTV_SIM_EVENT_PROCESS:
      {
        /* name, pid, ppid, tracer_pid, uid x8, state */
        guint32 pid = (guint32) in[1].u, ppid = (guint32) in[2].u;
        Task *t = task_get (sink, pid);
        g_strlcpy (t->comm, in[0].str ? in[0].str : "", sizeof t->comm);
        guint tgid = ttv_sim_get_process_tgid (sink->sim, pid);
        t->tgid = tgid ? tgid : pid;   /* the thread group, which LTT's layout lacks */
        gboolean kthread = pid == 2 || ppid == 2;
        handle = sink->kind_handle[K_STATEDUMP_PROCESS];
        v[n++] = I ((gint32) pid);
        v[n++] = I ((gint32) pid);
        v[n++] = I ((gint32) t->tgid);
        v[n++] = I ((gint32) t->tgid);
        v[n++] = I ((gint32) ppid);
        v[n++] = I ((gint32) ppid);
        v[n++] = in[0];
        v[n++] = I (kthread ? 1 : 0);   /* LTTNG_KERNEL_THREAD / LTTNG_USER_THREAD */
        v[n++] = I (5);                 /* LTTNG_MODE_UNKNOWN */
        v[n++] = I (1);                 /* LTTNG_UNKNOWN */
        v[n++] = I (statedump_status (in[12].u));
        v[n++] = I (0);
        if (!ttv_ctf_writer_write_event (sink->writer, cpu, time, (guint) handle, v, n, error))
          return FALSE;
        handle = -1;
        /* The files it has open. */
        gint fd;
        const char *filename;
        for (guint k = 0; ttv_sim_get_process_file (sink->sim, pid, k, &fd, &filename) && ttv_sim_take_event (sink->sim);
             k++)
          {
            TtvScalar f[3] = { I ((gint32) pid), I (fd), S (filename) };
            if (!ttv_ctf_writer_write_event (sink->writer, cpu, time, (guint) sink->kind_handle[K_STATEDUMP_FD], f, 3,
                                             error))
              return FALSE;
            sink->stats->n_events++;
          }
      }
      break;
    case TTV_SIM_EVENT_INTERRUPT:
      {
        /* number, count, controller, name */
        guint32 irq = (guint32) in[0].u;
        g_hash_table_insert (sink->irq_names, GUINT_TO_POINTER (irq),
                             g_strdup (in[3].str ? in[3].str : ""));
        handle = sink->kind_handle[K_STATEDUMP_INTERRUPT];
        v[n++] = U (irq);
        v[n++] = in[3];
        v[n++] = in[2];
      }
      break;
    case TTV_SIM_EVENT_REQUEST_ISSUE:
      {
        /* dev, sector, nr_sector, rw */
        gint pid = ttv_sim_get_running_pid (sink->sim, cpu);
        guint32 tid = pid > 0 ? (guint32) pid : 0;
        handle = sink->kind_handle[K_BLOCK_ISSUE];
        v[n++] = in[0];
        v[n++] = in[1];
        v[n++] = in[2];
        v[n++] = U (in[2].u * 512);
        v[n++] = I ((gint32) tid);
        v[n++] = U (in[3].u);           /* RWBS_FLAG_WRITE is bit 0 */
        v[n++] = S (comm_of (sink, tid, cpu));
      }
      break;
    case TTV_SIM_EVENT_REQUEST_COMPLETE:
      handle = sink->kind_handle[K_BLOCK_COMPLETE];
      v[n++] = in[0];
      v[n++] = in[1];
      v[n++] = in[2];
      v[n++] = in[3];
      v[n++] = U (0);
      break;
    case TTV_SIM_EVENT_DEV_XMIT:
      handle = sink->kind_handle[K_NET_XMIT];
      v[n++] = in[0];
      v[n++] = I (0);
      v[n++] = in[1];
      v[n++] = in[2];
      break;
    case TTV_SIM_EVENT_NETIF_RECEIVE:
      handle = sink->kind_handle[K_NET_RECEIVE];
      v[n++] = in[0];
      v[n++] = in[1];
      v[n++] = in[2];
      break;
    case TTV_SIM_EVENT_SOFT_IRQ_RAISE:
      handle = sink->kind_handle[K_SOFTIRQ_RAISE];
      v[n++] = U (in[0].u);
      break;
    default:
      g_set_error (error, TTV_USAGE_ERROR, TTV_USAGE_ERROR_BAD_ARGUMENT,
                   "CTF writer: unknown simulated event %u", event);
      return FALSE;
    }
  if (handle >= 0
      && !ttv_ctf_writer_write_event (sink->writer, cpu, time, (guint) handle, v, n, error))
    return FALSE;
  return sink->tap == NULL || sink->tap (sink->tap_data, stream, time, event, values, n_values, error);
}

static gboolean
write_simulation (const char *dir, TtvSim *sim, const TtvCtfWriterOptions *options,
                  const GArray *network, TtvCtfNetEvents net_events, TtvSimEmitFunc tap, gpointer tap_data,
                  TtvCtfSimStats *stats, GError **error)
{
  g_return_val_if_fail (dir != NULL && sim != NULL && options != NULL, FALSE);
  TtvCtfWriterOptions o = *options;
  if (o.clock_offset == 0)
    o.clock_offset = ttv_sim_get_time (sim) - 3600 * TTV_NSEC_PER_SEC - 123456789;
  TtvCtfWriter *w = ttv_ctf_writer_new (dir, &o, error);
  if (w == NULL)
    return FALSE;

  TtvCtfSimStats local = { 0 };
  Sink sink = {
    .writer = w,
    .sim = sim,
    .control_cpu = ttv_sim_get_cpu_id (sim, 0),
    .entry_handle = g_array_new (FALSE, TRUE, sizeof (gint)),
    .exit_handle = g_array_new (FALSE, TRUE, sizeof (gint)),
    .entry_args = g_array_new (FALSE, TRUE, sizeof (ArgsKind)),
    .tasks = g_hash_table_new_full (NULL, NULL, NULL, g_free),
    .irq_names = g_hash_table_new_full (NULL, NULL, NULL, g_free),
    .irq_stacks = g_hash_table_new_full (NULL, NULL, NULL, g_free),
    .tap = tap,
    .tap_data = tap_data,
    .network = network,
    .net_events = net_events,
    .pointer_bits = o.long_bits ? o.long_bits : 64,
    .stats = stats ? stats : &local,
  };
  *sink.stats = (TtvCtfSimStats) { 0 };
  gboolean ok = declare_events (&sink, &o, error) && ttv_sim_run (sim, ctf_emit, &sink, error);
  sink.stats->n_packets = ttv_ctf_writer_get_n_packets (w);
  if (ok)
    ok = ttv_ctf_writer_close (w, error);
  else
    ttv_ctf_writer_abort (w);
  g_array_unref (sink.entry_handle);
  g_array_unref (sink.exit_handle);
  g_array_unref (sink.entry_args);
  g_hash_table_unref (sink.tasks);
  g_hash_table_unref (sink.irq_names);
  g_hash_table_unref (sink.irq_stacks);
  return ok;
}

gboolean
ttv_ctf_write_simulation (const char *dir, TtvSim *sim, const TtvCtfWriterOptions *options,
                          TtvSimEmitFunc tap, gpointer tap_data, TtvCtfSimStats *stats,
                          GError **error)
{
  return write_simulation (dir, sim, options, NULL, TTV_CTF_NET_INET_SOCK, tap, tap_data, stats, error);
}

gboolean
ttv_ctf_write_simulation_network (const char *dir, TtvSim *sim, const TtvCtfWriterOptions *options,
                                  const GArray *network, TtvCtfNetEvents events, TtvCtfSimStats *stats,
                                  GError **error)
{
  g_return_val_if_fail (network != NULL, FALSE);
  return write_simulation (dir, sim, options, network, events, NULL, NULL, stats, error);
}

/* ttv-sim-private.h: what the simulated kernel's files share: the syscall
 * table (schema), the machine's state (ttv-sim.c steps it) and the workload
 * (ttv-sim-workload.c: who the processes are and what they do next). */
#pragma once

#include "ttv-sim.h"

G_BEGIN_DECLS

typedef enum {
  TTV_SIM_SYSCALL_QUICK,    /* returns at once */
  TTV_SIM_SYSCALL_READ,     /* page cache hit, or a disk read that blocks */
  TTV_SIM_SYSCALL_WRITE,    /* sometimes issues an asynchronous disk write */
  TTV_SIM_SYSCALL_SEND,     /* net dev_xmit */
  TTV_SIM_SYSCALL_RECV,     /* blocks until a packet arrives */
  TTV_SIM_SYSCALL_SLEEP,    /* blocks until a timer fires */
  TTV_SIM_SYSCALL_FORK,
  TTV_SIM_SYSCALL_EXEC,
  TTV_SIM_SYSCALL_EXIT,
  TTV_SIM_SYSCALL_WAIT,     /* blocks until a child (or a thread) ends */
} TtvSimSyscallKind;

typedef struct {
  const char *name;
  guint16 number;           /* x86_64 */
  TtvSimSyscallKind kind;
} TtvSimSyscall;

extern const TtvSimSyscall ttv_sim_syscalls[];
extern const guint ttv_sim_n_syscalls;
/* Index in ttv_sim_syscalls of the call numbered @number (which must exist;
 * the first one when the call is there twice, served two ways). */
guint ttv_sim_syscall_index (guint number);

/* --- The machine's state ------------------------------------------------- */

#define TTV_SIM_NONE G_MAXUINT32
#define TTV_SIM_T_INF G_MAXINT64
#define TTV_SIM_MAX_VALUES 16

typedef enum { P_FREE, P_NEW, P_RUNNABLE, P_RUNNING, P_BLOCKED, P_ZOMBIE } TtvSimProcState;

/* What a task is, which decides what it does (ttv-sim-workload.c). */
typedef enum {
  TTV_SIM_ROLE_KTHREAD,     /* kernel thread: wakes, works in the kernel, sleeps; no syscall */
  TTV_SIM_ROLE_DAEMON,      /* waits long, wakes for a burst of calls, may start a child */
  TTV_SIM_ROLE_THREAD,      /* a daemon's other thread: the same, without children */
  TTV_SIM_ROLE_SHELL,       /* thinks, runs one command, waits for it, again */
  TTV_SIM_ROLE_JOB,         /* a command: works, may run children or threads, exits */
  TTV_SIM_ROLE_WORKER,      /* a command's thread: works, exits */
} TtvSimRole;

typedef struct {
  guint32 pid, tgid, ppid, uid;
  guint8 state;             /* TtvSimProcState */
  guint8 role;              /* TtvSimRole */
  guint8 program;           /* index in the workload's programs */
  guint8 in_syscall;        /* a syscall_exit is due */
  guint8 step;              /* progress inside the syscall */
  guint8 fresh;             /* forked, no syscall yet */
  guint8 exec_pending;      /* forked to run a program: its first call is execve */
  guint8 io;                /* this syscall goes to a device */
  guint8 waiting;           /* blocked in wait4 / futex for a child or thread */
  guint8 thinking;          /* shells: the next wait is a think time */
  guint8 bound;             /* runs on its CPU only (per-CPU kernel threads) */
  guint16 sc;               /* index in ttv_sim_syscalls */
  guint16 burst;            /* calls left before the next wait (daemons, shells) */
  guint16 faults;           /* page faults still to take (a fresh program) */
  guint16 n_children;       /* children / threads started and not yet waited for */
  guint16 n_ended;          /* of them, ended (zombies, finished threads) */
  guint16 to_start;         /* children / threads still to start */
  guint32 ended_pid;        /* the last of them that ended (wait4's return) */
  guint32 work;             /* calls left before exiting (jobs, workers) */
  guint32 parent;           /* slot of the process that waits for it, or TTV_SIM_NONE */
  guint32 cpu;              /* CPU index it runs on, is queued on or last ran on */
  guint32 next;             /* run queue, zombie list and free list link */
  gint64 ret;               /* prepared return value */
  guint32 io_nr;
  guint64 io_sector;
  TtvTime slice_end;
  char name[16];            /* TASK_COMM_LEN */
} TtvSimProc;

/* Something a CPU's interrupt will deliver: a timer expiry, a disk
 * completion, a packet; proc is the task waiting for it (or NONE). */
typedef struct {
  TtvTime time;
  guint64 seq;
  guint32 proc;
  guint32 nr;
  guint64 sector;
  guint8 role;              /* TtvSimIrqRole */
} TtvSimWake;

typedef struct {
  guint32 id;               /* the stream */
  guint32 cur;              /* proc index running (the CPU's idle task when idle) */
  guint32 rq_head, rq_tail, rq_len;
  TtvTime last;
  TtvTime next_tick;

  /* The planned event */
  TtvTime next_time;
  guint8 act;
  guint8 replaceable;
  guint32 plan_line;        /* IRQ_ENTRY: line index, role, whether a tick */
  guint8 plan_role, plan_tick;

  /* The interrupt being handled */
  guint8 phase;
  guint8 in_trap;
  guint8 need_resched;
  guint8 ep_role, ep_tick, ep_work, softirq;
  guint8 raised;            /* softirq_raise: this hard IRQ raised its soft IRQ */
  guint8 raised_rcu;        /* softirq_raise: this TIMER soft IRQ raised RCU */
  guint32 ep_line;
  TtvTime ep_time;
  guint32 pending_wake;

  TtvSimWake *heap;         /* owned: min-heap by (time, seq) */
  guint heap_len, heap_cap;
} TtvSimCpu;

struct _TtvSim {
  TtvSimOptions opt;
  TtvSimIrqLine *lines;     /* owned array, strings weak (caller's or static) */
  guint n_lines;
  guint32 timer_line, net_line, block_line;   /* line index or NONE */
  guint32 net_cpu, block_cpu;                 /* CPU index taking them */
  guint64 rng[4];

  TtvSimCpu *cpus;          /* owned */
  guint n_cpus;
  TtvSimProc *procs;        /* owned: idle tasks first (one per CPU), then slots */
  guint n_procs;
  guint32 free_head;
  guint32 zombie_head, zombie_tail;
  guint n_live;
  guint n_initial;
  guint32 next_pid;
  gboolean pid_wrapped;
  TtvTime daemon_nap;       /* mean wait of daemons and their threads */

  guint64 n_events;
  guint64 seq;
  TtvTime now;
  TtvTime end_time;         /* T_INF: none */
  guint control_index, n_control;
  gboolean done;

  guint sc_clone, sc_execve, sc_exit, sc_exit_group, sc_wait4, sc_futex, sc_futex_join;
  TtvScalar values[TTV_SIM_MAX_VALUES];
  TtvSimTruth *truth;       /* weak, or NULL: what it did, for tests */
  GHashTable *initial_names; /* tgid -> char *, owned: the names of the processes alive at the start */
  GHashTable *files;        /* "tgid/fd" -> char *, owned: what the trace says each fd is */
  guint32 last_args_cpu;    /* the CPU index whose call the arguments below are */
  TtvSimCallArgs args;      /* of the last call entered */
  char args_file[64];       /* args.filename's text */
  char file_buf[64];        /* ttv_sim_get_process_file's */
  struct _TtvSimProbe *probe; /* owned, or NULL (options.probe) */
};

/* --- The truth (ttv-sim-truth.c), told by ttv-sim.c and the probe ----------- */

/* @file: what the trace says of its fd argument, or NULL. */
void ttv_sim_truth_syscall_entry (TtvSimTruth *t, gint cpu, guint32 tid, guint32 tgid, guint number,
                                  const char *file, TtvTime now);
void ttv_sim_truth_syscall_exit (TtvSimTruth *t, gint cpu, guint32 tid, gint64 ret, TtvTime now);
void ttv_sim_truth_futex_wait (TtvSimTruth *t, guint32 tid, guint64 uaddr, TtvTime now);
/* @cpu: where the wakeup happens (its interrupt or running task wakes). */
void ttv_sim_truth_wakeup (TtvSimTruth *t, gint cpu, guint32 tid, gboolean is_new, TtvTime now);
/* @prev_state: a TtvSimTaskState. */
void ttv_sim_truth_switch (TtvSimTruth *t, gint cpu, guint32 prev, guint prev_state, guint32 next, TtvTime now);
void ttv_sim_truth_interrupt (TtvSimTruth *t, gint cpu, gboolean soft, guint32 id, gboolean entry, TtvTime now);
void ttv_sim_truth_raise (TtvSimTruth *t, gint cpu, guint32 vec, TtvTime now);
void ttv_sim_truth_io_issue (TtvSimTruth *t, gint cpu, guint32 dev, guint64 sector, guint32 nr, gboolean write,
                             TtvTime now);
void ttv_sim_truth_io_complete (TtvSimTruth *t, guint32 dev, guint64 sector, TtvTime now);
/* A new task with this id (a pid reused): nothing of the old one remains. */
void ttv_sim_truth_forget (TtvSimTruth *t, guint32 tid);

/* --- The probe (ttv-sim-probe.c) ---------------------------------------------- */

typedef struct _TtvSimProbe TtvSimProbe;

/* The probe's threads' pids, its CPU id and its IRQ line. */
#define TTV_SIM_PROBE_PID 4194301u
#define TTV_SIM_PROBE_IRQ 21u

TtvSimProbe *ttv_sim_probe_new (TtvSim *sim, guint cpu_id);
void        ttv_sim_probe_free (TtvSimProbe *probe);
/* When its next event is (T_INF: never). */
TtvTime     ttv_sim_probe_next_time (const TtvSimProbe *probe);
/* Emits its next event through @emit. */
gboolean    ttv_sim_probe_step (TtvSimProbe *probe, TtvSimEmitFunc emit, gpointer user_data, GError **error);
guint       ttv_sim_probe_get_cpu (const TtvSimProbe *probe);
/* The pid running on its CPU, its threads' names and thread group. */
guint32     ttv_sim_probe_get_running (const TtvSimProbe *probe);
const char *ttv_sim_probe_get_name (const TtvSimProbe *probe, guint pid);
/* The arguments of the call its running thread just entered. */
gboolean    ttv_sim_probe_get_call_args (const TtvSimProbe *probe, TtvSimCallArgs *args);

/* --- Random numbers: xoshiro256**, integer only so that every machine
 * produces the same trace. ------------------------------------------------ */

/* splitmix64: seeds the generator (ttv-sim.c) and the network schedule
 * (ttv-sim-net.c), deterministic from one integer. */
static inline guint64
ttv_sim_splitmix64 (guint64 *x)
{
  guint64 z = (*x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static inline guint64
ttv_sim_rotl (guint64 x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
ttv_sim_rnd (TtvSim *sim)
{
  guint64 *s = sim->rng;
  guint64 result = ttv_sim_rotl (s[1] * 5, 7) * 9;
  guint64 t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = ttv_sim_rotl (s[3], 45);
  return result;
}

/* Uniform in [0, n). */
static inline guint64
ttv_sim_below (TtvSim *sim, guint64 n)
{
  return n ? (ttv_sim_rnd (sim) >> 11) % n : 0;
}

/* Uniform in [mean/2, 3 mean/2). */
static inline TtvTime
ttv_sim_gap (TtvSim *sim, TtvTime mean)
{
  return mean / 2 + (TtvTime) ttv_sim_below (sim, (guint64) MAX (mean, 1));
}

/* Waits with a long tail: one in eight is four times longer. */
static inline TtvTime
ttv_sim_long_gap (TtvSim *sim, TtvTime mean)
{
  TtvTime g = ttv_sim_gap (sim, mean);
  return ttv_sim_below (sim, 8) == 0 ? g * 4 : g;
}

/* --- The workload (ttv-sim-workload.c) ------------------------------------- */

/* Creates the tasks alive when the trace starts (sim->procs after the idle
 * tasks, sim->n_initial of them), each ready to run, running on a CPU
 * (sim->cpus[i].cur) or blocked in a call begun before the trace. */
void        ttv_sim_populate (TtvSim *sim);
/* The next syscall (index in ttv_sim_syscalls) of task @p, running in user
 * mode.  Never called for kernel threads. */
guint       ttv_sim_choose_syscall (TtvSim *sim, TtvSimProc *p);
/* How long @p blocks in the waiting call it is entering. */
TtvTime     ttv_sim_nap (TtvSim *sim, const TtvSimProc *p);
/* Mean user-mode run of @p before its next kernel entry. */
TtvTime     ttv_sim_user_run (TtvSim *sim, const TtvSimProc *p);
/* Fills @child, just forked by @parent (slot @parent_slot): thread or
 * process, its name, its role and program.  Returns whether it is a thread. */
gboolean    ttv_sim_start_child (TtvSim *sim, TtvSimProc *parent, guint32 parent_slot, TtvSimProc *child);
/* The program file @p executes now (its name set from it). */
const char *ttv_sim_exec (TtvSim *sim, TtvSimProc *p);
/* Whether a read / write of @p goes to the disk this time. */
gboolean    ttv_sim_does_io (TtvSim *sim, const TtvSimProc *p, gboolean write);

G_END_DECLS

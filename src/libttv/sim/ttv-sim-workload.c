/* ttv-sim-workload.c: who runs on the simulated machine and what each task
 * does next, so that a trace looks like a Linux box to a kernel engineer.
 *
 * pid 1 (systemd) and kthreadd's kernel threads live for ever; kernel
 * threads wake, work in the kernel and sleep, and never make a syscall.
 * Daemons (with their threads, named like them or after their job) wait long
 * in epoll_wait / select / futex and wake for a burst of calls; some start a
 * child now and then (cron a shell script, sshd a session, systemd a
 * service).  Interactive shells think, fork a command, wait for it, again.
 * A forked command execs its program first thing, runs (calls, page faults,
 * disk and network), may run children (make, gcc) or threads (xz) and wait
 * for them, and exits.  The busy share of the CPUs comes from the shells'
 * commands (a shell per two CPUs), so every CPU idles a fair share of the
 * time whatever the number of processes: daemons nap longer on a crowded
 * machine. */
#include "ttv-sim-private.h"

#include <string.h>

/* --- Syscall mixes: what a program's bursts are made of --------------------- */

typedef enum { MIX_SHELL, MIX_DAEMON, MIX_NET, MIX_FILES, MIX_COMPUTE, MIX_INIT, N_MIXES } Mix;

typedef struct {
  guint16 number;
  guint16 weight;
} Call;

#define END { 0, 0 }

static const Call mix_shell[] = {
  { 0, 20 }, { 1, 25 }, { 13, 15 }, { 14, 15 }, { 16, 10 }, { 4, 8 }, { 72, 4 }, { 39, 3 },
  { 3, 5 }, { 33, 5 }, { 22, 3 }, { 21, 4 }, { 79, 2 }, END
};
static const Call mix_daemon[] = {
  { 0, 20 }, { 1, 20 }, { 228, 20 }, { 5, 5 }, { 8, 5 }, { 2, 4 }, { 3, 5 }, { 233, 5 },
  { 39, 2 }, { 46, 5 }, { 47, 8 }, { 96, 4 }, { 74, 1 }, END
};
static const Call mix_net[] = {
  { 45, 15 }, { 44, 15 }, { 47, 10 }, { 46, 10 }, { 0, 10 }, { 1, 10 }, { 228, 15 },
  { 233, 5 }, { 43, 2 }, { 54, 2 }, { 3, 3 }, { 96, 5 }, { 72, 2 }, END
};
static const Call mix_files[] = {
  { 257, 15 }, { 2, 5 }, { 0, 25 }, { 1, 15 }, { 3, 15 }, { 5, 10 }, { 4, 8 }, { 217, 5 },
  { 8, 4 }, { 9, 4 }, { 12, 2 }, { 17, 3 }, { 89, 2 }, { 21, 3 }, { 10, 2 }, END
};
static const Call mix_compute[] = {
  { 12, 15 }, { 9, 15 }, { 11, 10 }, { 0, 15 }, { 1, 10 }, { 228, 10 }, { 3, 5 }, { 257, 5 },
  { 10, 5 }, { 98, 2 }, { 5, 3 }, END
};
static const Call mix_init[] = {
  { 47, 15 }, { 46, 10 }, { 233, 10 }, { 0, 10 }, { 1, 5 }, { 228, 15 }, { 257, 5 }, { 3, 5 },
  { 5, 5 }, { 89, 5 }, { 217, 3 }, { 157, 2 }, END
};

static const Call *const mixes[N_MIXES] = {
  [MIX_SHELL] = mix_shell, [MIX_DAEMON] = mix_daemon, [MIX_NET] = mix_net,
  [MIX_FILES] = mix_files, [MIX_COMPUTE] = mix_compute, [MIX_INIT] = mix_init,
};

/* --- Programs ------------------------------------------------------------- */

typedef enum {
  PR_KTHREAD, PR_SYSTEMD,
  /* daemons */
  PR_JOURNALD, PR_UDEVD, PR_DBUS, PR_RSYSLOGD, PR_CRON, PR_SSHD, PR_NETWORKMANAGER, PR_POLKITD,
  PR_XORG, PR_GNOME_SHELL, PR_PULSEAUDIO, PR_FIREFOX, PR_POSTGRES, PR_NGINX, PR_CONTAINERD,
  PR_JAVA,
  /* more of them on a crowded machine */
  PR_WEB_CONTENT, PR_POSTGRES_BACKEND, PR_NGINX_WORKER, PR_PHP_FPM,
  /* sessions */
  PR_SSHD_TTY, PR_SSHD_SESSION, PR_BASH, PR_BASH_C,
  /* commands */
  PR_LS, PR_CAT, PR_GREP, PR_FIND, PR_GIT, PR_MAKE, PR_GCC, PR_CC1, PR_AS, PR_LD, PR_PYTHON,
  PR_TAR, PR_XZ, PR_PS, PR_SSH, PR_SH, PR_LOGROTATE, PR_SENDMAIL, PR_TMPFILES,
  N_PROGRAMS
} ProgramId;

#define PER_CPU 255     /* n_threads / parallel: one per two CPUs (make -j, xz -T) */
#define NO -1

typedef struct {
  const char *file;         /* the executed file, or the name when not exec'ed */
  guint8 role;              /* TtvSimRole */
  guint8 mix;
  guint16 wait;             /* daemons and threads: the call they wait in */
  guint16 work;             /* jobs and workers: mean calls before exiting */
  guint8 user_x;            /* user time between calls, in quarters of user_ns */
  guint8 io;                /* % of reads and writes that go to the disk */
  guint8 n_threads;         /* daemons: threads at start; jobs: worker threads */
  guint8 parallel;          /* jobs: children running at once */
  guint8 n_children;        /* jobs: children to run (1 .. n); daemons: per 100 wakeups */
  gint8 children[8];        /* what it runs, NO-terminated */
  const char *threads[4];   /* thread names (NULL-terminated); none: the leader's name */
} Program;

static const Program programs[N_PROGRAMS] = {
  [PR_KTHREAD] = { "kthread", TTV_SIM_ROLE_KTHREAD, MIX_DAEMON, 0, 0, 4, 0, 0, 0, 0, { NO }, { NULL } },
  [PR_SYSTEMD] = { "systemd", TTV_SIM_ROLE_DAEMON, MIX_INIT, 232, 0, 4, 5, 0, 0, 3, { PR_TMPFILES, NO }, { NULL } },
  [PR_JOURNALD] = { "systemd-journal", TTV_SIM_ROLE_DAEMON, MIX_DAEMON, 232, 0, 4, 20, 0, 0, 0, { NO }, { NULL } },
  [PR_UDEVD] = { "systemd-udevd", TTV_SIM_ROLE_DAEMON, MIX_DAEMON, 232, 0, 4, 5, 0, 0, 0, { NO }, { NULL } },
  [PR_DBUS] = { "dbus-daemon", TTV_SIM_ROLE_DAEMON, MIX_NET, 232, 0, 4, 0, 0, 0, 0, { NO }, { NULL } },
  [PR_RSYSLOGD] = { "rsyslogd", TTV_SIM_ROLE_DAEMON, MIX_DAEMON, 23, 0, 4, 20, 3, 0, 0, { NO },
                    { "in:imuxsock", "in:imklog", "rs:main Q:Reg", NULL } },
  [PR_CRON] = { "cron", TTV_SIM_ROLE_DAEMON, MIX_DAEMON, 35, 0, 4, 5, 0, 0, 8, { PR_SH, NO }, { NULL } },
  [PR_SSHD] = { "sshd", TTV_SIM_ROLE_DAEMON, MIX_NET, 23, 0, 4, 0, 0, 0, 5, { PR_SSHD_SESSION, NO }, { NULL } },
  [PR_NETWORKMANAGER] = { "NetworkManager", TTV_SIM_ROLE_DAEMON, MIX_NET, 7, 0, 4, 0, 2, 0, 0, { NO },
                          { "gmain", "gdbus", NULL } },
  [PR_POLKITD] = { "polkitd", TTV_SIM_ROLE_DAEMON, MIX_NET, 7, 0, 4, 0, 2, 0, 0, { NO },
                   { "gmain", "gdbus", NULL } },
  [PR_XORG] = { "Xorg", TTV_SIM_ROLE_DAEMON, MIX_NET, 232, 0, 6, 0, 1, 0, 0, { NO }, { "InputThread", NULL } },
  [PR_GNOME_SHELL] = { "gnome-shell", TTV_SIM_ROLE_DAEMON, MIX_NET, 7, 0, 8, 2, 6, 0, 0, { NO },
                       { "gmain", "gdbus", "dconf worker", "JS Helper" } },
  [PR_PULSEAUDIO] = { "pulseaudio", TTV_SIM_ROLE_DAEMON, MIX_NET, 7, 0, 4, 0, 2, 0, 0, { NO },
                      { "alsa-sink-ALC", "alsa-source-ALC", NULL } },
  [PR_FIREFOX] = { "firefox", TTV_SIM_ROLE_DAEMON, MIX_NET, 7, 0, 8, 5, 12, 0, 0, { NO },
                   { "Socket Thread", "Timer", "IPC I/O Parent", "StyleThread" } },
  [PR_POSTGRES] = { "postgres", TTV_SIM_ROLE_DAEMON, MIX_NET, 232, 0, 4, 30, 0, 0, 0, { NO }, { NULL } },
  [PR_NGINX] = { "nginx", TTV_SIM_ROLE_DAEMON, MIX_NET, 232, 0, 4, 10, 0, 0, 0, { NO }, { NULL } },
  [PR_CONTAINERD] = { "containerd", TTV_SIM_ROLE_DAEMON, MIX_NET, 202, 0, 4, 5, 10, 0, 0, { NO }, { NULL } },
  [PR_JAVA] = { "java", TTV_SIM_ROLE_DAEMON, MIX_NET, 202, 0, 8, 10, 16, 0, 0, { NO },
                { "GC Thread#0", "C2 CompilerThre", "VM Thread", "Common-Cleaner" } },
  [PR_WEB_CONTENT] = { "Web Content", TTV_SIM_ROLE_DAEMON, MIX_COMPUTE, 7, 0, 8, 2, 8, 0, 0, { NO },
                       { "JS Watchdog", "DOM Worker", "Timer", "ImageIO" } },
  [PR_POSTGRES_BACKEND] = { "postgres", TTV_SIM_ROLE_DAEMON, MIX_NET, 232, 0, 4, 30, 0, 0, 0, { NO }, { NULL } },
  [PR_NGINX_WORKER] = { "nginx", TTV_SIM_ROLE_DAEMON, MIX_NET, 232, 0, 4, 10, 0, 0, 0, { NO }, { NULL } },
  [PR_PHP_FPM] = { "php-fpm8.2", TTV_SIM_ROLE_DAEMON, MIX_NET, 232, 0, 6, 10, 0, 0, 0, { NO }, { NULL } },
  /* An interactive login's sshd: relays the terminal of a shell. */
  [PR_SSHD_TTY] = { "sshd", TTV_SIM_ROLE_DAEMON, MIX_NET, 23, 0, 4, 0, 0, 0, 0, { NO }, { NULL } },
  /* An ssh command: the session process (not exec'ed) runs one command line. */
  [PR_SSHD_SESSION] = { "sshd", TTV_SIM_ROLE_JOB, MIX_NET, 0, 40, 4, 0, 0, 1, 1, { PR_BASH_C, NO }, { NULL } },
  [PR_BASH] = { "/bin/bash", TTV_SIM_ROLE_SHELL, MIX_SHELL, 23, 0, 4, 0, 0, 0, 0,
                { PR_LS, PR_GREP, PR_GIT, PR_MAKE, PR_CAT, PR_PYTHON, PR_FIND, PR_TAR }, { NULL } },
  [PR_BASH_C] = { "/bin/bash", TTV_SIM_ROLE_JOB, MIX_SHELL, 0, 30, 4, 5, 0, 1, 3,
                  { PR_PS, PR_CAT, PR_LS, PR_TAR, NO }, { NULL } },
  [PR_LS] = { "/bin/ls", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 40, 4, 10, 0, 0, 0, { NO }, { NULL } },
  [PR_CAT] = { "/bin/cat", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 30, 4, 30, 0, 0, 0, { NO }, { NULL } },
  [PR_GREP] = { "/usr/bin/grep", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 150, 6, 20, 0, 0, 0, { NO }, { NULL } },
  [PR_FIND] = { "/usr/bin/find", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 400, 4, 30, 0, 0, 0, { NO }, { NULL } },
  [PR_GIT] = { "/usr/bin/git", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 300, 6, 20, 0, 0, 0, { NO }, { NULL } },
  [PR_MAKE] = { "/usr/bin/make", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 60, 4, 10, 0, PER_CPU, 12,
                { PR_GCC, PR_GCC, PR_GCC, PR_LD, NO }, { NULL } },
  [PR_GCC] = { "/usr/bin/gcc", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 30, 4, 5, 0, 1, 2, { PR_CC1, PR_AS, NO }, { NULL } },
  [PR_CC1] = { "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", TTV_SIM_ROLE_JOB, MIX_COMPUTE, 0, 300, 24, 10, 0, 0, 0,
               { NO }, { NULL } },
  [PR_AS] = { "/usr/bin/as", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 80, 6, 10, 0, 0, 0, { NO }, { NULL } },
  [PR_LD] = { "/usr/bin/ld", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 200, 8, 20, 0, 0, 0, { NO }, { NULL } },
  [PR_PYTHON] = { "/usr/bin/python3", TTV_SIM_ROLE_JOB, MIX_COMPUTE, 0, 600, 8, 5, 0, 0, 0, { NO }, { NULL } },
  [PR_TAR] = { "/usr/bin/tar", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 500, 4, 60, 0, 1, 1, { PR_XZ, NO }, { NULL } },
  [PR_XZ] = { "/usr/bin/xz", TTV_SIM_ROLE_JOB, MIX_COMPUTE, 0, 150, 16, 0, PER_CPU, 0, 0, { NO }, { NULL } },
  [PR_PS] = { "/usr/bin/ps", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 200, 4, 0, 0, 0, 0, { NO }, { NULL } },
  [PR_SSH] = { "/usr/bin/ssh", TTV_SIM_ROLE_JOB, MIX_NET, 0, 200, 4, 0, 0, 0, 0, { NO }, { NULL } },
  [PR_SH] = { "/bin/sh", TTV_SIM_ROLE_JOB, MIX_SHELL, 0, 20, 4, 0, 0, 1, 1, { PR_LOGROTATE, PR_SENDMAIL, NO }, { NULL } },
  [PR_LOGROTATE] = { "/usr/sbin/logrotate", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 100, 4, 20, 0, 0, 0, { NO }, { NULL } },
  [PR_SENDMAIL] = { "/usr/sbin/sendmail", TTV_SIM_ROLE_JOB, MIX_NET, 0, 80, 4, 10, 0, 0, 0, { NO }, { NULL } },
  [PR_TMPFILES] = { "/usr/bin/systemd-tmpfiles", TTV_SIM_ROLE_JOB, MIX_FILES, 0, 150, 4, 10, 0, 0, 0, { NO }, { NULL } },
};

/* The daemons of a machine, in the order they get pids; and what fills a
 * crowded one. */
static const guint8 daemons[] = {
  PR_JOURNALD, PR_UDEVD, PR_DBUS, PR_RSYSLOGD, PR_CRON, PR_SSHD, PR_NETWORKMANAGER, PR_POLKITD,
  PR_POSTGRES, PR_NGINX, PR_XORG, PR_PULSEAUDIO, PR_GNOME_SHELL, PR_CONTAINERD, PR_FIREFOX, PR_JAVA,
};
static const guint8 fillers[] = { PR_WEB_CONTENT, PR_POSTGRES_BACKEND, PR_NGINX_WORKER, PR_PHP_FPM };

static const Program *
program_of (const TtvSimProc *p)
{
  return &programs[p->program];
}

static guint
count_or_per_cpu (const TtvSim *sim, guint8 n)
{
  return n == PER_CPU ? MAX (1u, sim->n_cpus / 2) : n;
}

static guint
pick_child (TtvSim *sim, const Program *pr)
{
  guint n = 0;
  while (n < G_N_ELEMENTS (pr->children) && pr->children[n] != NO)
    n++;
  return n ? (guint) pr->children[ttv_sim_below (sim, n)] : PR_LS;
}

static guint
pick_call (TtvSim *sim, Mix mix)
{
  const Call *c = mixes[mix];
  guint total = 0;
  for (const Call *k = c; k->weight; k++)
    total += k->weight;
  guint w = (guint) ttv_sim_below (sim, total);
  for (; c->weight; c++)
    {
      if (w < c->weight)
        return ttv_sim_syscall_index (c->number);
      w -= c->weight;
    }
  g_assert_not_reached ();
}

/* --- Populating the machine -------------------------------------------------- */

typedef struct {
  TtvSim *sim;
  guint32 slot;             /* next free slot */
  guint32 end;              /* slots for the initial tasks end here */
  guint32 pid;              /* next pid */
} Builder;

static gboolean
full (const Builder *b)
{
  return b->slot >= b->end;
}

static TtvSimProc *
new_task (Builder *b, const char *name, guint program, guint32 ppid, guint32 tgid)
{
  g_assert (!full (b));
  TtvSimProc *p = &b->sim->procs[b->slot++];
  memset (p, 0, sizeof *p);
  p->pid = b->pid++;
  p->tgid = tgid ? tgid : p->pid;
  p->ppid = ppid;
  p->program = (guint8) program;
  p->role = programs[program].role;
  p->parent = TTV_SIM_NONE;
  p->next = TTV_SIM_NONE;
  p->cpu = (guint32) ttv_sim_below (b->sim, b->sim->n_cpus);
  const char *slash = name[0] == '/' ? strrchr (name, '/') : NULL;
  g_strlcpy (p->name, slash ? slash + 1 : name, sizeof p->name);
  return p;
}

/* A daemon and, right after it in pid order, its threads. */
static TtvSimProc *
new_daemon (Builder *b, guint program, guint32 ppid)
{
  const Program *pr = &programs[program];
  TtvSimProc *leader = new_task (b, pr->file, program, ppid, 0);
  guint32 leader_slot = (guint32) (leader - b->sim->procs);
  for (guint i = 0; i < count_or_per_cpu (b->sim, pr->n_threads) && !full (b); i++)
    {
      guint n_names = 0;
      while (n_names < G_N_ELEMENTS (pr->threads) && pr->threads[n_names])
        n_names++;
      const char *name = n_names ? pr->threads[i % n_names] : pr->file;
      TtvSimProc *t = new_task (b, name, program, ppid, b->sim->procs[leader_slot].pid);
      t->role = TTV_SIM_ROLE_THREAD;
    }
  return &b->sim->procs[leader_slot];
}

/* Kernel threads: per CPU and machine wide, as kthreadd has them. */
static void
new_kernel_threads (Builder *b, guint max)
{
  static const char *const per_cpu[] = { "cpuhp/%u", "migration/%u", "ksoftirqd/%u", "kworker/%u:0H",
                                         "kworker/%u:1" };
  static const char *const global[] = { "rcu_gp", "rcu_sched", "kworker/u%u:0", "khungtaskd",
                                        "kcompactd0", "kswapd0", "jbd2/sda1-8", "kworker/u%u:2" };
  guint n = 0;
  /* The names' formats are the literals above, each with one %u. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  for (guint i = 0; i < G_N_ELEMENTS (global) && n < max && !full (b); i++, n++)
    {
      char name[16];
      g_snprintf (name, sizeof name, global[i], 2 * b->sim->n_cpus);
      new_task (b, name, PR_KTHREAD, 2, 0);
    }
  for (guint c = 0; c < b->sim->n_cpus; c++)
    for (guint i = 0; i < G_N_ELEMENTS (per_cpu) && n < max && !full (b); i++, n++)
      {
        char name[16];
        g_snprintf (name, sizeof name, per_cpu[i], b->sim->cpus[c].id);
        TtvSimProc *k = new_task (b, name, PR_KTHREAD, 2, 0);
        k->cpu = c;
        k->bound = TRUE;
      }
#pragma GCC diagnostic pop
}

/* Jobs of @shell already running when the trace starts. */
static void
new_running_job (Builder *b, TtvSimProc *shell)
{
  guint32 shell_slot = (guint32) (shell - b->sim->procs);
  guint program = pick_child (b->sim, &programs[PR_BASH]);
  const Program *pr = &programs[program];
  TtvSimProc *job = new_task (b, pr->file, program, shell->pid, 0);
  job->parent = shell_slot;
  job->work = (guint32) (1 + ttv_sim_below (b->sim, pr->work));
  job->to_start = (guint16) (pr->n_children ? ttv_sim_below (b->sim, pr->n_children + 1u) : 0);
  shell = &b->sim->procs[shell_slot];
  shell->n_children = 1;
  shell->waiting = TRUE;
}

void
ttv_sim_populate (TtvSim *sim)
{
  Builder b = { sim, sim->n_cpus, sim->n_cpus + sim->n_initial, 1 };
  new_task (&b, "systemd", PR_SYSTEMD, 0, 0);
  guint left = sim->n_initial - 1;
  /* A shell per two CPUs (fewer on a tiny machine) drives the load. */
  guint n_shells = MIN ((sim->n_cpus + 1) / 2, MAX (1u, left / 4));
  if (left >= 3)
    {
      new_task (&b, "kthreadd", PR_KTHREAD, 0, 0);
      new_kernel_threads (&b, (left - 1) / 3);
    }
  guint32 sshd = 0;
  for (guint i = 0; i < G_N_ELEMENTS (daemons) && b.end - b.slot > 3 * n_shells; i++)
    {
      TtvSimProc *d = new_daemon (&b, daemons[i], 1);
      if (daemons[i] == PR_SSHD)
        sshd = d->pid;
    }
  /* Login sessions: sshd's session process, its shell, maybe a command. */
  for (guint i = 0; i < n_shells && !full (&b); i++)
    {
      guint32 session = 1;
      if (sshd && b.end - b.slot >= 2)
        {
          session = new_task (&b, "sshd", PR_SSHD_TTY, sshd, 0)->pid;
        }
      TtvSimProc *shell = new_task (&b, "bash", PR_BASH, session, 0);
      shell->thinking = TRUE;
      if (!full (&b) && ttv_sim_below (sim, 2) == 0)
        new_running_job (&b, shell);
    }
  /* What fills the rest: browser tabs, database and web workers. */
  guint32 parents[G_N_ELEMENTS (fillers)] = { 1, 1, 1, 1 };
  for (guint32 s = sim->n_cpus; s < b.slot; s++)
    {
      const TtvSimProc *p = &sim->procs[s];
      if (p->program == PR_FIREFOX && p->role == TTV_SIM_ROLE_DAEMON)
        parents[0] = p->pid;
      else if (p->program == PR_POSTGRES)
        parents[1] = p->pid;
      else if (p->program == PR_NGINX)
        parents[2] = p->pid;
    }
  for (guint i = 0; !full (&b); i++)
    new_daemon (&b, fillers[i % G_N_ELEMENTS (fillers)], parents[i % G_N_ELEMENTS (fillers)]);
  b.pid += 100;
  sim->next_pid = b.pid;
}

/* --- Choices while running ---------------------------------------------------- */

TtvTime
ttv_sim_user_run (TtvSim *sim, const TtvSimProc *p)
{
  return sim->opt.user_ns * program_of (p)->user_x / 4;
}

TtvTime
ttv_sim_nap (TtvSim *sim, const TtvSimProc *p)
{
  switch (p->role)
    {
    case TTV_SIM_ROLE_KTHREAD:
      return ttv_sim_long_gap (sim, sim->opt.sleep_ns * (TtvTime) (2 + ttv_sim_below (sim, 10)));
    case TTV_SIM_ROLE_SHELL:
      return ttv_sim_long_gap (sim, sim->opt.sleep_ns * 8);
    case TTV_SIM_ROLE_DAEMON:
    case TTV_SIM_ROLE_THREAD:
      return ttv_sim_long_gap (sim, sim->daemon_nap);
    default:
      /* A job or worker in nanosleep, poll or futex of its own. */
      return ttv_sim_long_gap (sim, sim->opt.sleep_ns);
    }
}

gboolean
ttv_sim_does_io (TtvSim *sim, const TtvSimProc *p, gboolean write)
{
  guint io = program_of (p)->io;
  return ttv_sim_below (sim, 100) < (write ? io / 3 : io);
}

/* The call it waits in: wait4 for children, futex for its threads. */
static guint
wait_for_children (TtvSim *sim, const TtvSimProc *p)
{
  return program_of (p)->n_threads && p->role == TTV_SIM_ROLE_JOB ? sim->sc_futex_join : sim->sc_wait4;
}

static guint
choose_shell (TtvSim *sim, TtvSimProc *p)
{
  if (p->n_children > 0)
    return sim->sc_wait4;
  if (p->burst > 0)
    {
      p->burst--;
      return pick_call (sim, MIX_SHELL);
    }
  if (p->thinking)
    {
      /* The prompt is up: the user types the next command line. */
      p->thinking = FALSE;
      p->burst = (guint16) (2 + ttv_sim_below (sim, 5));
      return ttv_sim_syscall_index (programs[PR_BASH].wait);
    }
  p->thinking = TRUE;
  p->burst = (guint16) (1 + ttv_sim_below (sim, 3));
  return sim->sc_clone;
}

static guint
choose_daemon (TtvSim *sim, TtvSimProc *p)
{
  const Program *pr = program_of (p);
  if (p->n_ended > 0)
    return sim->sc_wait4;   /* reaps a child that ended (SIGCHLD) */
  if (p->burst > 0)
    {
      p->burst--;
      if (p->role == TTV_SIM_ROLE_DAEMON && pr->n_children && p->burst == 0
          && ttv_sim_below (sim, 100) < pr->n_children && p->n_children < 4)
        return sim->sc_clone;
      return pick_call (sim, pr->mix);
    }
  p->burst = (guint16) (1 + ttv_sim_below (sim, 8));
  return p->role == TTV_SIM_ROLE_THREAD && pr->wait != 202 && ttv_sim_below (sim, 2)
           ? sim->sc_futex : ttv_sim_syscall_index (pr->wait);
}

static guint
choose_job (TtvSim *sim, TtvSimProc *p)
{
  const Program *pr = program_of (p);
  guint running = p->n_children - p->n_ended;
  guint parallel = MAX (1u, count_or_per_cpu (sim, pr->n_threads ? pr->n_threads : pr->parallel));
  if (p->to_start > 0 && running < parallel && (p->work == 0 || ttv_sim_below (sim, 8) == 0))
    return sim->sc_clone;
  if (p->n_children > 0 && (p->n_ended > 0 || p->work == 0 || running >= parallel))
    return wait_for_children (sim, p);
  if (p->work > 0)
    {
      p->work--;
      return pick_call (sim, pr->mix);
    }
  return p->role == TTV_SIM_ROLE_WORKER ? sim->sc_exit : sim->sc_exit_group;
}

guint
ttv_sim_choose_syscall (TtvSim *sim, TtvSimProc *p)
{
  g_assert (p->role != TTV_SIM_ROLE_KTHREAD);
  if (p->exec_pending)
    return sim->sc_execve;
  switch (p->role)
    {
    case TTV_SIM_ROLE_SHELL:
      return choose_shell (sim, p);
    case TTV_SIM_ROLE_DAEMON:
    case TTV_SIM_ROLE_THREAD:
      return choose_daemon (sim, p);
    default:
      return choose_job (sim, p);
    }
}

/* A command's work and children, once it runs its program. */
static void
begin_program (TtvSim *sim, TtvSimProc *p)
{
  const Program *pr = program_of (p);
  p->role = pr->role;
  p->work = (guint32) (pr->work / 2 + ttv_sim_below (sim, pr->work + 1u));
  if (pr->n_threads && pr->role == TTV_SIM_ROLE_JOB)
    p->to_start = (guint16) count_or_per_cpu (sim, pr->n_threads);
  else if (pr->role == TTV_SIM_ROLE_JOB && pr->n_children)
    p->to_start = (guint16) (1 + ttv_sim_below (sim, pr->n_children));
  p->burst = 0;
}

gboolean
ttv_sim_start_child (TtvSim *sim, TtvSimProc *parent, guint32 parent_slot, TtvSimProc *child)
{
  const Program *pr = program_of (parent);
  gboolean thread = parent->role == TTV_SIM_ROLE_JOB && pr->n_threads > 0;
  child->uid = parent->uid;
  child->parent = parent_slot;
  child->fresh = TRUE;
  parent->n_children++;
  if (parent->to_start > 0)
    parent->to_start--;
  if (thread)
    {
      /* A thread: the leader's process, parent and name; works and ends. */
      child->tgid = parent->tgid;
      child->ppid = parent->ppid;
      child->program = parent->program;
      child->role = TTV_SIM_ROLE_WORKER;
      child->work = (guint32) (pr->work / 2 + ttv_sim_below (sim, pr->work + 1u));
      memcpy (child->name, parent->name, sizeof child->name);
      return TRUE;
    }
  guint program = pick_child (sim, pr);
  child->tgid = child->pid;
  child->ppid = parent->tgid;
  child->program = (guint8) program;
  memcpy (child->name, parent->name, sizeof child->name);
  if (programs[program].file[0] == '/')
    {
      /* fork then exec: the child is its parent until execve. */
      child->role = TTV_SIM_ROLE_JOB;
      child->exec_pending = TRUE;
    }
  else
    {
      g_strlcpy (child->name, programs[program].file, sizeof child->name);
      begin_program (sim, child);
    }
  return FALSE;
}

const char *
ttv_sim_exec (TtvSim *sim, TtvSimProc *p)
{
  const Program *pr = program_of (p);
  const char *slash = strrchr (pr->file, '/');
  g_strlcpy (p->name, slash ? slash + 1 : pr->file, sizeof p->name);
  p->exec_pending = FALSE;
  /* A new program faults its pages in. */
  p->faults = (guint16) (8 + ttv_sim_below (sim, 24));
  begin_program (sim, p);
  return pr->file;
}

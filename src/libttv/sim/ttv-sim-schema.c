/* ttv-sim-schema.c: the facilities and event types the simulated kernel emits,
 * as common type trees; ttv-gen hands them to each format's writer. */
#include "ttv-sim-private.h"

/* The calls the simulated programs make (ttv-sim-workload.c says which,
 * when), with how the simulated kernel serves them. */
const TtvSimSyscall ttv_sim_syscalls[] = {
  { "read", 0, TTV_SIM_SYSCALL_READ },
  { "write", 1, TTV_SIM_SYSCALL_WRITE },
  { "open", 2, TTV_SIM_SYSCALL_QUICK },
  { "close", 3, TTV_SIM_SYSCALL_QUICK },
  { "stat", 4, TTV_SIM_SYSCALL_QUICK },
  { "fstat", 5, TTV_SIM_SYSCALL_QUICK },
  { "poll", 7, TTV_SIM_SYSCALL_SLEEP },
  { "lseek", 8, TTV_SIM_SYSCALL_QUICK },
  { "mmap", 9, TTV_SIM_SYSCALL_QUICK },
  { "mprotect", 10, TTV_SIM_SYSCALL_QUICK },
  { "munmap", 11, TTV_SIM_SYSCALL_QUICK },
  { "brk", 12, TTV_SIM_SYSCALL_QUICK },
  { "rt_sigaction", 13, TTV_SIM_SYSCALL_QUICK },
  { "rt_sigprocmask", 14, TTV_SIM_SYSCALL_QUICK },
  { "ioctl", 16, TTV_SIM_SYSCALL_QUICK },
  { "pread64", 17, TTV_SIM_SYSCALL_READ },
  { "access", 21, TTV_SIM_SYSCALL_QUICK },
  { "pipe", 22, TTV_SIM_SYSCALL_QUICK },
  { "select", 23, TTV_SIM_SYSCALL_SLEEP },
  { "sched_yield", 24, TTV_SIM_SYSCALL_QUICK },
  { "dup2", 33, TTV_SIM_SYSCALL_QUICK },
  { "nanosleep", 35, TTV_SIM_SYSCALL_SLEEP },
  { "getpid", 39, TTV_SIM_SYSCALL_QUICK },
  { "socket", 41, TTV_SIM_SYSCALL_QUICK },
  { "connect", 42, TTV_SIM_SYSCALL_QUICK },
  { "accept", 43, TTV_SIM_SYSCALL_QUICK },
  { "sendto", 44, TTV_SIM_SYSCALL_SEND },
  { "recvfrom", 45, TTV_SIM_SYSCALL_RECV },
  { "sendmsg", 46, TTV_SIM_SYSCALL_SEND },
  { "recvmsg", 47, TTV_SIM_SYSCALL_RECV },
  { "setsockopt", 54, TTV_SIM_SYSCALL_QUICK },
  { "clone", 56, TTV_SIM_SYSCALL_FORK },
  { "execve", 59, TTV_SIM_SYSCALL_EXEC },
  { "exit", 60, TTV_SIM_SYSCALL_EXIT },
  { "wait4", 61, TTV_SIM_SYSCALL_WAIT },
  { "kill", 62, TTV_SIM_SYSCALL_QUICK },
  { "uname", 63, TTV_SIM_SYSCALL_QUICK },
  { "fcntl", 72, TTV_SIM_SYSCALL_QUICK },
  { "fsync", 74, TTV_SIM_SYSCALL_QUICK },
  { "getcwd", 79, TTV_SIM_SYSCALL_QUICK },
  { "chdir", 80, TTV_SIM_SYSCALL_QUICK },
  { "rename", 82, TTV_SIM_SYSCALL_QUICK },
  { "unlink", 87, TTV_SIM_SYSCALL_QUICK },
  { "readlink", 89, TTV_SIM_SYSCALL_QUICK },
  { "umask", 95, TTV_SIM_SYSCALL_QUICK },
  { "gettimeofday", 96, TTV_SIM_SYSCALL_QUICK },
  { "getrusage", 98, TTV_SIM_SYSCALL_QUICK },
  { "getuid", 102, TTV_SIM_SYSCALL_QUICK },
  { "geteuid", 107, TTV_SIM_SYSCALL_QUICK },
  { "getppid", 110, TTV_SIM_SYSCALL_QUICK },
  { "prctl", 157, TTV_SIM_SYSCALL_QUICK },
  { "futex", 202, TTV_SIM_SYSCALL_SLEEP },
  { "futex", 202, TTV_SIM_SYSCALL_WAIT },   /* a leader waiting for its threads */
  { "getdents64", 217, TTV_SIM_SYSCALL_QUICK },
  { "clock_gettime", 228, TTV_SIM_SYSCALL_QUICK },
  { "exit_group", 231, TTV_SIM_SYSCALL_EXIT },
  { "epoll_wait", 232, TTV_SIM_SYSCALL_SLEEP },
  { "epoll_ctl", 233, TTV_SIM_SYSCALL_QUICK },
  { "openat", 257, TTV_SIM_SYSCALL_QUICK },
};
const guint ttv_sim_n_syscalls = G_N_ELEMENTS (ttv_sim_syscalls);

guint
ttv_sim_syscall_index (guint number)
{
  for (guint i = 0; i < ttv_sim_n_syscalls; i++)
    if (ttv_sim_syscalls[i].number == number)
      return i;
  g_assert_not_reached ();
}

/* x86_64 system call names by number, 0 to 257 (openat): LTT enums number
 * their labels 0, 1, 2... so the table is dense. */
static const char * const syscall_names[] = {
  "read", "write", "open", "close", "stat", "fstat", "lstat", "poll", "lseek", "mmap",
  "mprotect", "munmap", "brk", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "ioctl",
  "pread64", "pwrite64", "readv", "writev", "access", "pipe", "select", "sched_yield", "mremap",
  "msync", "mincore", "madvise", "shmget", "shmat", "shmctl", "dup", "dup2", "pause",
  "nanosleep", "getitimer", "alarm", "setitimer", "getpid", "sendfile", "socket", "connect",
  "accept", "sendto", "recvfrom", "sendmsg", "recvmsg", "shutdown", "bind", "listen",
  "getsockname", "getpeername", "socketpair", "setsockopt", "getsockopt", "clone", "fork",
  "vfork", "execve", "exit", "wait4", "kill", "uname", "semget", "semop", "semctl", "shmdt",
  "msgget", "msgsnd", "msgrcv", "msgctl", "fcntl", "flock", "fsync", "fdatasync", "truncate",
  "ftruncate", "getdents", "getcwd", "chdir", "fchdir", "rename", "mkdir", "rmdir", "creat",
  "link", "unlink", "symlink", "readlink", "chmod", "fchmod", "chown", "fchown", "lchown",
  "umask", "gettimeofday", "getrlimit", "getrusage", "sysinfo", "times", "ptrace", "getuid",
  "syslog", "getgid", "setuid", "setgid", "geteuid", "getegid", "setpgid", "getppid", "getpgrp",
  "setsid", "setreuid", "setregid", "getgroups", "setgroups", "setresuid", "getresuid",
  "setresgid", "getresgid", "getpgid", "setfsuid", "setfsgid", "getsid", "capget", "capset",
  "rt_sigpending", "rt_sigtimedwait", "rt_sigqueueinfo", "rt_sigsuspend", "sigaltstack", "utime",
  "mknod", "uselib", "personality", "ustat", "statfs", "fstatfs", "sysfs", "getpriority",
  "setpriority", "sched_setparam", "sched_getparam", "sched_setscheduler", "sched_getscheduler",
  "sched_get_priority_max", "sched_get_priority_min", "sched_rr_get_interval", "mlock",
  "munlock", "mlockall", "munlockall", "vhangup", "modify_ldt", "pivot_root", "_sysctl", "prctl",
  "arch_prctl", "adjtimex", "setrlimit", "chroot", "sync", "acct", "settimeofday", "mount",
  "umount2", "swapon", "swapoff", "reboot", "sethostname", "setdomainname", "iopl", "ioperm",
  "create_module", "init_module", "delete_module", "get_kernel_syms", "query_module", "quotactl",
  "nfsservctl", "getpmsg", "putpmsg", "afs_syscall", "tuxcall", "security", "gettid",
  "readahead", "setxattr", "lsetxattr", "fsetxattr", "getxattr", "lgetxattr", "fgetxattr",
  "listxattr", "llistxattr", "flistxattr", "removexattr", "lremovexattr", "fremovexattr",
  "tkill", "time", "futex", "sched_setaffinity", "sched_getaffinity", "set_thread_area",
  "io_setup", "io_destroy", "io_getevents", "io_submit", "io_cancel", "get_thread_area",
  "lookup_dcookie", "epoll_create", "epoll_ctl_old", "epoll_wait_old", "remap_file_pages",
  "getdents64", "set_tid_address", "restart_syscall", "semtimedop", "fadvise64", "timer_create",
  "timer_settime", "timer_gettime", "timer_getoverrun", "timer_delete", "clock_settime",
  "clock_gettime", "clock_getres", "clock_nanosleep", "exit_group", "epoll_wait", "epoll_ctl",
  "tgkill", "utimes", "vserver", "mbind", "set_mempolicy", "get_mempolicy", "mq_open",
  "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr", "kexec_load",
  "waitid", "add_key", "request_key", "keyctl", "ioprio_set", "ioprio_get", "inotify_init",
  "inotify_add_watch", "inotify_rm_watch", "migrate_pages", "openat",
};

static const char * const softirq_names[] = {
  "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

static const char * const process_state_names[] = {
  "Running", "WaitInterruptible", "WaitUninterruptible", "Zombie", "Traced", "Paging",
};

typedef struct {
  TtvByteOrder order;
  TtvType *current;
} Builder;

static TtvType *
integer (Builder *b, guint bits, gboolean is_signed)
{
  return ttv_type_new_integer (bits, is_signed, b->order, bits);
}

static TtvType *
native (Builder *b, TtvNativeSize size, gboolean is_signed)
{
  /* 64 bits until a writer resolves it for its architecture. */
  TtvType *t = ttv_type_new_integer (64, is_signed, b->order, 64);
  t->native_size = size;
  if (size == TTV_NATIVE_POINTER)
    t->base = 16;
  return t;
}

static void
u (Builder *b, const char *name, guint bits, const char *description)
{
  ttv_type_add_field (b->current, name, integer (b, bits, FALSE), description);
}

static void
add (Builder *b, const char *name, TtvType *type, const char *description)
{
  ttv_type_add_field (b->current, name, type, description);
}

static TtvType *
softirq_enum (Builder *b)
{
  TtvType *e = ttv_type_new_enum (integer (b, 32, FALSE));
  for (guint i = 0; i < G_N_ELEMENTS (softirq_names); i++)
    ttv_type_add_mapping (e, softirq_names[i], i, i);
  return e;
}

static void
event (TtvSimSchema *s, Builder *b, TtvSimEventId id, TtvSimFacilityId facility,
       const char *name, const char *description)
{
  s->events[id].facility = facility;
  s->events[id].name = name;
  s->events[id].description = description;
  s->events[id].fields = ttv_type_new_struct ();
  b->current = s->events[id].fields;
}

TtvSimSchema *
ttv_sim_schema_new (TtvByteOrder byte_order)
{
  TtvSimSchema *s = g_new0 (TtvSimSchema, 1);
  Builder b = { byte_order, NULL };
  TtvType *e;

  s->facilities[TTV_SIM_FACILITY_CORE] = (TtvSimFacility) {
    "core", "Scheduling, interrupts, faults, system calls and processes" };
  s->facilities[TTV_SIM_FACILITY_BLOCK] = (TtvSimFacility) { "block", "Block device I/O" };
  s->facilities[TTV_SIM_FACILITY_NET] = (TtvSimFacility) { "net", "Network devices" };

  event (s, &b, TTV_SIM_EVENT_SYSCALL_ENTRY, TTV_SIM_FACILITY_CORE, "syscall_entry",
         "System call entry");
  e = ttv_type_new_enum (integer (&b, 16, FALSE));
  for (guint i = 0; i < G_N_ELEMENTS (syscall_names); i++)
    ttv_type_add_mapping (e, syscall_names[i], i, i);
  add (&b, "syscall_id", e, "System call number (x86_64)");
  add (&b, "address", native (&b, TTV_NATIVE_POINTER, FALSE), "Address of the calling instruction");

  event (s, &b, TTV_SIM_EVENT_SYSCALL_EXIT, TTV_SIM_FACILITY_CORE, "syscall_exit",
         "System call exit");
  add (&b, "ret", native (&b, TTV_NATIVE_LONG, TRUE), "Return value (negative: -errno)");

  event (s, &b, TTV_SIM_EVENT_TRAP_ENTRY, TTV_SIM_FACILITY_CORE, "trap_entry",
         "Trap (fault) entry");
  u (&b, "trap_id", 16, "Trap number (14: page fault)");
  add (&b, "address", native (&b, TTV_NATIVE_POINTER, FALSE), "Faulting address");

  event (s, &b, TTV_SIM_EVENT_TRAP_EXIT, TTV_SIM_FACILITY_CORE, "trap_exit", "Trap exit");

  event (s, &b, TTV_SIM_EVENT_IRQ_ENTRY, TTV_SIM_FACILITY_CORE, "irq_entry",
         "Interrupt handler entry");
  u (&b, "irq_id", 32, "Interrupt line");
  u (&b, "kernel_mode", 8, "1 if the interrupted code ran in the kernel");

  event (s, &b, TTV_SIM_EVENT_IRQ_EXIT, TTV_SIM_FACILITY_CORE, "irq_exit",
         "Interrupt handler exit");

  event (s, &b, TTV_SIM_EVENT_SOFT_IRQ_ENTRY, TTV_SIM_FACILITY_CORE, "soft_irq_entry",
         "Soft interrupt handler entry");
  add (&b, "softirq_id", softirq_enum (&b), "Soft interrupt vector");

  event (s, &b, TTV_SIM_EVENT_SOFT_IRQ_EXIT, TTV_SIM_FACILITY_CORE, "soft_irq_exit",
         "Soft interrupt handler exit");
  add (&b, "softirq_id", softirq_enum (&b), "Soft interrupt vector");

  event (s, &b, TTV_SIM_EVENT_SCHED_SWITCH, TTV_SIM_FACILITY_CORE, "sched_switch",
         "Context switch");
  u (&b, "prev_pid", 32, "Process switched out");
  u (&b, "next_pid", 32, "Process switched in");
  e = ttv_type_new_enum (integer (&b, 8, FALSE));
  ttv_type_add_mapping (e, "RUNNING", TTV_SIM_TASK_RUNNING, TTV_SIM_TASK_RUNNING);
  ttv_type_add_mapping (e, "WAIT_INTERRUPTIBLE", TTV_SIM_TASK_WAIT_INTERRUPTIBLE,
                        TTV_SIM_TASK_WAIT_INTERRUPTIBLE);
  ttv_type_add_mapping (e, "WAIT_UNINTERRUPTIBLE", TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE,
                        TTV_SIM_TASK_WAIT_UNINTERRUPTIBLE);
  ttv_type_add_mapping (e, "ZOMBIE", TTV_SIM_TASK_ZOMBIE, TTV_SIM_TASK_ZOMBIE);
  ttv_type_add_mapping (e, "DEAD", TTV_SIM_TASK_DEAD, TTV_SIM_TASK_DEAD);
  add (&b, "prev_state", e, "State of the process switched out");

  event (s, &b, TTV_SIM_EVENT_SCHED_WAKEUP, TTV_SIM_FACILITY_CORE, "sched_wakeup",
         "Process made runnable");
  u (&b, "pid", 32, "Process woken up");
  u (&b, "target_cpu", 32, "CPU whose run queue receives it");

  event (s, &b, TTV_SIM_EVENT_PROCESS_FORK, TTV_SIM_FACILITY_CORE, "process_fork",
         "Process or thread creation");
  u (&b, "parent_pid", 32, NULL);
  u (&b, "child_pid", 32, NULL);
  u (&b, "child_tgid", 32, "Thread group (process) of the child");

  event (s, &b, TTV_SIM_EVENT_PROCESS_EXEC, TTV_SIM_FACILITY_CORE, "process_exec",
         "Program execution");
  u (&b, "pid", 32, NULL);
  add (&b, "filename", ttv_type_new_string (), "Path of the executed program");

  event (s, &b, TTV_SIM_EVENT_PROCESS_EXIT, TTV_SIM_FACILITY_CORE, "process_exit",
         "Process exit (becomes a zombie)");
  u (&b, "pid", 32, NULL);

  event (s, &b, TTV_SIM_EVENT_PROCESS_FREE, TTV_SIM_FACILITY_CORE, "process_free",
         "Process descriptor freed");
  u (&b, "pid", 32, NULL);

  event (s, &b, TTV_SIM_EVENT_PROCESS, TTV_SIM_FACILITY_CORE, "process", "Existing process");
  add (&b, "name", ttv_type_new_string (), NULL);
  static const char * const ids[] = {
    "pid", "ppid", "tracer_pid", "uid", "euid", "suid", "fsuid", "gid", "egid", "sgid", "fsgid",
  };
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    u (&b, ids[i], 32, NULL);
  e = ttv_type_new_enum (integer (&b, 32, FALSE));
  for (guint i = 0; i < G_N_ELEMENTS (process_state_names); i++)
    ttv_type_add_mapping (e, process_state_names[i], i, i);
  add (&b, "state", e, NULL);

  event (s, &b, TTV_SIM_EVENT_INTERRUPT, TTV_SIM_FACILITY_CORE, "interrupt",
         "Interrupt request number assignment");
  u (&b, "number", 32, NULL);
  u (&b, "count", 32, NULL);
  add (&b, "controller", ttv_type_new_string (), NULL);
  add (&b, "name", ttv_type_new_string (), NULL);

  event (s, &b, TTV_SIM_EVENT_REQUEST_ISSUE, TTV_SIM_FACILITY_BLOCK, "request_issue",
         "Request sent to the device");
  u (&b, "dev", 32, "Device (major << 20 | minor)");
  u (&b, "sector", 64, NULL);
  u (&b, "nr_sector", 32, NULL);
  e = ttv_type_new_enum (integer (&b, 8, FALSE));
  ttv_type_add_mapping (e, "READ", 0, 0);
  ttv_type_add_mapping (e, "WRITE", 1, 1);
  add (&b, "rw", e, NULL);

  event (s, &b, TTV_SIM_EVENT_REQUEST_COMPLETE, TTV_SIM_FACILITY_BLOCK, "request_complete",
         "Request completed by the device");
  u (&b, "dev", 32, "Device (major << 20 | minor)");
  u (&b, "sector", 64, NULL);
  u (&b, "nr_sector", 32, NULL);
  add (&b, "error", integer (&b, 32, TRUE), "0 or -errno");

  event (s, &b, TTV_SIM_EVENT_DEV_XMIT, TTV_SIM_FACILITY_NET, "dev_xmit",
         "Packet handed to a network device");
  add (&b, "skb", native (&b, TTV_NATIVE_POINTER, FALSE), "Socket buffer");
  u (&b, "len", 32, NULL);
  add (&b, "name", ttv_type_new_string (), "Device name");

  event (s, &b, TTV_SIM_EVENT_NETIF_RECEIVE, TTV_SIM_FACILITY_NET, "netif_receive",
         "Packet received from a network device");
  add (&b, "skb", native (&b, TTV_NATIVE_POINTER, FALSE), "Socket buffer");
  u (&b, "len", 32, NULL);
  add (&b, "name", ttv_type_new_string (), "Device name");

  event (s, &b, TTV_SIM_EVENT_SOFT_IRQ_RAISE, TTV_SIM_FACILITY_CORE, "soft_irq_raise",
         "Soft interrupt raised (run at the next soft IRQ processing)");
  add (&b, "softirq_id", softirq_enum (&b), "Soft interrupt vector");

  for (guint i = 0; i < TTV_SIM_N_EVENTS; i++)
    {
      ttv_type_finish (s->events[i].fields);
      s->events[i].n_values = s->events[i].fields->fields->len;
    }
  return s;
}

void
ttv_sim_schema_free (TtvSimSchema *schema)
{
  if (schema == NULL)
    return;
  for (guint i = 0; i < TTV_SIM_N_EVENTS; i++)
    if (schema->events[i].fields)
      ttv_type_unref (schema->events[i].fields);
  g_free (schema);
}

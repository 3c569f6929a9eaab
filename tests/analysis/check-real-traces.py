#!/usr/bin/env python3
"""check-real-traces.py: the kernel analyses of ttv-report --analysis on the
real LTTng kernel traces of ../shared/traces/ctf, against an independent
computation from the raw events (ttv-report --format=jsonl, no state):
system calls, wakeup latencies, blocked intervals (off the CPU after
blocking, until run again, with the wakeup), futex waits, CPU busy time
per CPU and per thread, IRQs, soft IRQs and raises, block requests; and
the critical path of the busiest threads checked against the raw events
(its segments tile the range; a thread on it runs when it is "running",
waits between its wakeup and its run when "wait-cpu", is on no CPU when
"preempted"; a "device" segment names an IRQ or soft IRQ).  Prints TAP; skips traces not there.

Usage: check-real-traces.py TTV_REPORT
"""
import json
import os
import subprocess
import sys
from collections import defaultdict, Counter

REPORT = sys.argv[1]
TRACES = ["arm64-kernel", "bigendian-kernel", "scp-kernel"]
env = dict(os.environ, TTV_HISTORY_NO_CACHE="1")


def run(*args):
    out = subprocess.run([REPORT, *args], env=env, check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l]


def analysis(trace, name, *more):
    return run("--analysis", name, "--format=jsonl", *more, trace)


def switch_runnable(state):
    """Linux task state bits of a task leaving its CPU: runnable when 0, or
    TASK_RUNNING with only a high bit (lttng-modules' preemption flag)."""
    return state == 0 or ((state & 0xff) == 0 and state != 512)


FUTEX_WAITS = {0: "wait", 9: "wait_bitset", 6: "lock_pi", 11: "wait_requeue_pi"}


class Machine:
    """What the raw events say, walked in order."""

    def __init__(self, events):
        self.running = {}            # cpu -> tid, once a switch was seen there
        self.irqs = defaultdict(list)  # cpu -> [(soft, id, entry)]
        self.calls = defaultdict(list)  # tid -> [(entry, name, cpu)]
        self.status = {}             # tid -> blocked / runnable / running / new
        self.woken = {}              # tid -> wakeup time
        self.raised = {}             # (cpu, vec) -> first raise
        self.busy_since = {}         # cpu -> time its busy stretch began
        self.busy = Counter()        # cpu -> busy ns
        self.thread_time = Counter() # tid -> ns (0: the idle tasks' interrupts)
        self.out = defaultdict(list)
        self.pending_io = defaultdict(list)
        self.blocked_since = {}      # tid -> when it blocked
        self.blocked_woken = {}      # tid -> its first wakeup since
        self.futex = {}              # tid -> (uaddr, op) of the futex call that waits
        self.run_since = {}          # tid -> when it last went on a CPU
        self.last = None
        for e in events:
            self.event(e)
        for tid, since in self.run_since.items():
            self.out["running"].append((tid, since, self.last))
        # Still blocked at the end: unfinished, ending (and woken, if not
        # yet) at the trace's end.
        for tid, since in self.blocked_since.items():
            self.out["blocked"].append((tid, since, self.last, self.blocked_woken.get(tid, self.last), "yes"))
        for cpu in list(self.busy_since):
            self.account(cpu, self.last)

    def who(self, cpu):
        """The task whose time a busy stretch of @cpu is, or None when idle."""
        tid = self.running.get(cpu)
        if tid is None:
            return None
        if tid == 0 and not self.irqs[cpu]:
            return None
        return tid

    def account(self, cpu, t):
        tid = self.who(cpu)
        since = self.busy_since.pop(cpu, None)
        if tid is not None and since is not None and t > since:
            self.busy[cpu] += t - since
            self.thread_time[tid] += t - since

    def begin(self, cpu, t):
        if self.who(cpu) is not None:
            self.busy_since[cpu] = t

    def end_irqs(self, cpu, t, keep):
        """Ends the interrupt frames of @cpu above the first @keep."""
        while len(self.irqs[cpu]) > keep:
            soft, irq, entry = self.irqs[cpu].pop()
            self.out["softirqs" if soft else "irqs"].append((cpu, irq, entry, t))

    def event(self, e):
        t, cpu, name, f = e["time_ns"], e["cpu"], e["event"], e["fields"]
        self.last = t
        changes_cpu = name in ("sched_switch", "irq_handler_entry", "irq_handler_exit", "softirq_entry",
                               "softirq_exit")
        if changes_cpu:
            self.account(cpu, t)
        if name == "lttng_statedump_process_state":
            tid = f["tid"]
            if tid not in self.status:
                self.status[tid] = "blocked" if f["status"] == 5 else "runnable"
        elif name == "sched_process_fork":
            self.status[f["child_tid"]] = "new"
        elif name == "sched_switch":
            # No switch happens in a hard IRQ: those still open lost their exit.
            hard = [i for i, (soft, _, _) in enumerate(self.irqs[cpu]) if not soft]
            if hard:
                self.end_irqs(cpu, t, hard[0])
            prev, nxt = f["prev_tid"], f["next_tid"]
            if prev != 0 and prev in self.run_since:
                self.out["running"].append((prev, self.run_since.pop(prev), t))
            if nxt != 0:
                self.run_since[nxt] = t
            if nxt != 0 and nxt in self.blocked_since:
                since = self.blocked_since.pop(nxt)
                self.out["blocked"].append((nxt, since, t, self.blocked_woken.pop(nxt, t), "no"))
            # Blocked, not preempted and not exiting (EXIT_DEAD, EXIT_ZOMBIE).
            if prev != 0 and not switch_runnable(f["prev_state"]) and not f["prev_state"] & (16 | 32):
                self.blocked_since[prev] = t
                self.blocked_woken.pop(prev, None)
            if prev != 0:
                self.status[prev] = "runnable" if switch_runnable(f["prev_state"]) else "blocked"
                if self.status[prev] == "runnable":
                    self.woken.pop(prev, None)
            if nxt != 0:
                if nxt in self.woken:
                    self.out["wakeups"].append((nxt, self.woken.pop(nxt), t, cpu))
                self.status[nxt] = "running"
            self.running[cpu] = nxt
        elif name in ("sched_wakeup", "sched_waking", "sched_wakeup_new"):
            tid = f["tid"]
            if tid in self.blocked_since:
                self.blocked_woken.setdefault(tid, t)
            st = self.status.get(tid)
            if tid != 0 and tid not in self.woken and (st in (None, "blocked") or (st == "new" and name == "sched_wakeup_new")):
                self.woken[tid] = t
                if st != "new":
                    self.status[tid] = "runnable"
        elif name == "sched_process_free":
            # A freed task's blocked interval is not kept.
            self.blocked_since.pop(f["tid"], None)
            self.blocked_woken.pop(f["tid"], None)
        elif name == "irq_handler_entry":
            stale = [i for i, (soft, irq, _) in enumerate(self.irqs[cpu]) if not soft and irq == f["irq"]]
            if stale:
                self.end_irqs(cpu, t, stale[0])
            self.irqs[cpu].append((False, f["irq"], t))
        elif name == "irq_handler_exit":
            frames = [i for i, (soft, _, _) in enumerate(self.irqs[cpu]) if not soft]
            if frames:
                self.end_irqs(cpu, t, frames[-1])
        elif name == "softirq_entry":
            stale = [i for i, (soft, _, _) in enumerate(self.irqs[cpu]) if soft]
            if stale:
                self.end_irqs(cpu, t, stale[0])
            self.irqs[cpu].append((True, f["vec"], t))
            raise_time = self.raised.pop((cpu, f["vec"]), None)
            if raise_time is not None:
                self.out["raises"].append((cpu, f["vec"], raise_time, t))
        elif name == "softirq_exit":
            frames = [i for i, (soft, _, _) in enumerate(self.irqs[cpu]) if soft]
            if frames:
                self.end_irqs(cpu, t, frames[-1])
        elif name == "softirq_raise":
            self.raised.setdefault((cpu, f["vec"]), t)
        elif name.startswith("sys_") or name.startswith("syscall_entry_"):
            tid = self.running.get(cpu)
            if tid is not None and tid != 0:
                call = name[4:] if name.startswith("sys_") else name[len("syscall_entry_"):]
                self.calls[tid].append((t, call, cpu))
                # The futex operations that wait (the command, less the
                # private and clock flags).
                op = FUTEX_WAITS.get(f.get("op", -1) & 127) if call == "futex" else None
                if op:
                    self.futex[tid] = ("0x%x" % f["uaddr"], op)
        elif name == "exit_syscall" or name.startswith("syscall_exit_"):
            tid = self.running.get(cpu)
            if tid is not None and self.calls[tid]:
                start, call, entry_cpu = self.calls[tid].pop()
                self.out["calls"].append((tid, start, t, call, f.get("ret", 0), entry_cpu))
                if call == "futex" and tid in self.futex:
                    uaddr, op = self.futex.pop(tid)
                    self.out["futex"].append((tid, start, t, uaddr, op, f.get("ret", 0)))
        elif name == "block_rq_issue":
            if f["dev"] != 0:
                self.pending_io[(f["dev"], f["sector"])].append(t)
        elif name in ("block_rq_complete", "block_rq_requeue"):
            q = self.pending_io.get((f["dev"], f["sector"]))
            if q:
                issue = q.pop(0)
                if name == "block_rq_complete":
                    self.out["requests"].append((f["dev"], f["sector"], issue, t))
        if changes_cpu:
            self.begin(cpu, t)


def inside(intervals, start, end):
    """Whether [start, end] lies within one of @intervals ((start, end) pairs)."""
    return any(a <= start and end <= b for a, b in intervals)


def overlaps(intervals, start, end):
    return any(a < end and start < b for a, b in intervals)


def critical_path_faults(m, segments):
    """What is wrong with the critical path @segments against the raw events
    of machine @m: a list of messages, empty when none."""
    running, woken = defaultdict(list), defaultdict(list)
    for tid, a, b in m.out["running"]:
        running[tid].append((a, b))
    for tid, a, b, _ in m.out["wakeups"]:
        woken[tid].append((a, b))
    faults = []
    for prev, seg in zip([None] + segments, segments):
        where = "%s of %s [%d, %d]" % (seg["kind"], seg["tid"] or seg["irq"], seg["start"], seg["end"])
        if prev is not None and prev["end"] != seg["start"]:
            faults.append("a gap or overlap before " + where)
        if seg["start"] > seg["end"]:
            faults.append("an inverted " + where)
        if seg["kind"] == "running" and not inside(running[seg["tid"]], seg["start"], seg["end"]):
            faults.append(where + ": the thread is not on a CPU all along")
        if seg["kind"] == "wait-cpu" and not inside(woken[seg["tid"]], seg["start"], seg["end"]):
            faults.append(where + ": not between a wakeup and the run that follows")
        if seg["kind"] == "preempted" and overlaps(running[seg["tid"]], seg["start"], seg["end"]):
            faults.append(where + ": the thread runs meanwhile")
        if seg["kind"] == "device" and seg["irq"] is None:
            faults.append(where + ": names no IRQ")
    return faults


n = 0
failures = 0


def ok(cond, what):
    global n, failures
    n += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (n, what))
    if not cond:
        failures += 1


def same(what, got, want):
    got, want = sorted(got), sorted(want)
    if got != want:
        missing = [w for w in want if w not in set(got)][:3]
        extra = [g for g in got if g not in set(want)][:3]
        print("# %s: %d found, %d expected; missing %s; extra %s" % (what, len(got), len(want), missing, extra))
    ok(got == want, "%s (%d)" % (what, len(want)))


shared = os.environ.get("TTV_SHARED_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
for name in TRACES:
    trace = os.path.join(shared, "traces", "ctf", name)
    if not os.path.isdir(trace):
        n += 1
        print("ok %d - %s # SKIP not in %s" % (n, name, os.path.dirname(trace)))
        continue
    m = Machine(run("--format=jsonl", trace))

    calls = [r for r in analysis(trace, "syscalls", "--records") if r["table"] == "calls"]
    same(name + ": system calls",
         [(r["tid"], r["start"], r["end"], r["syscall"], r["ret"], r["cpu"]) for r in calls],
         m.out["calls"])

    wakeups = [r for r in analysis(trace, "sched", "--records", "--table", "wakeups")]
    same(name + ": wakeup latencies", [(r["tid"], r["start"], r["end"], r["cpu"]) for r in wakeups],
         m.out["wakeups"])

    blocked = analysis(trace, "sched", "--records", "--table", "blocked")
    same(name + ": blocked intervals", [(r["tid"], r["start"], r["end"], r["woken"], r["unfinished"]) for r in blocked],
         m.out["blocked"])

    waits = analysis(trace, "futex", "--records")
    same(name + ": futex waits", [(r["tid"], r["start"], r["end"], r["uaddr"], r["op"], r["ret"]) for r in waits],
         m.out["futex"])

    for table in ("irqs", "softirqs", "raises"):
        rows = analysis(trace, "irq", "--records", "--table", table)
        key = "irq" if table == "irqs" else "vec"
        same(name + ": " + table, [(r["cpu"], r[key], r["start"], r["end"]) for r in rows], m.out[table])

    requests = analysis(trace, "block", "--records")
    devs = lambda d: "%d:%d" % (d >> 20, d & 0xfffff)
    same(name + ": block requests", [(r["device"], r["sector"], r["start"], r["end"]) for r in requests],
         [(devs(d), s, a, b) for d, s, a, b in m.out["requests"]])

    cpu = analysis(trace, "cpu")
    busy = {r["cpu"]: r["busy"] for r in cpu if r["table"] == "cpus" and isinstance(r["cpu"], int)}
    same(name + ": busy time per CPU", busy.items(), [(c, b) for c, b in m.busy.items() if b])
    threads = {r["tid"]: r["cpu_time"] for r in cpu if r["table"] == "threads"}
    same(name + ": CPU time per thread", threads.items(), [(t, v) for t, v in m.thread_time.items() if v])
    # The critical path of the three threads that ran longest, over the trace.
    busiest = sorted(((v, t) for t, v in threads.items() if t != 0), reverse=True)[:3]
    for _, tid in busiest:
        path = [r for r in analysis(trace, "critical-path", "--tid", str(tid)) if r["table"] == "segments"]
        faults = critical_path_faults(m, path)
        for fault in faults[:3]:
            print("# " + fault)
        ok(path and not faults, "%s: critical path of thread %d (%d segments)" % (name, tid, len(path)))

    # The statistics' busy time is the same sum (ttv-report --stats: the
    # total of each cpu/ID node of the statistics tree).
    stats = subprocess.run([REPORT, "--stats", "--format=jsonl", trace], env=env, check=True, capture_output=True,
                           text=True).stdout
    stat_busy = {}
    for line in stats.splitlines():
        node = json.loads(line)
        key = node["key"].split("/")
        if len(key) == 2 and key[0] == "cpu" and key[1].lstrip("-").isdigit() and node["total_ns"] is not None:
            stat_busy[int(key[1])] = node["total_ns"]
    ok(all(abs(stat_busy.get(c, 0) - b) <= 1 for c, b in busy.items()), name + ": busy time as --stats counts it")

print("1..%d" % n)
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""check-report-analysis.py: ttv-report --analysis as a user runs it, on a
trace ttv-gen writes (CTF, with the probe): the three formats say the same
(text, jsonl, csv), --start/--end, --records, --table, --group-by, --top,
--tid, --bins, the critical path, the cache reused; wrong usage is refused
with a message and exit status 2.  Prints TAP.

Usage: check-report-analysis.py TTV_REPORT TTV_GEN
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

REPORT, GEN = sys.argv[1:3]
tmp = tempfile.mkdtemp(prefix="ttv-report-analysis-")
trace = os.path.join(tmp, "trace")
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
subprocess.run([GEN, "-q", "--format", "ctf", "--probe", "--softirq-raise", "--cpus", "3", "--processes", "30",
                "--events", "60000", "-o", trace], check=True)
PROBE_A = 4194301

n = 0
failures = 0


def ok(cond, what):
    global n, failures
    n += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (n, what))
    failures += not cond


def run(*args, status=0):
    p = subprocess.run([REPORT, *args], env=env, capture_output=True, text=True)
    if p.returncode != status:
        print("# %s: exit %d, stderr: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p


def jsonl(*args):
    return [json.loads(l) for l in run("--analysis", *args, "--format=jsonl", trace).stdout.splitlines()]


def seconds(text):
    return round(float(text) * 1e9)


# The three formats: the same statistics, rows in the same order.
js = jsonl("syscalls")
text = run("--analysis", "syscalls", trace).stdout.splitlines()
rows = list(csv.DictReader(io.StringIO(run("--analysis", "syscalls", "--format=csv", trace).stdout)))
ok(len(js) == len(rows) == len(text) - 2 and len(js) > 10, "syscalls: as many rows in text, jsonl and csv")
same = True
for j, c, t in zip(js, rows, text[2:]):
    cells = t.split()
    same &= j["syscall"] == c["syscall"] == cells[0] and j["count"] == int(c["count"]) == int(cells[1])
    same &= j["total"] == seconds(c["total"]) == seconds(cells[3])
    same &= j["p99"] == seconds(c["p99"]) == seconds(cells[-1])
ok(same, "syscalls: text, jsonl and csv say the same")
total = next(r for r in js if r["syscall"] == "all")
ok(total["count"] == sum(r["count"] for r in js if r["syscall"] != "all"), "the 'all' row sums the groups")

# Records agree with statistics; --start/--end select what starts in them.
records = jsonl("syscalls", "--records")
ok(len(records) == total["count"], "--records: every call the statistics count")
ok(all("args" in r for r in records) and any(r["args"] and "fd = " in r["args"] for r in records),
   "--records: system calls with their arguments")
start = min(r["start"] for r in records)
t0, t1 = start + 100_000_000, start + 300_000_000
window = jsonl("syscalls", "--records", "--start", "%d.%09d" % divmod(t0, 10**9), "--end", "%d.%09d" % divmod(t1, 10**9))
ok(sorted(r["start"] for r in window) == sorted(r["start"] for r in records if t0 <= r["start"] <= t1),
   "--start/--end: the calls that start in the window")
top = jsonl("syscalls", "--records", "--top", "5")
ok([r["duration"] for r in top] == sorted((r["duration"] for r in records), reverse=True)[:5], "--top: the longest")
mine = jsonl("syscalls", "--records", "--tid", str(PROBE_A))
ok(len(mine) > 5 and all(r["tid"] == PROBE_A for r in mine), "--tid: one thread's calls")
by_tid = jsonl("syscalls", "--group-by", "tid")
ok(any(r["tid"] == PROBE_A and r["count"] == len(mine) for r in by_tid), "--group-by tid")

# Scheduling: the probe's worker, woken by the disk's IRQ after 60 us.
blocked = jsonl("sched", "--records", "--table", "blocked", "--tid", str(PROBE_A + 2))
ok(any(r["waker_kind"] == "irq" and r["waker_id"] == 21 and r["syscall"] == "read" and r["state"] == "disk"
       for r in blocked), "sched: why the worker was blocked, and who woke it")
wakeups = jsonl("sched", "--records", "--table", "wakeups", "--tid", str(PROBE_A + 2))
ok(any(r["duration"] == 60_000 and r["waker_name"] == "probe-disk" for r in wakeups), "sched: 60 us after the disk")

# CPU usage: bins sum to the whole.
cpu = jsonl("cpu", "--bins", "10")
cpus = {r["cpu"]: r["busy"] for r in cpu if r["table"] == "cpus" and isinstance(r["cpu"], int)}
threads = [r for r in cpu if r["table"] == "threads"]
ok(sum(r["cpu_time"] for r in threads) == sum(cpus.values()), "cpu: the threads' time is the CPUs' busy time")
bins = [r for r in cpu if r["table"] == "bins"]
ok(len(bins) == 10 and all(0 <= r["all"] <= 100 for r in bins), "cpu: ten bins, shares in percent")

# The critical path of the client: the worker and the disk on it.
path = jsonl("critical-path", "--tid", str(PROBE_A))
segments = [r for r in path if r["table"] == "segments"]
ok(any(r["kind"] == "device" and r["irq"] == 21 for r in segments) and
   any(r["tid"] == PROBE_A + 2 and r["kind"] == "running" for r in segments), "critical path: worker and disk")
ok(all(a["end"] == b["start"] for a, b in zip(segments, segments[1:])), "critical path: segments end to end")

# The cache: written once, then read back (the same report).
cache = os.path.join(tmp, "cache", "ttv", "history")
ok(any(f.endswith(".syscalls.ttva") for f in os.listdir(cache)), "the results are cached")
ok(jsonl("syscalls") == js, "the cached results give the same report")
before = set(os.listdir(cache))
run("--analysis", "irq", "--no-cache", trace)
ok(set(os.listdir(cache)) == before, "--no-cache writes nothing")

# Wrong usage: a message, exit status 2.
for args, what in [(["--analysis", "nosuch"], "no analysis nosuch"),
                   (["--analysis", "syscalls", "--table", "nosuch"], "has no table nosuch"),
                   (["--analysis", "syscalls", "--group-by", "nosuch"], "has no column nosuch"),
                   (["--analysis", "critical-path"], "--tid"),
                   (["--analysis", "syscalls", "--stats"], "--analysis prints an analysis"),
                   (["--records"], "go with --analysis"),
                   (["--format=csv"], "--analysis"),
                   (["--analysis", "cpu", "--format=folded"], "no folded output"),
                   (["--analysis", "cpu", "--bins", "-3"], "--bins")]:
    p = run(*args, trace, status=2)
    ok(p.returncode == 2 and what in p.stderr, "refused: %s" % " ".join(args))

# A damaged trace: the report fails, naming the file, and caches nothing.
damaged = os.path.join(tmp, "damaged")
shutil.copytree(trace, damaged)
stream = sorted(f for f in os.listdir(damaged) if f.startswith("channel"))[0]
with open(os.path.join(damaged, stream), "r+b") as f:
    f.seek(70000)
    f.write(b"\xff" * 64)
before = set(os.listdir(cache))
p = run("--analysis", "sched", damaged, status=1)
ok(p.returncode == 1 and stream in p.stderr and "byte" in p.stderr, "damaged trace: exit 1 naming the file and byte")
ok(set(os.listdir(cache)) == before, "damaged trace: nothing cached")

shutil.rmtree(tmp)
print("1..%d" % n)
sys.exit(1 if failures else 0)

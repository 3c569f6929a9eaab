#!/usr/bin/env python3
"""check-userspace.py: checks ttv-report --analysis callstack and memory on a
trace of ustwork.c that test-userspace.sh recorded, against what the program
does (its call tree and allocations, modelled below), against an independent
reading of the same events by babeltrace2 when it is there, and the three
outputs (text, JSON lines, folded stacks) against one another.

Usage: check-userspace.py VARIANT REPORT TRACE SOURCE_DIR [BABELTRACE2]
  VARIANT: full (ip, vtid, threads, plugin), vtid (threads, no ip), bare (no
  context, the fast cyg-profile variant), merged (TRACE is KERNEL,FULL: the
  full trace with a kernel trace of the same machine whose tids are the
  vtids + 100000).  Exits 1 naming the first mismatch."""
import collections
import json
import os
import re
import subprocess
import sys

variant, report, trace, source = sys.argv[1:5]
babeltrace = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] else None
traces = trace.split(',')
threads = variant in ('full', 'vtid', 'merged')
plugin = variant in ('full', 'merged')
OFFSET = 100000
if variant == 'merged':
    babeltrace = None       # the merged traceset is checked against the full one


def fail(message):
    print(f'FAIL ({variant}): {message}')
    sys.exit(1)


def run(*args, on=None):
    done = subprocess.run([report, *args, *(on or traces)], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        fail(f'ttv-report {" ".join(args)} exited {done.returncode}: {done.stderr}')
    return done.stdout


# --- What ustwork.c does -------------------------------------------------------

def expected_paths():
    """Call path (tuple of names below the process) -> calls."""
    paths = collections.Counter()

    def call(path, name, body=None):
        p = path + (name,)
        paths[p] += 1
        if body:
            body(p)

    def helper(p):
        call(p, 'leaf')
        call(p, 'leaf')

    def fib(n):
        def body(p):
            if n >= 2:
                call(p, 'fib', fib(n - 1))
                call(p, 'fib', fib(n - 2))
        return body

    def plugin_work(p):
        call(p, 'plugin_inner')
        call(p, 'plugin_inner')

    def main(p):
        call(p, 'churn')
        for _ in range(3):
            call(p, 'helper', helper)
        call(p, 'fib', fib(5))
        if plugin:
            call(p, 'run_plugin', lambda q: call(q, 'plugin_work', plugin_work))
        if threads:
            call(p, 'run_worker')
        call(p, 'make_leak')

    call((), 'main', main)
    if threads:
        call((), 'worker', lambda p: [call(p, 'helper', helper) for _ in range(4)])
    return paths


def declaration_lines():
    """Function name -> (file, line) where the source declares it."""
    lines = {}
    for name in ('ustwork.c', 'ustplugin.c'):  # noqa: the two sources
        with open(os.path.join(source, name)) as f:
            for number, text in enumerate(f, 1):
                m = re.match(r'^([a-z_]+) \(', text)
                if m:
                    lines[m.group(1)] = (name, number)
                if 'LEAK' in text and '=' in text:
                    lines['LEAK'] = (name, number)
    return lines


# --- The analyses' outputs -------------------------------------------------------

def jsonl(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


callstack = jsonl(run('--analysis', 'callstack', '--format', 'jsonl'))
nodes = [r for r in callstack if r['type'] == 'node']
functions = {r['name']: r for r in callstack if r['type'] == 'function'}
thread_records = [r for r in callstack if r['type'] == 'thread']
summary = next(r for r in callstack if r['type'] == 'summary')

# 1. The call tree: every path with its number of calls, nothing more.
roots = [n for n in nodes if len(n['path']) == 1]
if len(roots) != 1:
    fail(f'expected one process, got roots {[r["path"] for r in roots]}')
if variant != 'bare' and roots[0]['path'][0] != 'ustwork':
    fail(f'the process is named {roots[0]["path"][0]!r}, not ustwork')
got = {tuple(n['path'][1:]): n['calls'] for n in nodes if len(n['path']) > 1}
want = dict(expected_paths())
if got != want:
    missing = {p: c for p, c in want.items() if got.get(p) != c}
    extra = {p: c for p, c in got.items() if p not in want}
    fail(f'call tree differs: expected (not found or other counts) {missing}, unexpected {extra}')
if summary['mismatched_exits'] != 0 or any(n['incomplete'] for n in nodes):
    fail('calls flagged incomplete or exits mismatched in a complete recording')
if len(thread_records) != (2 if threads else 1):
    fail(f'{len(thread_records)} threads, expected {2 if threads else 1}')
if threads:
    names = sorted(t['name'] for t in thread_records)
    if names != ['ustwork', 'ustworker']:
        fail(f'thread names {names}')
    if len({t['pid'] for t in thread_records}) != 1 or len({t['tid'] for t in thread_records}) != 2:
        fail('the two threads are not two threads of one process')

# 2. Durations add up: a node's total is its self time and its children's
#    totals; a process's total is its outermost calls'.
children = collections.defaultdict(int)
for n in nodes:
    if len(n['path']) > 1:
        children[tuple(n['path'][:-1])] += n['total_ns']
for n in nodes:
    path = tuple(n['path'])
    if len(path) == 1:
        if n['total_ns'] != children[path]:
            fail(f'process total {n["total_ns"]} != its calls {children[path]}')
    elif n['total_ns'] != n['self_ns'] + children[path] or n['self_ns'] < 0:
        fail(f'{path}: total {n["total_ns"]} != self {n["self_ns"]} + children {children[path]}')

# 3. Per function: calls, totals (a recursive function's outermost calls
#    only), percentiles in order.
per_name = collections.Counter()
for p, c in want.items():
    per_name[p[-1]] += c
for name, calls in per_name.items():
    f = functions.get(name)
    if f is None:
        fail(f'no function statistics for {name} (functions: {sorted(functions)})')
    if f['calls'] != calls:
        fail(f'{name}: {f["calls"]} calls, expected {calls}')
    outermost = sum(n['total_ns'] for n in nodes if n['path'][-1] == name and name not in n['path'][1:-1])
    if f['total_ns'] != outermost:
        fail(f'{name}: total {f["total_ns"]} != its outermost calls {outermost}')
    if f['self_ns'] != sum(n['self_ns'] for n in nodes if len(n['path']) > 1 and n['path'][-1] == name):
        fail(f'{name}: self time differs from its nodes')
    if not (0 < f['min_ns'] <= f['p50_ns'] <= f['p90_ns'] <= f['p99_ns'] <= f['max_ns']):
        fail(f'{name}: min/percentiles/max out of order: {f}')
    if name != 'fib' and abs(f['mean_ns'] * f['calls'] - f['total_ns']) > f['calls']:
        fail(f'{name}: the mean of its calls does not add up to its total')

# 4. Symbols and lines, where the source declares each function.
lines = declaration_lines()
for name in per_name:
    f = functions[name]
    if not f['resolved']:
        fail(f'{name} not resolved: {f}')
    if (os.path.basename(f['file'] or ''), f['line']) != lines[name]:
        fail(f'{name} at {f["file"]}:{f["line"]}, the source says {lines[name]}')
if len(functions) != len(per_name):
    fail(f'unexpected functions {sorted(set(functions) - set(per_name))}')

# 5. The three forms agree: folded stacks are the nodes' self times, the
#    text shows the same calls.
folded = run('--analysis', 'callstack', '--format', 'folded')
folded_paths = {}
for line in folded.splitlines():
    stack, value = line.rsplit(' ', 1)
    folded_paths[tuple(stack.split(';'))] = int(value)
want_folded = {tuple(n['path']): n['self_ns'] for n in nodes if len(n['path']) > 1 and n['self_ns'] > 0}
if folded_paths != want_folded:
    fail('the folded stacks differ from the JSON nodes')
text = run('--analysis', 'callstack')
for name, calls in per_name.items():
    if not re.search(rf'^  {name} +{calls} ', text, re.M):
        fail(f'the text report lacks "{name}  {calls}" in its function table:\n{text}')

# 5b. --tid reports one thread: the worker's calls, and only them.
if threads:
    worker = next(t for t in thread_records if t['name'] == 'ustworker')
    one = jsonl(run('--analysis', 'callstack', '--format', 'jsonl', '--tid', str(worker['tid'])))
    if [t['tid'] for t in one if t['type'] == 'thread'] != [worker['tid']]:
        fail('--tid: other threads reported')
    got_one = {tuple(n['path'][1:]): n['calls'] for n in one if n['type'] == 'node' and len(n['path']) > 1}
    if got_one != {p: c for p, c in want.items() if p[0] == 'worker'}:
        fail(f'--tid {worker["tid"]}: call tree {got_one}')
    bad = subprocess.run([report, '--analysis', 'memory', '--tid', str(worker['tid']), *traces],
                         capture_output=True, text=True, timeout=120)
    if bad.returncode != 2 or 'tid' not in bad.stderr:
        fail(f'--analysis memory --tid: exit {bad.returncode}, {bad.stderr!r} (expected a usage error)')

# 6. Independently, from babeltrace2's reading of the same events: per
#    thread, the stack of calls, each path's calls and time.
if babeltrace:
    bt = subprocess.run([babeltrace, '--clock-seconds', trace], capture_output=True, text=True, timeout=120)
    if bt.returncode != 0:
        fail(f'babeltrace2: {bt.stderr}')
    event_re = re.compile(r'^\[(\d+)\.(\d{9})\] \(\S+\) \S+ (lttng_ust_\w+):(\w+): (.*)$')
    stacks = collections.defaultdict(list)
    totals = collections.Counter()
    counts = collections.Counter()
    allocated = {}
    peak = in_use = allocations = frees = 0
    by_addr = {}
    for f in functions.values():
        by_addr[int(f['address'], 16)] = f['name']
    for line in bt.stdout.splitlines():
        m = event_re.match(line)
        if not m:
            continue
        t = int(m.group(1)) * 10**9 + int(m.group(2))
        provider, name, rest = m.group(3), m.group(4), m.group(5)
        vtid = re.search(r'vtid = (\d+)', rest)
        tid = vtid.group(1) if vtid else 'all'
        fields = dict(re.findall(r'(\w+) = (0x[0-9A-F]+|-?\d+)', rest.rsplit('{', 1)[-1]))
        value = {k: int(v, 0) for k, v in fields.items()}
        if provider.startswith('lttng_ust_cyg_profile'):
            if name == 'func_entry':
                stacks[tid].append((by_addr.get(value['addr'], hex(value['addr'])), t))
            else:
                path = tuple(n for n, _ in stacks[tid])
                _, start = stacks[tid].pop()
                counts[path] += 1
                totals[path] += t - start
        elif provider == 'lttng_ust_libc':
            if name in ('malloc', 'calloc', 'memalign', 'posix_memalign') and value.get('ptr', value.get('out_ptr')):
                ptr = value.get('ptr', value.get('out_ptr'))
                if name == 'posix_memalign' and value['result'] != 0:
                    continue
                size = value['size'] * value.get('nmemb', 1)
                allocated[ptr] = size
                in_use += size
                allocations += 1
            elif name == 'realloc' and value['ptr']:
                if value['in_ptr'] in allocated:
                    in_use -= allocated.pop(value['in_ptr'])
                allocated[value['ptr']] = value['size']
                in_use += value['size']
                allocations += 1
            elif name == 'free' and value['ptr'] in allocated:
                in_use -= allocated.pop(value['ptr'])
                frees += 1
            peak = max(peak, in_use)
    if dict(counts) != want:
        fail(f'babeltrace2 sees another call tree: {dict(counts)}')
    for n in nodes:
        if len(n['path']) > 1 and totals[tuple(n['path'][1:])] != n['total_ns']:
            fail(f'{n["path"]}: {n["total_ns"]} ns, babeltrace2 events say {totals[tuple(n["path"][1:])]}')

# 7. Memory: the leak is found, at its line when the ip is traced, and
#    nothing else the program allocated is; the numbers are the events'.
memory = jsonl(run('--analysis', 'memory', '--format', 'jsonl'))
processes = [r for r in memory if r['type'] == 'process']
if len(processes) != 1:
    fail(f'{len(processes)} processes in the memory analysis')
proc = processes[0]
sites = [r for r in memory if r['type'] == 'leak_site']
program_sites = [s for s in sites if s['owner'] == 'program' and s['site_kind'] != 'unknown']
if len(program_sites) != 1:
    fail(f'expected one leak in the program, got {program_sites}')
leak = program_sites[0]
if leak['blocks'] != 1 or leak['bytes'] != 4096 or leak['function'] != 'make_leak':
    fail(f'the leak found is not make_leak\'s 4096 bytes: {leak}')
if variant in ('full', 'merged'):
    if leak['site_kind'] != 'ip' or (os.path.basename(leak['file']), leak['line']) != lines['LEAK']:
        fail(f'the leak is not at the malloc of make_leak ({lines["LEAK"]}): {leak}')
    if [s for s in sites if s['site_kind'] == 'unknown']:
        fail('blocks of unknown site with the ip context')
else:
    if leak['site_kind'] != 'function':
        fail(f'without ip the leak should be placed in its function: {leak}')
    # Blocks outside every traced function: before main (the tracer's own set-up).
if proc['leaks'] != sum(s['blocks'] for s in sites if s['owner'] == 'program'):
    fail('the process\'s leak count differs from its leak sites')
if babeltrace:
    for key, value in (('peak', peak), ('in_use_at_end', in_use)):
        if proc[key] != value:
            fail(f'memory {key} {proc[key]}, babeltrace2 events say {value}')
    if proc['allocations'] + proc['reallocations'] != allocations or proc['frees'] != frees:
        fail(f'allocations/frees {proc["allocations"]}+{proc["reallocations"]}/{proc["frees"]}, '
             f'babeltrace2 events say {allocations}/{frees}')
usage = [r for r in memory if r['type'] == 'usage']
if max(u['bytes'] for u in usage) != proc['peak'] or usage[-1]['bytes'] != proc['in_use_at_end']:
    fail('the usage series does not reach the peak or end at what is left')
memory_text = run('--analysis', 'memory')
if 'make_leak' not in memory_text or '4096' not in memory_text:
    fail(f'the text report does not show the leak:\n{memory_text}')
csv = run('--analysis', 'memory', '--format', 'csv').splitlines()
if not csv[0].startswith('pid,process,tid,ptr,size') or sum(',4096,' in line for line in csv) != 1:
    fail('the CSV does not list the leak once')
# 8. The binaries: where the program and its plugin were, when the plugin
#    was loaded and unloaded, and that their symbols come from themselves.
if variant == 'full':
    binaries = {os.path.basename(b['path']): b for b in jsonl(run('--analysis', 'symbols', '--format', 'jsonl'))}
    for name in ('ustwork', 'libustplugin.so'):
        b = binaries.get(name)
        if b is None or not b['build_id'] or b['symbols'] != b['path']:
            fail(f'symbols analysis: {name}: {b}')
    plugin_binary = binaries['libustplugin.so']
    if 'loaded' not in plugin_binary or not plugin_binary['loaded'] < plugin_binary.get('unloaded', 0):
        fail(f'the plugin was dlopened and dlclosed: {plugin_binary}')
    if 'loaded' in binaries['ustwork']:
        fail('the program was described by the statedump, not loaded during the trace')

# 9. With the kernel's trace: the call stacks are the kernel threads,
#    every userspace event is theirs, and no thread is known by its vtid.
if variant == 'merged':
    alone = jsonl(run('--analysis', 'callstack', '--format', 'jsonl', on=traces[1:]))
    vtids = sorted(r['tid'] for r in alone if r['type'] == 'thread')
    tids = sorted(t['tid'] for t in thread_records)
    if tids != [v + OFFSET for v in vtids]:
        fail(f'threads {tids}, the kernel\'s are {[v + OFFSET for v in vtids]}')
    if {t['pid'] for t in thread_records} != {min(vtids) + OFFSET}:
        fail(f'the threads are not in the kernel\'s process: {thread_records}')
    events = jsonl(run('--format', 'jsonl', '--state'))
    owners = collections.Counter(e.get('pid') for e in events if e['event'].startswith('lttng_ust_'))
    stray = {pid: n for pid, n in owners.items() if pid is None or pid < OFFSET}
    if stray:
        fail(f'userspace events not on the kernel\'s threads: {stray}')
    state = run('--state-at', str(max(t['last'] for t in thread_records) / 1e9))
    for v in vtids:
        if re.search(rf'^process {v} ', state, re.M):
            fail(f'the state knows a process by its vtid {v}:\n{state}')

print(f'ok ({variant}): {sum(want.values())} calls in {len(want)} paths, {len(per_name)} functions, '
      f'leak of 4096 bytes in make_leak')

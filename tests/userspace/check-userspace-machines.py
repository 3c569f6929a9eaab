#!/usr/bin/env python3
"""check-userspace-machines.py: the userspace analyses (callstack, memory,
symbols) of ttv-report over two machines (docs/multi-machine.md).  Beside
the recorded TRACE, a copy of it from another machine (its metadata's host
name changed, the length kept so the packets stay valid): the same pids
and the same times on both.  Each machine's records, in JSON lines, must
be those of TRACE alone, the machine named in each; the text and CSV
reports gain a machine column, the folded stacks a machine before each
process; `--tid HOST:TID` picks one machine's thread; nothing on stderr.

Usage: check-userspace-machines.py REPORT TRACE WORK_DIR
Exits 1 naming the first mismatch."""
import json
import os
import re
import shutil
import subprocess
import sys

report, trace, work = sys.argv[1:4]


def fail(message):
    print(f'FAIL (machines): {message}')
    sys.exit(1)


def run(args, traces, status=0):
    done = subprocess.run([report, *args, *traces], capture_output=True, text=True, timeout=120)
    if done.returncode != status:
        fail(f'ttv-report {" ".join(args)} exited {done.returncode}, not {status}: {done.stderr}')
    return done


def jsonl(text):
    return [json.loads(line) for line in text.splitlines() if line]


def copy_as_other_host(src, dst):
    """A copy of @src whose metadata says another host: each character of
    its host name replaced, so that every length stays.  Returns both names."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    names = set()
    for root, _, files in os.walk(dst):
        if 'metadata' not in files:
            continue
        path = os.path.join(root, 'metadata')
        data = open(path, 'rb').read()
        match = re.search(rb'hostname = "([^"]*)";', data)
        if not match:
            fail(f'no hostname in {path}')
        host = match.group(1)
        other = bytes(b'r'[0] if c == b'q'[0] else b'q'[0] for c in host)
        data = data[:match.start(1)] + other + data[match.end(1):]
        open(path, 'wb').write(data)
        names.add((host.decode(), other.decode()))
    if len(names) != 1:
        fail(f'expected one host name in the trace, found {names}')
    return names.pop()


here, there = copy_as_other_host(trace, os.path.join(work, 'other-host'))
other = os.path.join(work, 'other-host')
both = [trace, other]


def without_machine(record):
    """@record as one machine's report gives it: no machine member (nor
    trace index: the symbols' second trace is 1), and no machine before a
    call path's process."""
    r = dict(record)
    r.pop('machine', None)
    r.pop('trace', None)
    if r.get('type') == 'node':
        r['path'] = [re.sub(r'^[^:]*: ', '', r['path'][0])] + r['path'][1:]
    return r


def check_per_machine(analysis, kinds):
    alone = [without_machine(r)
             for r in jsonl(run(['--analysis', analysis, '--format', 'jsonl', '--no-cache'], [trace]).stdout)
             if r['type'] in kinds]
    done = run(['--analysis', analysis, '--format', 'jsonl', '--no-cache'], both)
    if done.stderr:
        fail(f'--analysis {analysis} on two machines said: {done.stderr}')
    records = [r for r in jsonl(done.stdout) if r['type'] in kinds]
    if not alone:
        fail(f'--analysis {analysis}: no {kinds} records on the trace alone')
    for host in (here, there):
        # A call path's machine is in its process's name.
        mine = [without_machine(r) for r in records
                if r.get('machine') == host or (r['type'] == 'node' and r['path'][0].startswith(host + ': '))]
        key = lambda r: json.dumps(r, sort_keys=True)
        if sorted(mine, key=key) != sorted(alone, key=key):
            missing = [r for r in alone if r not in mine][:2]
            extra = [r for r in mine if r not in alone][:2]
            fail(f'--analysis {analysis}: machine {host}\'s records are not those of its trace alone: '
                 f'missing {missing}, extra {extra}')
    stray = [r for r in records if r['type'] != 'node' and r.get('machine') not in (here, there)]
    if stray:
        fail(f'--analysis {analysis}: records without their machine: {stray[:2]}')
    return records


# (A binary is listed for each machine whose traced functions lie in it:
# one path may be two files, one per machine.)
threads = check_per_machine('callstack', {'thread', 'function', 'node', 'binary'})
check_per_machine('memory', {'process', 'leak_site', 'leak', 'usage'})
check_per_machine('symbols', {'binary'})

# The text and CSV reports: a machine column; the folded stacks: each
# process after its machine.
text = run(['--analysis', 'callstack'], both).stdout
if not re.search(r'^  MACHINE +TID +PID +THREAD', text, re.M) or not re.search(rf'^  {there} +\d+', text, re.M):
    fail(f'the call stacks\' text has no machine column:\n{text}')
binaries = text[text.index('Binaries of the traced functions:'):]
if (not re.search(r'^  MACHINE +BINARY +SYMBOLS FROM', binaries, re.M)
        or not re.search(rf'^  {here} ', binaries, re.M) or not re.search(rf'^  {there} ', binaries, re.M)):
    fail(f'the call stacks\' binaries are not listed per machine:\n{binaries}')
memory = run(['--analysis', 'memory'], both).stdout
if not re.search(r'^  MACHINE +PROCESS', memory, re.M) or not re.search(rf'^  {there} ', memory, re.M):
    fail(f'the memory text has no machine column:\n{memory}')
csv = run(['--analysis', 'memory', '--format', 'csv'], both).stdout.splitlines()
if not csv[0].startswith('machine,pid,process') or sum(line.startswith(there + ',') for line in csv) < 1:
    fail(f'the memory CSV has no machine column: {csv[:3]}')
folded = run(['--analysis', 'callstack', '--format', 'folded'], both).stdout.splitlines()
hosts = {line.split(': ', 1)[0] for line in folded}
if hosts != {here, there}:
    fail(f'folded stacks: processes not after their machine ({hosts}): {folded[:3]}')

# --tid HOST:TID: that machine's thread only; an unknown host or thread says so.
tid = next(t['tid'] for t in threads if t['type'] == 'thread')
one = [r for r in jsonl(run(['--analysis', 'callstack', '--format', 'jsonl', f'--tid={there}:{tid}'], both).stdout)
       if r['type'] == 'thread']
if [(r['machine'], r['tid']) for r in one] != [(there, tid)]:
    fail(f'--tid {there}:{tid} gave the threads {one}')
both_tid = [r for r in jsonl(run(['--analysis', 'callstack', '--format', 'jsonl', f'--tid={tid}'], both).stdout)
            if r['type'] == 'thread']
if sorted(r['machine'] for r in both_tid) != sorted([here, there]):
    fail(f'--tid {tid} (no machine) should give that tid on both machines: {both_tid}')
done = run(['--analysis', 'callstack', '--tid=nowhere:1'], both, status=2)
if 'no machine nowhere' not in done.stderr:
    fail(f'--tid nowhere:1: {done.stderr}')
done = run(['--analysis', 'callstack', f'--tid={there}:4000000000'], both, status=2)
if f'of machine {there}' not in done.stderr:
    fail(f'--tid {there}:4000000000: {done.stderr}')

print(f'ok (machines): {here} and {there}: call stacks, memory and symbols per machine')

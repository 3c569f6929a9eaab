#!/usr/bin/env python3
# test-live-fake.py: ttv-report following live sessions served by a fake
# relay (fake_relay.py) over the LTTng live protocol (TAP).  A session read
# whole prints what ttv-report prints on the trace itself (ordered across
# streams by the beacons, with metadata that grows, packetized or not, a
# stream announced late, protocol 2.13 or 2.15); the session list; and every
# fault (wrong versions, truncated replies, huge sizes, a relay that stalls
# or goes away, a hostile path) gives a clear message, exit 1, and exactly
# the events of the packets received before it.  No spool is left behind.
# Usage: test-live-fake.py TTV_REPORT TTV_GEN
import os
import concurrent.futures
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fake_relay  # noqa: E402

REPORT, GEN = sys.argv[1], sys.argv[2]
WORK = tempfile.mkdtemp(prefix='ttv-live-fake-')
TRACE = os.path.join(WORK, 'trace')
results = []
NO_EVENTS = dict(events=False)    # a fault before any packet


def report(args, env_extra=None, timeout=30, cache=None):
    env = dict(os.environ)
    env['XDG_CACHE_HOME'] = cache or os.path.join(WORK, 'cache')
    env.update(env_extra or {})
    t0 = time.monotonic()
    p = subprocess.run([REPORT] + args, capture_output=True, text=True, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def ok(cond, name, detail=''):
    results.append((bool(cond), name, detail))
    print('%s %d - %s' % ('ok' if cond else 'not ok', len(results), name))
    if not cond and detail:
        for line in str(detail).splitlines()[:20]:
            print('#   ' + line)
    sys.stdout.flush()


def tie_sorted(text):
    """@text with the lines of each timestamp sorted: events at the same time
    in different streams come in the order of their tracefiles, and a live
    session's tracefiles are numbered in the order their first packets
    arrived, not by name as in the trace directory."""
    out, group, time_of = [], [], None
    for line in text.splitlines():
        t = line.split(' ', 1)[0]
        if t != time_of:
            out += sorted(group)
            group, time_of = [], t
        group.append(line)
    return '\n'.join(out + sorted(group)) + ('\n' if text else '')


def first_difference(a, b):
    """Where two outputs part, for messages."""
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return 'line %d:\n  %s\n  %s' % (i + 1, x, y)
    return 'one is a prefix of the other (%d and %d lines)' % (len(la), len(lb))


def is_subsequence(out, reference):
    """Every line of @out is in @reference, in the same order (an interrupted
    report prints what arrived: the streams went as far as they went)."""
    lines = iter(reference.splitlines())
    return all(any(line == r for r in lines) for line in out.splitlines())


def spool_left(cache):
    live = os.path.join(cache, 'ttv', 'live')
    return os.listdir(live) if os.path.isdir(live) else []


def truncated_reference(served, name):
    """What ttv-report prints on the trace cut to the packets served."""
    cut = os.path.join(WORK, 'cut-' + name)
    shutil.rmtree(cut, ignore_errors=True)
    os.makedirs(cut)
    shutil.copy(os.path.join(TRACE, 'metadata'), cut)
    for name in os.listdir(TRACE):
        if not name.startswith('channel'):
            continue
        _, packets = fake_relay.read_packets(os.path.join(TRACE, name))
        n = served.get(name, 0)
        end = packets[n - 1][0] + packets[n - 1][1] if n else 0
        with open(os.path.join(TRACE, name), 'rb') as f, open(os.path.join(cut, name), 'wb') as g:
            g.write(f.read(end))
    code, out, err, _ = report([cut])
    return out


def url(relay, session='fake-session', host='fakehost'):
    return 'net://127.0.0.1:%d/host/%s/%s' % (relay.port, host, session)


def skip(name, why):
    results.append((True, name, ''))
    print('ok %d - %s # SKIP %s' % (len(results), name, why))


def follow(name, reference, trace=TRACE, **kw):
    """A whole session: the same events as the trace, exit 0, no spool left."""
    cache = os.path.join(WORK, 'cache-' + name)
    relay = fake_relay.FakeRelay(fake_relay.Scenario(trace, **kw))
    try:
        code, out, err, _ = report([url(relay)], cache=cache)
    finally:
        relay.close()
    ok(code == 0 and tie_sorted(out) == tie_sorted(reference) and err == '',
       name + ': every event, in order, exit 0',
       'exit %d, %d of %d lines, %s\n%s' % (code, out.count('\n'), reference.count('\n'),
                                           first_difference(tie_sorted(out), tie_sorted(reference)), err))
    ok(spool_left(cache) == [], name + ': the spool is removed', spool_left(cache))


def fault(name, message, kw, env=None, events=True, max_seconds=15):
    """A fault: exit 1, @message (a regular expression) on stderr, the events
    of the packets received before it and no other, no spool left.  Returns
    the checks, (passed, name, detail), for ok()."""
    cache = os.path.join(WORK, 'cache-' + name)
    relay = fake_relay.FakeRelay(fake_relay.Scenario(TRACE, **kw))
    try:
        code, out, err, seconds = report([url(relay)], env_extra=env, cache=cache)
    finally:
        relay.close()
    checks = [(code == 1 and re.search(message, err), name + ': exit 1 and a clear message',
               'exit %d\n%s' % (code, err)),
              (seconds < max_seconds, name + ': stops within %d s' % max_seconds, '%.1f s' % seconds)]
    if events:
        expected = truncated_reference(relay.served, name)
        all_printed = tie_sorted(out) == tie_sorted(expected)
        checks.append((all_printed and sum(relay.served.values()) >= kw.get('after', 0),
                       name + ': the events received before the fault, all printed',
                       '%d lines printed, %d expected (packets %s)' % (out.count('\n'), expected.count('\n'),
                                                                       relay.served)))
    else:
        checks.append((out == '', name + ': no event printed', out[:500]))
    checks.append((spool_left(cache) == [], name + ': the spool is removed', spool_left(cache)))
    return checks


def run_faults(faults):
    """The fault scenarios side by side (each waits on its relay more than on
    the processor), their checks in order.  Each: (name, message, kw[, options])."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        futures = [pool.submit(fault, *f[:3], **(f[3] if len(f) > 3 else {})) for f in faults]
        for f in futures:
            for check in f.result():
                ok(*check)


def main():
    subprocess.run([GEN, '-f', 'ctf', '-o', TRACE, '-n', '4000', '-c', '3', '-b', '4096', '-s', '7', '-q'],
                   check=True)
    code, reference, err, _ = report([TRACE])
    # The simulation's 4000 events and the statedump's (open files too).
    n_events = reference.count('\n')
    assert code == 0 and n_events >= 4000, err

    # --- Whole sessions -------------------------------------------------------
    follow('plain-metadata', reference)
    follow('packetized-metadata', reference, packetized=True)
    follow('late-stream', reference, late_stream=True)
    follow('protocol-2.15', reference, minor=15)
    follow('slow-session', reference, interval=0.05, tail=0.3)

    # --- Streams that come after later events were printed --------------------
    cache = os.path.join(WORK, 'cache-late')
    relay = fake_relay.FakeRelay(fake_relay.Scenario(TRACE, late_stream=True, late_after=6, late_delay=1.0,
                                                     tail=1.0))
    code, out, err, _ = report([url(relay)], cache=cache)
    relay.close()
    late = [int(n) for n in re.findall(r'warning: .*: (\d+) events of stream channel0_\d came after later events '
                                       r'were printed; they are not printed', err)]
    ok(code == 0 and late and sum(late) + out.count('\n') == n_events and is_subsequence(out, reference),
       'late streams: the events that cannot come in order are counted in a warning, the others printed',
       'exit %d, %d printed, late %s\n%s' % (code, out.count('\n'), late, err))

    # --- A CTF 2 session (protocol 2.15 offers them) --------------------------
    ctf2 = os.path.join(WORK, 'trace-ctf2')
    gen = subprocess.run([GEN, '-f', 'ctf2', '-o', ctf2, '-n', '4000', '-c', '3', '-b', '4096', '-s', '7', '-q'],
                         capture_output=True, text=True)
    if gen.returncode != 0:
        for n in ('ctf2-session', 'ctf2-session-packetized'):
            skip(n, 'ttv-gen writes no CTF 2 trace here: %s' % (gen.stderr.strip().splitlines() or [''])[-1])
    else:
        code, reference2, err, _ = report([ctf2])
        assert code == 0 and reference2.count('\n') == n_events, err
        follow('ctf2-session', reference2, trace=ctf2, minor=15, trace_format=1)
        follow('ctf2-session-packetized', reference2, trace=ctf2, minor=15, trace_format=1, packetized=True)

    # --- Session lists --------------------------------------------------------
    relay = fake_relay.FakeRelay(fake_relay.Scenario(
        TRACE, extra_sessions=[('otherhost', 'other', 0)]))
    code, out, err, _ = report(['net://127.0.0.1:%d' % relay.port])
    expected = ('net://127.0.0.1:%d/host/fakehost/fake-session (CTF 1.8; streams: 4; viewers attached: 0; '
                'live timer: 200000 µs)\nnet://127.0.0.1:%d/host/otherhost/other (CTF 1.8; streams: 3; '
                'viewers attached: 0; live timer: 200000 µs)\n') % (relay.port, relay.port)
    ok(code == 0 and out == expected, 'list 2.13: one URL per session', out + err)
    code, out, err, _ = report(['net://127.0.0.1:%d/host/otherhost' % relay.port])
    ok(code == 0 and out.count('\n') == 1 and '/host/otherhost/other ' in out, 'list: the URL\'s host only',
       out + err)
    code, out, err, _ = report(['net://127.0.0.1:%d/host/nobody' % relay.port])
    ok(code == 0 and out == '' and 'serves no live session of host nobody' in err, 'list: no session of that host',
       out + err)
    relay.close()
    long_name = 'a-session-name-longer-than-the-255-bytes-of-protocol-2.4-' * 6
    relay = fake_relay.FakeRelay(fake_relay.Scenario(
        TRACE, minor=15, extra_sessions=[('ctf2host', long_name, 1)]))
    code, out, err, _ = report(['net://127.0.0.1:%d' % relay.port])
    ok(code == 0 and ('/host/ctf2host/%s (CTF 2;' % long_name) in out and '(CTF 1.8;' in out,
       'list 2.15: long names and the trace format', out + err)
    relay.close()

    # --- Faults ---------------------------------------------------------------
    code, out, err, _ = report(['net://127.0.0.1:1/host/h/s'])
    ok(code == 1 and 'cannot connect to the relay 127.0.0.1:1' in err, 'no relay: cannot connect', err)
    code, out, err, _ = report(['net://127.0.0.1:99999/host/h/s'])
    ok(code == 2 and 'port is not a number from 1 to 65535' in err, 'bad URL: usage error', err)
    code, out, err, _ = report(['net://127.0.0.1:1/host/h/s', TRACE])
    ok(code == 2 and 'on its own' in err, 'a live session with another trace: usage error', err)
    code, out, err, _ = report(['--stats', 'net://127.0.0.1:1/host/h/s'])
    ok(code == 2 and '--stats' in err, 'a live session with --stats: usage error', err)

    run_faults([
        ('no-such-session', r'has no live session .fake-session. of host .fakehost.: it serves fakehost/real',
         dict(session='real'), NO_EVENTS),
        ('wrong-major', r'speaks the live protocol 3\.13; ttv speaks 2\.4 to 2\.15', dict(major=3), NO_EVENTS),
        ('too-old', r'speaks the live protocol 2\.3;', dict(minor=3), NO_EVENTS),
        ('close-on-connect', r'closed the connection during the version check', dict(fault='close-on-connect'),
         NO_EVENTS),
        ('huge-session-list', r'announces 4294967295 sessions \(at most 65536 accepted\)',
         dict(fault='huge-list'), NO_EVENTS),
        ('truncated-session-list', r'closed the connection in its reply to LIST_SESSIONS \(\d+ of 339 bytes',
         dict(fault='truncated-list'), NO_EVENTS),
        ('unterminated-name', r'answered LIST_SESSIONS wrongly: .*without its terminating NUL',
         dict(fault='unterminated-name'), NO_EVENTS),
        ('attach-refused', r'refused to attach to session 1: another viewer is attached',
         dict(fault='attach-refused'), NO_EVENTS),
        ('huge-stream-count', r'announces 1073741824 streams', dict(fault='huge-streams'), NO_EVENTS),
        ('hostile-path', r'names a stream .\.\./\.\./escape/channel0_0.', dict(fault='bad-path'), NO_EVENTS),
        ('two-traces-one-directory', r'announces stream 2 \(kernel/metadata\): another trace is in that directory',
         dict(fault='two-traces-one-dir'), NO_EVENTS),
        ('huge-metadata', r'a metadata reply announces 1099511627776 bytes', dict(fault='huge-metadata'),
         NO_EVENTS),
        ('huge-packet', r'answered GET_NEXT_INDEX wrongly: an index announces a packet of 137438953472 bytes',
         dict(fault='huge-packet', after=4)),
        ('wrong-packet-length', r'answered GET_PACKET wrongly: \d+ bytes instead of the \d+ asked for',
         dict(fault='wrong-packet-len', after=4)),
        ('truncated-packet', r'closed the connection in its reply to GET_PACKET',
         dict(fault='truncated-packet', after=5)),
        ('truncated-index', r'closed the connection in its reply to GET_NEXT_INDEX \(24 of 64 bytes',
         dict(fault='truncated-index', after=3)),
        ('relay-goes-away', r'closed the connection in its reply to GET_(NEXT_INDEX|PACKET) \(0 of',
         dict(fault='close-after', after=6)),
        ('relay-stalls', r'sent nothing for 1 s while ttv waited for its reply to GET_(NEXT_INDEX|PACKET)',
         dict(fault='stall', after=5), dict(env={'TTV_LIVE_TIMEOUT': '1'}, max_seconds=8)),
        ('index-error', r'reports an error for stream kernel/channel0_\d', dict(fault='index-error', after=2)),
        ('unknown-status', r'answered GET_NEXT_INDEX with the unknown status 77',
         dict(fault='unknown-status', after=2)),
    ])
    ok(not os.path.exists(os.path.join(WORK, 'cache-hostile-path', 'ttv', 'escape')),
       'hostile-path: nothing written outside the spool')

    # --- Interrupted: what arrived is printed ---------------------------------
    cache = os.path.join(WORK, 'cache-interrupted')
    relay = fake_relay.FakeRelay(fake_relay.Scenario(TRACE, interval=0.3))
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    p = subprocess.Popen([REPORT, url(relay)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(1.2)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=20)
    relay.close()
    ok(p.returncode == 0 and out and is_subsequence(tie_sorted(out), tie_sorted(reference))
       and out.count('\n') < n_events,
       'interrupted: what arrived, printed in order, exit 0',
       'exit %s, %d lines, %s\n%s' % (p.returncode, out.count('\n'), first_difference(out, reference), err))
    ok(spool_left(cache) == [], 'interrupted: the spool is removed', spool_left(cache))

    print('1..%d' % len(results))
    shutil.rmtree(WORK, ignore_errors=True)
    return 0 if all(r[0] for r in results) else 1


if __name__ == '__main__':
    sys.exit(main())

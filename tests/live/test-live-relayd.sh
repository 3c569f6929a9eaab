#!/bin/sh
# test-live-relayd.sh: a live session of Debian's lttng-tools on loopback,
# followed by ttv while an instrumented program emits at a known rate.
# Usage: test-live-relayd.sh cli APP TTV_REPORT WORK_DIR
#        test-live-relayd.sh gui APP TTV_REPORT WORK_DIR GUI_TEST
#   cli: `ttv-report net://RELAY` lists the session; `ttv-report --follow
#        net://RELAY/host/HOST/SESSION` prints events while the program runs,
#        every one of them (compared with ttv-report on the trace the relay
#        wrote to disk), and exits 0 when the session is destroyed.
#   gui: GUI_TEST (tests/gui/test-live-view, run under Xvfb by meson) opens
#        the session through File > Open Live Session and checks what the
#        tab shows (TTV_LIVE_RELAY, TTV_LIVE_SESSION, TTV_LIVE_EXPECT).
# Root only (exit 77 otherwise): the relay and session daemons run as the
# user "nobody" with a private LTTNG_HOME and private ports; every process
# this test starts is killed at the end, whatever happened.
set -u
mode=$1
app=$2
report=$3
work=$4
gui_test=${5:-}

skip () { echo "SKIP: $*"; exit 77; }
fail () { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "not root: lttng-sessiond and lttng-relayd run for this test only as root"
for p in lttng lttng-sessiond lttng-relayd timeout setpriv python3; do
  command -v "$p" >/dev/null 2>&1 || skip "$p not in PATH (lttng-tools, util-linux and python3 needed)"
done
[ -x "$app" ] || fail "$app not built"

rm -rf "$work"
mkdir -p "$work/home" "$work/out"
chown -R 65534:65534 "$work" || skip "cannot give $work to user nobody"
chmod 755 "$work"

export LTTNG_HOME="$work/home"
export HOME="$work/home"
run () {  # run SECONDS COMMAND...: as nobody, with a timeout
  t=$1; shift
  timeout -k 5 "$t" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    env LTTNG_HOME="$LTTNG_HOME" HOME="$HOME" LTTNG_UST_REGISTER_TIMEOUT=5000 "$@"
}

relayd_pid= follower_pid= app_pid=
stop_pid () {
  [ -n "$1" ] || return 0
  kill "$1" 2>/dev/null || return 0
  i=0
  while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  kill -9 "$1" 2>/dev/null || true
}
cleanup () {
  stop_pid "$follower_pid"
  stop_pid "$app_pid"
  stop_pid "$(cat "$work/home/.lttng/lttng-sessiond.pid" 2>/dev/null || true)"
  stop_pid "$relayd_pid"
}
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

# Three free ports on loopback: control, data, live.
ports=$(python3 -c 'import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))')
set -- $ports
control=$1 data=$2 live=$3
relay="127.0.0.1:$live"

# Started directly (no function, no subshell): $! is the relay itself once
# setpriv and env have exec'ed it.
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all env LTTNG_HOME="$LTTNG_HOME" HOME="$HOME" \
  lttng-relayd -C "tcp://127.0.0.1:$control" -D "tcp://127.0.0.1:$data" -L "tcp://127.0.0.1:$live" \
  -o "$work/out" >"$work/relayd.log" 2>&1 &
relayd_pid=$!
i=0
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $live), 1)" 2>/dev/null; do
  i=$((i + 1))
  [ $i -lt 50 ] || { cat "$work/relayd.log"; skip "lttng-relayd does not listen here"; }
  kill -0 "$relayd_pid" 2>/dev/null || { cat "$work/relayd.log"; skip "lttng-relayd cannot run here"; }
  sleep 0.1
done
run 20 lttng-sessiond --daemonize --no-kernel >"$work/sessiond.log" 2>&1 \
  || { cat "$work/sessiond.log"; skip "lttng-sessiond cannot start here"; }

session=ttv-live-$mode
host=$(hostname)
url="net://$relay/host/$host/$session"
run 20 lttng create "$session" --live=200000 --set-url="net://127.0.0.1:$control:$data" >"$work/lttng.log" 2>&1 \
  || { cat "$work/lttng.log"; skip "lttng create --live fails here"; }
run 20 lttng enable-event -u 'ttv_test:*' >>"$work/lttng.log" 2>&1 || { cat "$work/lttng.log"; fail "enable-event"; }
run 20 lttng start >>"$work/lttng.log" 2>&1 || { cat "$work/lttng.log"; fail "start"; }

# 100 rounds of 4 events 20 ms apart (after 14 first events): 414 events
# over 2 s, while ttv follows.
rounds=100
expect=$((14 + 4 * rounds))

if [ "$mode" = cli ]; then
  timeout 20 "$report" "net://$relay" >"$work/list.txt" 2>"$work/list.err" || { cat "$work/list.err"; fail "listing the relay's sessions"; }
  grep -qF "$url (CTF 1.8; streams: " "$work/list.txt" || { cat "$work/list.txt"; fail "the session list lacks $url"; }
  echo "ok: the relay lists $url"
  timeout 60 "$report" --follow "$url" >"$work/live.txt" 2>"$work/live.err" &
  follower_pid=$!
else
  [ -x "$gui_test" ] || fail "$gui_test not built"
  TTV_LIVE_RELAY=$relay TTV_LIVE_SESSION=$session TTV_LIVE_EXPECT=$expect timeout 90 "$gui_test" --tap \
    -p /gui/live/relayd >"$work/gui.txt" 2>&1 &
  follower_pid=$!
fi

# The events are emitted once ttv is attached (slow to start under ASan):
# the relay then lists one viewer on the session.
i=0
until timeout 10 "$report" "net://$relay" 2>/dev/null | grep -F "$url (" | grep -qF "viewers attached: 1;"; do
  i=$((i + 1))
  [ $i -lt 300 ] || { cat "$work/gui.txt" "$work/live.err" 2>/dev/null; fail "ttv did not attach to $url"; }
  kill -0 "$follower_pid" 2>/dev/null || { cat "$work/gui.txt" "$work/live.err" 2>/dev/null; fail "ttv stopped before attaching"; }
  sleep 0.1
done
timeout -k 5 30 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
  env LTTNG_HOME="$LTTNG_HOME" HOME="$HOME" LTTNG_UST_REGISTER_TIMEOUT=5000 "$app" "$rounds" 20000 &
app_pid=$!
wait "$app_pid" || fail "the instrumented program failed"
app_pid=
sleep 1
if [ "$mode" = cli ]; then
  n=$(wc -l <"$work/live.txt")
  [ "$n" -gt 0 ] || { cat "$work/live.err"; fail "nothing printed while the session runs"; }
  echo "ok: $n events printed while the session runs"
  kill -0 "$follower_pid" 2>/dev/null || fail "ttv-report --follow stopped before the session ended"
fi
run 30 lttng destroy "$session" >>"$work/lttng.log" 2>&1 || { cat "$work/lttng.log"; fail "destroy"; }

wait "$follower_pid"
status=$?
follower_pid=
if [ "$mode" = gui ]; then
  cat "$work/gui.txt"
  [ "$status" = 0 ] || fail "the viewer test failed (exit $status)"
  exit 0
fi
[ "$status" = 0 ] || { cat "$work/live.err"; fail "ttv-report --follow exited $status after the session ended"; }
echo "ok: ttv-report exits 0 when the session ends"

meta=$(find "$work/out" -name metadata -type f | head -n 1)
[ -n "$meta" ] || fail "the relay wrote no trace"
trace=$(dirname "$meta")
timeout 60 "$report" "$trace" >"$work/disk.txt" 2>"$work/disk.err" || { cat "$work/disk.err"; fail "ttv-report on $trace"; }
n=$(wc -l <"$work/disk.txt")
[ "$n" -eq "$expect" ] || fail "the relay's trace holds $n events, not $expect"
# Events at the same time in two streams come in the order of their
# tracefiles, numbered as their first packets arrived in a live session.
tie_sorted () { python3 -c 'import itertools, sys
for _, g in itertools.groupby(sys.stdin.read().splitlines(), key=lambda l: l.split(" ", 1)[0]):
    print("\n".join(sorted(g)))' <"$1"; }
tie_sorted "$work/disk.txt" >"$work/disk.sorted"
tie_sorted "$work/live.txt" >"$work/live.sorted"
if ! cmp -s "$work/disk.sorted" "$work/live.sorted"; then
  diff "$work/disk.sorted" "$work/live.sorted" | head -n 20
  fail "ttv-report --follow printed other events than the relay's trace holds"
fi
echo "ok: $n events followed live, the same as in the trace the relay wrote"
exit 0

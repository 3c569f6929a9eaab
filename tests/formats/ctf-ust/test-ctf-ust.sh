#!/bin/sh
# test-ctf-ust.sh: records a small userspace trace with LTTng-UST (the
# instrumented ttv-ust-app), then compares `ttv-report --format=babeltrace`
# with `babeltrace2 --clock-gmt` on it, line for line.
# Usage: test-ctf-ust.sh APP TTV_REPORT WORK_DIR   (exit 77: skipped)
# Root only.  The session daemon runs as the unprivileged user "nobody" with
# LTTNG_HOME (and so its run directory, $LTTNG_HOME/.lttng) under WORK_DIR:
# a root daemon would use the machine-wide /var/run/lttng, which
# lttng-tools 2.13 offers no way to move.  Every step has a timeout and the
# daemon is always killed.
set -u
app=$1
report=$2
work=$3

skip () { echo "SKIP: $*"; exit 77; }
fail () { echo "FAIL: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "not root: this test records a trace only as root"
for p in lttng lttng-sessiond timeout setpriv; do
  command -v "$p" >/dev/null 2>&1 || skip "$p not in PATH (lttng-tools and util-linux needed)"
done
bt=$(command -v babeltrace2 || true)

rm -rf "$work"
mkdir -p "$work/home" "$work/out"
chown -R 65534:65534 "$work" || skip "cannot give $work to user nobody"
chmod 755 "$work"
# The app and lttng must be reachable by nobody.
[ -x "$app" ] || fail "$app not built"

export LTTNG_HOME="$work/home"
export LTTNG_RUNDIR="$work/home/.lttng"   # honoured by newer lttng-tools; here LTTNG_HOME is what counts
export HOME="$work/home"
run () {  # run SECONDS COMMAND...: as nobody, with a timeout
  t=$1; shift
  timeout -k 5 "$t" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    env LTTNG_HOME="$LTTNG_HOME" HOME="$HOME" LTTNG_UST_REGISTER_TIMEOUT=5000 "$@"
}

pidfile="$work/home/sessiond.pid"
cleanup () {
  if [ -f "$pidfile" ]; then
    pid=$(cat "$pidfile" 2>/dev/null || true)
  else
    pid=$(cat "$work/home/.lttng/lttng-sessiond.pid" 2>/dev/null || true)
  fi
  if [ -n "${pid:-}" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

run 20 lttng-sessiond --daemonize --no-kernel >"$work/sessiond.log" 2>&1 \
  || { cat "$work/sessiond.log"; skip "lttng-sessiond cannot start here"; }
pid=$(cat "$work/home/.lttng/lttng-sessiond.pid" 2>/dev/null || true)
[ -n "$pid" ] && echo "$pid" > "$pidfile"

out="$work/out/trace"
run 20 lttng create ttv-test --output="$out" >"$work/lttng.log" 2>&1 \
  || { cat "$work/lttng.log"; skip "lttng create fails here (daemon not usable)"; }
run 20 lttng enable-event -u 'ttv_test:*' >>"$work/lttng.log" 2>&1 || { cat "$work/lttng.log"; fail "enable-event"; }
run 20 lttng add-context -u -t vpid -t vtid -t procname >>"$work/lttng.log" 2>&1 || { cat "$work/lttng.log"; fail "add-context"; }
run 20 lttng start >>"$work/lttng.log" 2>&1 || { cat "$work/lttng.log"; fail "start"; }
run 30 "$app" 20 || fail "the instrumented program failed"
run 30 lttng stop >>"$work/lttng.log" 2>&1 || { cat "$work/lttng.log"; fail "stop"; }
run 30 lttng destroy >>"$work/lttng.log" 2>&1 || { cat "$work/lttng.log"; fail "destroy"; }
cleanup

meta=$(find "$out" -name metadata -type f | head -n 1)
[ -n "$meta" ] || { cat "$work/lttng.log"; skip "no trace recorded (the program did not register with the daemon)"; }
trace=$(dirname "$meta")
echo "recorded: $trace"

# Our reader on the session directory and on the trace itself.
timeout 60 "$report" --format=babeltrace "$trace" >"$work/ttv.txt" 2>"$work/ttv.err" \
  || { cat "$work/ttv.err"; fail "ttv-report failed on $trace"; }
timeout 60 "$report" --format=babeltrace "$out" >"$work/ttv-session.txt" 2>"$work/ttv-session.err" \
  || { cat "$work/ttv-session.err"; fail "ttv-report failed on the session directory $out"; }
n=$(wc -l <"$work/ttv.txt")
# 14 extremes + 20 rounds of 4 events
[ "$n" -eq 94 ] || fail "expected 94 events, ttv-report printed $n"
cmp -s "$work/ttv.txt" "$work/ttv-session.txt" || fail "the session directory reads differently from its trace"

if [ -z "$bt" ]; then
  skip "babeltrace2 not in PATH: recorded and read $n events, no comparison"
fi
timeout 60 "$bt" --clock-gmt "$trace" >"$work/bt.txt" 2>"$work/bt.err" \
  || { cat "$work/bt.err"; fail "babeltrace2 failed on $trace"; }
if ! cmp -s "$work/bt.txt" "$work/ttv.txt"; then
  diff "$work/bt.txt" "$work/ttv.txt" | head -n 20
  fail "ttv-report --format=babeltrace differs from babeltrace2 --clock-gmt"
fi
echo "ok: $n events, identical to babeltrace2"
exit 0

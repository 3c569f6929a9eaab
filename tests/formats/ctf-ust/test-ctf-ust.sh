#!/bin/sh
# test-ctf-ust.sh: records a small userspace trace with LTTng-UST (the
# instrumented ttv-ust-app), then compares `ttv-report --format=babeltrace`
# with `babeltrace2 --clock-gmt` on it, line for line.
# Usage: test-ctf-ust.sh APP TTV_REPORT WORK_DIR   (exit 77: skipped)
# Root only: the session daemon runs as "nobody" with LTTNG_HOME under
# WORK_DIR (tests/common/lttng-record-lib.sh).
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

. "$(dirname "$0")/../../common/lttng-record-lib.sh"
lttng_record_init "$work" skip
# The app and lttng must be reachable by nobody.
[ -x "$app" ] || fail "$app not built"
export LTTNG_RUNDIR="$work/home/.lttng"   # honoured by newer lttng-tools; here LTTNG_HOME is what counts

# The daemon's pid, kept: the daemon removes its pid file as it ends.
pidfile="$work/home/sessiond.pid"
cleanup () { lttng_sessiond_kill "$(cat "$pidfile" 2>/dev/null || true)"; }
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

lttng_sessiond_start skip
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

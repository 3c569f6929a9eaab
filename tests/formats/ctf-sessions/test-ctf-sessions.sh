#!/bin/sh
# test-ctf-sessions.sh: the ten defects found on real LTTng 2.13 traces
# (issue 14), each checked on a session recorded here as a user records
# one: lttng-sessiond with a private LTTNG_HOME, the instrumented
# ttv-defects-app (every ctf_* macro, 64-bit enums, floats, strings that are
# not UTF-8), per-uid and per-pid buffers, discard and overwrite (snapshot)
# modes, snapshots, a rotation.  babeltrace2, when installed, is the
# reference for the text and for the lost-event warnings.  TAP output.
# Usage: test-ctf-sessions.sh APP TTV_REPORT WORK_DIR   (exit 77: skipped)
# Root only: the session daemon runs as "nobody" with LTTNG_HOME under
# WORK_DIR (tests/common/lttng-record-lib.sh).
set -u
app=$1
report=$2
work=$3

skip_all () { echo "1..0 # SKIP $*"; exit 0; }   # TAP: a skip, not the 77 of exit-code tests
[ "$(id -u)" = 0 ] || skip_all "not root: this test records traces only as root"
for p in lttng lttng-sessiond timeout setpriv python3; do
  command -v "$p" >/dev/null 2>&1 || skip_all "$p not in PATH (lttng-tools, util-linux and python3 needed)"
done
[ -x "$app" ] || skip_all "$app not built"
bt=$(command -v babeltrace2 || true)

n=0
failed=0
ok () { n=$((n + 1)); echo "ok $n - $*"; }
not_ok () { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip () { n=$((n + 1)); echo "ok $n - $* # SKIP"; }
check () {  # check DESCRIPTION COMMAND...: ok when COMMAND succeeds
  d=$1; shift
  if "$@" >"$work/check.log" 2>&1; then ok "$d"; else not_ok "$d"; sed 's/^/#   /' "$work/check.log" | head -n 15; fi
}

. "$(dirname "$0")/../../common/lttng-record-lib.sh"
lttng_record_init "$work" skip_all
lt () { run 30 lttng "$@" >>"$work/lttng.log" 2>&1 || { tail -n 5 "$work/lttng.log"; return 1; }; }
cleanup () { lttng_sessiond_kill; }
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

lttng_sessiond_start skip_all
lt create probe --output="$work/out/probe" && lt destroy probe \
  || skip_all "lttng create fails here (daemon not usable)"

pause="$work/pause"
# record NAME CREATE_OPTIONS CHANNEL_OPTIONS -- what to do while tracing
begin () {  # begin SESSION [create options] -- [channel options]
  s=$1; shift
  copts=""; while [ $# -gt 0 ] && [ "$1" != "--" ]; do copts="$copts $1"; shift; done
  [ $# -gt 0 ] && shift
  # shellcheck disable=SC2086
  lt create "$s" $copts && lt enable-channel -u "$@" ch && lt enable-event -u -c ch 'ttv_defects:*' \
    && lt add-context -u -c ch -t vpid -t vtid -t procname -t ip -t pthread_id && lt start "$s"
}
end () { lt stop "$1"; lt destroy "$1"; }
has_trace () { [ -n "$(find "$1" -name metadata -type f 2>/dev/null | head -n 1)" ]; }

# babeltrace2's text and warnings of DIR next to ttv's, as BASE.{bt,ttv}{,.warnings}
both () {
  timeout 60 "$report" --format=babeltrace "$1" >"$2.ttv" 2>"$2.ttv.err"
  echo $? >"$2.ttv.rc"
  grep '^WARNING: Tracer' "$2.ttv.err" >"$2.ttv.warnings"
  if [ -n "$bt" ]; then
    timeout 60 "$bt" --clock-gmt "$1" >"$2.bt" 2>"$2.bt.err"
    grep '^WARNING: Tracer' "$2.bt.err" >"$2.bt.warnings"
  fi
}
same_as_bt () {  # same_as_bt BASE: the text and the warnings
  [ "$(cat "$1.ttv.rc")" = 0 ] || { cat "$1.ttv.err"; return 1; }
  cmp "$1.bt" "$1.ttv" || { diff "$1.bt" "$1.ttv" | head -n 10; return 1; }
  cmp "$1.bt.warnings" "$1.ttv.warnings" || { diff "$1.bt.warnings" "$1.ttv.warnings"; return 1; }
}
json_check () {  # json_check FILE PYTHON_BODY: every line is JSON, then BODY on lines = [...]
  python3 -c "
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1], encoding='utf-8')]
$2
" "$1"
}

# --- 1. Per-uid buffers, every field macro (defects 2, 3, 4, 5, 9) ----------
s1="$work/out/fields"
if begin fields --output="$s1" -- && run 30 "$app" fields && end fields && has_trace "$s1"; then
  both "$s1" "$work/fields"
  check "defect 2: 64-bit unsigned enum ranges above INT64_MAX are read" \
    grep -q '"HIGH" : container = 9223372036854775808' "$work/fields.ttv"
  if [ -n "$bt" ]; then
    check "the per-uid session prints what babeltrace2 prints" same_as_bt "$work/fields"
  else
    skip "babeltrace2 not in PATH"
  fi
  timeout 60 "$report" --format=jsonl "$s1" >"$work/fields.jsonl" 2>"$work/fields.jsonl.err"
  check "defect 3: jsonl lines hold every context field" json_check "$work/fields.jsonl" "
for l in lines:
    assert set(l['contexts']['stream']) == {'vpid', 'vtid', 'procname', 'ip', 'pthread_id'}, l
    assert l['contexts']['packet'] == {'cpu_id': l['cpu']}, l"
  check "defect 4: every jsonl line is JSON, undecodable bytes as U+FFFD" json_check "$work/fields.jsonl" "
strs = [l['fields']['str'] for l in lines]
assert strs[2] == 'bad \ufffd byte', strs
assert strs[3] == 'cut \ufffd\ufffd', strs
assert strs[1] == 'caf\u00e9', strs
assert all('\ufffd' in s for s in strs[4:7]), strs"
  check "defect 5: jsonl floats read back exactly" json_check "$work/fields.jsonl" "
import struct
want = [824161.5, 824162.5, 0.1, -1.0 / 3.0, 1e300, 5e-324, 3.4028234663852886e38]
f32 = lambda x: struct.unpack('f', struct.pack('f', x))[0] if abs(x) < 3.5e38 else float('inf')
for i, l in enumerate(lines):
    assert l['fields']['f64'] == want[i % 7], (i, l['fields']['f64'])
    got = l['fields']['f32']
    assert (got == 'Infinity' and f32(want[i % 7]) == float('inf')) or f32(got) == f32(want[i % 7]), (i, got)"
  check "defect 9: one shape for enums: the value and every label" json_check "$work/fields.jsonl" "
w = [l['fields']['wide'] for l in lines]
assert w[0] == {'value': 0, 'labels': ['LOW', 'SMALL']}, w[0]
assert w[4] == {'value': 9223372036854775808, 'labels': ['HIGH']}, w[4]
assert w[6] == {'value': 18446744073709551615, 'labels': ['MAX']}, w[6]
m = [l['fields']['mood'] for l in lines]
assert m[0] == {'value': -4, 'labels': ['MINUS']} and m[1] == {'value': -1, 'labels': []}, m"
else
  for d in 2 3 4 5 9; do not_ok "defect $d: the per-uid session could not be recorded"; done
  [ -n "$bt" ] && not_ok "the per-uid session could not be recorded"
fi

# --- 2. Per-pid buffers (defect 1) --------------------------------------------
s2="$work/out/pid"
if begin pid --output="$s2" -- --buffers-pid && run 30 "$app" fields && end pid && has_trace "$s2"; then
  both "$s2" "$work/pid"
  host=$(hostname)
  check "defect 1: per-pid lines carry HOST:PROCNAME:(VPID)" \
    grep -q "^\[[0-9:.]*\] ([+0-9.?]*) $host:ttv-defects-app:([0-9]*) ttv_defects:every_field: " "$work/pid.ttv"
  if [ -n "$bt" ]; then
    check "the per-pid session prints what babeltrace2 prints" same_as_bt "$work/pid"
  fi
else
  not_ok "defect 1: the per-pid session could not be recorded"
fi

# --- 3. Discard mode, small buffers: discarded events (defect 6) ------------
s3="$work/out/discard"
if begin discard --output="$s3" -- --discard --subbuf-size=4096 --num-subbuf=2 \
   && run 60 "$app" ticks 200000 && end discard && has_trace "$s3"; then
  both "$s3" "$work/discard"
  timeout 60 "$report" --stats-tables "$s3" >"$work/discard.stats"
  timeout 60 "$report" "$s3" >"$work/discard.text"
  timeout 60 "$report" --format=jsonl "$s3" >"$work/discard.jsonl"
  timeout 60 "$report" --stats --format=jsonl "$s3" >"$work/discard.tree"
  if grep -q "Tracer discarded" "$work/discard.ttv.warnings"; then
    check "defect 6: discarded events in --stats-tables" grep -q "^lost by the tracer: [1-9][0-9]* events" "$work/discard.stats"
    check "defect 6: discarded events in --stats (the statistics tree), as many as jsonl says" \
      json_check "$work/discard.tree" "
lost = [l['count'] for l in lines if l['key'] == 'lost-events']
said = sum(json.loads(l).get('lost_events', 0) for l in open('$work/discard.jsonl', encoding='utf-8'))
assert lost == [said] and said > 0, (lost, said)"
    check "defect 6: discarded events in the text report" grep -q -- "--- [0-9]* events lost between" "$work/discard.text"
    check "defect 6: discarded events in jsonl" json_check "$work/discard.jsonl" "
assert sum(l.get('lost_events', 0) for l in lines) > 0"
    [ -n "$bt" ] && check "defect 6: --format=babeltrace warns on stderr as babeltrace2" same_as_bt "$work/discard"
  else
    skip "defect 6: the tracer discarded nothing this time (fast consumer)"
  fi
else
  not_ok "defect 6: the discard-mode session could not be recorded"
fi

# --- 4. Snapshots: lost packets (6) and duplicates (7) -----------------------
s4="$work/out/snap"
rm -f "$pause"
if begin snap --snapshot --output="$s4" -- --subbuf-size=4096 --num-subbuf=4; then
  touch "$pause" && chmod 666 "$pause"
  run 60 "$app" ticks 3000 "$pause" &
  appid=$!
  sleep 2
  # Twice with nothing new between: the same packets in both.
  lt snapshot record -s snap && lt snapshot record -s snap
  rm -f "$pause"
  wait $appid
  lt snapshot record -s snap
  end snap
fi
if [ "$(find "$s4" -name metadata -type f 2>/dev/null | wc -l)" -eq 3 ]; then
  both "$s4" "$work/snap"
  first=$(find "$s4" -name metadata -type f | sort | head -n 1)
  timeout 60 "$report" --format=babeltrace "$(dirname "$first")" >"$work/snap-first.ttv"
  check "defect 7: three snapshots read as one trace, each packet once" \
    sh -c "[ \"\$(sort '$work/snap.ttv' | uniq -d | wc -l)\" = 0 ] && [ \"\$(grep -c 'ttv_defects:tick' '$work/snap.ttv')\" -ge \"\$(grep -c 'ttv_defects:tick' '$work/snap-first.ttv')\" ]"
  [ -n "$bt" ] && check "defect 7: the snapshots print what babeltrace2 prints" same_as_bt "$work/snap"
  timeout 60 "$report" --info "$s4" >"$work/snap.info"
  if grep -q "discarded [0-9]* packet" "$work/snap.ttv.warnings"; then
    check "defect 6: packets lost between snapshots in --info" grep -q "packets lost between" "$work/snap.info"
    timeout 60 "$report" --stats --format=csv "$s4" >"$work/snap.tree"
    check "defect 6: packets lost between snapshots in --stats" grep -q "^lost-packets,Lost packets,[1-9]" "$work/snap.tree"
  else
    skip "defect 6: no packet was lost between the snapshots this time"
  fi
else
  not_ok "defect 7: the snapshot session could not be recorded"
fi

# --- 5. A rotated session, tracefile size/count (defect 8) -------------------
s5="$work/out/rot"
rm -f "$pause"
if begin rot --output="$s5" -- --tracefile-size=65536 --tracefile-count=4; then
  touch "$pause" && chmod 666 "$pause"
  run 60 "$app" ticks 2000 "$pause" &
  appid=$!
  sleep 2
  lt rotate rot
  rm -f "$pause"
  wait $appid
  end rot
fi
if [ -d "$s5/archives" ]; then
  both "$s5" "$work/rot"
  check "defect 8: a rotated session reads from its root" sh -c "[ \"\$(cat '$work/rot.ttv.rc')\" = 0 ] && grep -q '{ n = 3999 }\$' '$work/rot.ttv'"
  [ -n "$bt" ] && check "defect 8: the chunks print what babeltrace2 prints, in time order" same_as_bt "$work/rot"
else
  not_ok "defect 8: the rotated session could not be recorded"
fi

# --- 6. Clock offset overflow (defect 10) ------------------------------------
# A real trace has offset_s = 1351530929945824323: the per-uid session's
# metadata edited so (as text: the packets unpacked).
if [ -d "$s1" ]; then
  t10="$work/out/offset"
  tr1=$(dirname "$(find "$s1" -name metadata -type f | head -n 1)")
  mkdir -p "$t10" && cp "$tr1"/ch_* "$t10"/
  python3 - "$tr1/metadata" "$t10/metadata" <<'EOF'
import struct, sys, re
d = open(sys.argv[1], 'rb').read()
text, i = b'', 0
while i < len(d):
    content, packet = struct.unpack('<II', d[i + 24:i + 32])
    text += d[i + 37:i + content // 8]
    i += packet // 8
text, n = re.subn(rb'(clock \{[^}]*?)(offset = -?[0-9]+;)', rb'\1offset_s = 1351530929945824323; \2', text)
assert n == 1
open(sys.argv[2], 'wb').write(text)
EOF
  timeout 60 "$report" "$s1" >"$work/offset-ref.text" 2>/dev/null
  timeout 60 "$report" "$t10" >"$work/offset.text" 2>"$work/offset.err"
  check "defect 10: one warning naming the clock" \
    sh -c "[ \"\$(grep -c 'clock .monotonic.: its offset .*out of the range' '$work/offset.err')\" = 1 ]"
  check "defect 10: the events' spacing is kept" python3 -c "
import sys
def times(p):
    return [int(l.split()[0].replace('.', '')) for l in open(p, errors='replace')]
a, b = times('$work/offset-ref.text'), times('$work/offset.text')
assert len(a) == len(b) and len(set(b)) > 1, (len(a), len(b))
assert [x - a[0] for x in a] == [y - b[0] for y in b]"
else
  not_ok "defect 10: no recorded trace to edit"
fi

echo "1..$n"
[ $failed -eq 0 ]

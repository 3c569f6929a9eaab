#!/bin/sh
# test-big-scroll.sh: the event list on a 10 million event trace, in a real
# window under Xvfb (TAP): it paints without reading the whole trace, End
# reaches the last event, Page Down and Home move, the window stays alive.
# Arguments: TTV TTV-GEN.  Run by meson under dbus-run-session + xvfb-run.
set -u
export LC_ALL=C.UTF-8 LANG=C.UTF-8

TTV="$1"
GEN="$2"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ttv-big-scroll-XXXXXX")
export XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config"
export TTV_TEST_MODULE_LOG="$WORK/module.log"
n=0
failed=0
pid=""

ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
check () { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
cleanup () {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

wait_for () {
  i=0
  while [ "$i" -lt "${2:-100}" ]; do
    eval "$1" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

echo "1..6"
"$GEN" -q --seed 3 --cpus 4 --processes 200 --events 10000000 -o "$WORK/big"
check "a 10 million event trace was written" '[ -f "$WORK/big/info/system.xml" ]'
"$TTV" "$WORK/big" >>"$WORK/ttv.log" 2>&1 &
pid=$!
win=""
wait_for 'win=$(xdotool search --onlyvisible --name "^big.* ttv$" 2>/dev/null | head -n 1); [ -n "$win" ]' 600
check "the window opens on the big trace" '[ -n "$win" ]'
wait_for 'grep -q "^span: " "$TTV_TEST_MODULE_LOG" 2>/dev/null' 300
last=$(sed -n 's/^span: [^ ]* //p' "$TTV_TEST_MODULE_LOG" | head -n 1)
# Click a row near the top until the list answers: rows appear once the first
# chunk of events is read, while the background passes go on.
i=0
while [ "$i" -lt 60 ] && ! grep -q "^current: " "$TTV_TEST_MODULE_LOG" 2>/dev/null; do
  xdotool mousemove --window "$win" 200 340 click 1
  sleep 0.5; i=$((i + 1))
done
xdotool key --clearmodifiers End
check "End reaches the last event ($last) without reading everything first" \
  'wait_for "grep -q \"^current: $last\" \"$TTV_TEST_MODULE_LOG\"" 300'
xdotool key --clearmodifiers Home
check "Home goes back to the first event" \
  'wait_for "grep \"^current: \" \"$TTV_TEST_MODULE_LOG\" | tail -n 1 | grep -vq \"$last\"" 300'
xdotool key --clearmodifiers Next Next Next
check "Page Down moves on" 'wait_for "[ \$(grep -c \"^current: \" \"$TTV_TEST_MODULE_LOG\") -ge 3 ]" 300'
check "the window is still alive" 'kill -0 $pid 2>/dev/null'
xdotool key --clearmodifiers ctrl+q
wait_for "! kill -0 $pid 2>/dev/null" 300 || kill "$pid" 2>/dev/null
pid=""
[ "$failed" = 0 ] || sed 's/^/# ttv: /' "$WORK/ttv.log"
exit $failed

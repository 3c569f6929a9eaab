#!/bin/sh
# test-big-scroll.sh: the event list on a 10 million event trace, in a real
# window under Xvfb (TAP): it paints without reading the whole trace, End
# reaches the last event, Home the first, each Page Down moves exactly a
# screenful less one row, the window stays alive.  Where the keys must land
# is computed from the trace by ttv-report and from the rows that fit (the
# list logs them with G_MESSAGES_DEBUG=ttv-events).
# Arguments: TTV TTV-GEN TTV-REPORT.  Run by meson under dbus-run-session +
# xvfb-run.
set -u
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
GEN="$2"
REPORT="$3"
gui_test_init big-scroll
export G_MESSAGES_DEBUG=ttv-events

echo "1..8"
"$GEN" -q --seed 3 --cpus 4 --processes 200 --events 10000000 -o "$WORK/big"
check "a 10 million event trace was written" '[ -f "$WORK/big/info/system.xml" ]'
start_ttv "$WORK/big"
win=$(wait_window "^big.* ttv$" "$WINDOW_WAIT")
check_window "the window opens on the big trace"
wait_for 'grep -q "^span: " "$TTV_TEST_MODULE_LOG" 2>/dev/null' 300
first=$(sed -n 's/^span: \([^ ]*\) .*/\1/p' "$TTV_TEST_MODULE_LOG" | head -n 1)
last=$(span_end)

# The time of the event at index $1 (0: the first) in traceset order.
event_time () {
  "$REPORT" "$WORK/big" | sed -n "$(($1 + 1)){s/ .*//p;q}"
}
# The last current time the test module logged.
current () {
  grep "^current: " "$TTV_TEST_MODULE_LOG" | tail -n 1 | cut -d' ' -f2
}
# The rows the list last said fit on screen.
rows_fit () {
  sed -n 's/.*event list: \([0-9]*\) rows fit.*/\1/p' "$WORK/ttv.log" | tail -n 1
}

check "ttv-report agrees on the first event" '[ "$(event_time 0)" = "$first" ]'
# Rows appear once the first chunk of events is read, while the background
# passes go on.
click_first_row "$win"
xdotool key --clearmodifiers End
check "End reaches the last event ($last) without reading everything first" \
  'wait_for "[ \"\$(current)\" = $last ]" 300'
xdotool key --clearmodifiers Home
check "Home goes back to the first event ($first)" \
  'wait_for "[ \"\$(current)\" = $first ]" 300'

# Page Down keeps the cursor on its row (the first, after Home) and shows
# the next screenful, the old last row on top: each press moves the
# current event by the rows that fit less one.  The rows that fit change
# when the background passes' progress bar goes: wait for them to end (the
# third stage, the state history) and the layout to settle.
wait_for '[ "$(grep -c "^history-changed" "$TTV_TEST_MODULE_LOG")" -ge 1 ]' 1200
fit=""
i=0
while [ "$i" -lt 20 ] && [ "$fit" != "$(rows_fit)" ]; do
  fit=$(rows_fit); sleep 0.5; i=$((i + 1))
done
echo "# $fit rows fit"
ok_moves=1
for k in 1 2 3; do
  want=$(event_time $((k * (fit - 1))))
  xdotool key --clearmodifiers Next
  if ! wait_for "[ \"\$(current)\" = $want ]" 300; then
    echo "# Page Down $k: current $(current), expected $want (event $((k * (fit - 1))))"
    ok_moves=0
  fi
done
check "each Page Down moves exactly $((fit - 1)) events on" '[ "$fit" -gt 5 ] && [ $ok_moves = 1 ]'
xdotool key --clearmodifiers Prior
want=$(event_time $((2 * (fit - 1))))
check "Page Up moves exactly as far back" 'wait_for "[ \"\$(current)\" = $want ]" 300'
check "the window is still alive" 'kill -0 $pid 2>/dev/null'
stop_ttv
gui_test_finish

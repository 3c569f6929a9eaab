#!/bin/sh
# test-big-scroll.sh: the event list on a 10 million event trace, in a real
# window under Xvfb (TAP): it paints without reading the whole trace, End
# reaches the last event, Page Down and Home move, the window stays alive.
# Arguments: TTV TTV-GEN.  Run by meson under dbus-run-session + xvfb-run.
set -u
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
GEN="$2"
gui_test_init big-scroll

echo "1..6"
"$GEN" -q --seed 3 --cpus 4 --processes 200 --events 10000000 -o "$WORK/big"
check "a 10 million event trace was written" '[ -f "$WORK/big/info/system.xml" ]'
start_ttv "$WORK/big"
win=$(wait_window "^big.* ttv$" 600)
check "the window opens on the big trace" '[ -n "$win" ]'
wait_for 'grep -q "^span: " "$TTV_TEST_MODULE_LOG" 2>/dev/null' 300
last=$(span_end)
# Rows appear once the first chunk of events is read, while the background
# passes go on.
click_first_row "$win"
xdotool key --clearmodifiers End
check "End reaches the last event ($last) without reading everything first" \
  'wait_for "grep -q \"^current: $last\" \"$TTV_TEST_MODULE_LOG\"" 300'
xdotool key --clearmodifiers Home
check "Home goes back to the first event" \
  'wait_for "grep \"^current: \" \"$TTV_TEST_MODULE_LOG\" | tail -n 1 | grep -vq \"$last\"" 300'
xdotool key --clearmodifiers Next Next Next
check "Page Down moves on" 'wait_for "[ \$(grep -c \"^current: \" \"$TTV_TEST_MODULE_LOG\") -ge 3 ]" 300'
check "the window is still alive" 'kill -0 $pid 2>/dev/null'
stop_ttv
gui_test_finish

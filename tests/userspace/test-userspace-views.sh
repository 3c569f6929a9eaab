#!/bin/sh
# test-userspace-views.sh: the userspace views (call stacks, flame graph,
# functions, memory) on a trace of ustwork.c recorded here, under Xvfb
# (TAP): first `ttv --render` of each, then the real window: each view shown
# through the window's show-viewer action (D-Bus), Ctrl+wheel zooming the
# call stacks, a click zooming the flame graph to a box and Escape back,
# the control flow showing the program's threads, with a screenshot of each step (kept in $TTV_GUI_SHOTS when set) and the
# colours each view must draw checked in it.
# Run by meson under dbus-run-session + xvfb-run, as root (the recording).
# Last, the event list's Symbol column on the same trace (test-event-list's
# /gui/event-list/symbol-column, given the trace), and the Functions and
# Memory views against ttv-report (test-userspace-report's
# /gui/userspace/recorded-vs-report).
# Usage: test-userspace-views.sh TTV CC SOURCE_DIR WORK_DIR [TEST_EVENT_LIST [TEST_USERSPACE_REPORT]]
set -u
TTV=$1
cc=$2
src=$3
work=$4
test_event_list=${5:-}
test_userspace_report=${6:-}

skip () { echo "1..0 # SKIP $*"; exit 0; }
fail () { echo "Bail out! $*"; exit 1; }

# shellcheck source=tests/gui/gui-test-lib.sh
. "$src/../gui/gui-test-lib.sh"
gui_test_init userspace-views
# The userspace views one at a time in the whole area.
one_pane_layout
# shellcheck source=tests/userspace/ust-record-lib.sh
. "$src/ust-record-lib.sh"
ust_setup
trace=$(record_full) || exit $?
ust_cleanup
trap gui_test_cleanup EXIT

# Pixels of the image $1 for which the -fx expression $2 holds, counted on
# every fourth pixel of every fourth row (-fx is slow; -sample keeps the
# colours exact): about a sixteenth of the true count.
pixels () {
  convert "$1" ${CROP:+-crop "$CROP" +repage} -sample 25% -fx "$2" -format '%[fx:round(mean*w*h)]' info: 2>/dev/null
}
# The warm colours of functions (ttv_userspace_function_rgb: red to yellow).
WARM='r>0.75 && g>0.35 && g<0.92 && b<0.45 ? 1 : 0'
# A process at the bottom of the flame graph (#c7ccdb).
ROOT='abs(r-0.78)<0.02 && abs(g-0.80)<0.02 && abs(b-0.86)<0.02 ? 1 : 0'
# The first process's line in the memory chart (#1f78b4).
BLUE='abs(r-0.12)<0.04 && abs(g-0.47)<0.04 && abs(b-0.71)<0.04 ? 1 : 0'
DARK='r<0.3 && g<0.3 && b<0.3 ? 1 : 0'
# A thread whose state between its events is unknown, in the control flow (#d9d9d9).
UNKNOWN='abs(r-0.85)<0.01 && abs(g-0.85)<0.01 && abs(b-0.85)<0.01 ? 1 : 0'
warm_drawn () { [ "$(pixels "$1" "$WARM")" -gt 25 ] 2>/dev/null; }
roots_drawn () { [ "$(pixels "$1" "$ROOT")" -gt 500 ] 2>/dev/null; }
blue_drawn () { [ "$(pixels "$1" "$BLUE")" -gt 8 ] 2>/dev/null; }
text_drawn () { [ "$(pixels "$1" "$DARK")" -gt 90 ] 2>/dev/null; }
threads_drawn () { [ "$(pixels "$1" "$UNKNOWN")" -gt 200 ] 2>/dev/null; }

echo "1..18"
for v in callstack flamegraph functions memory; do
  "$TTV" --render "$v" --trace "$trace" --size 1100x500 -o "$SHOTS/render-$v.png" >>"$WORK/ttv.log" 2>&1
done
check "ttv --render callstack draws the calls" 'warm_drawn "$SHOTS/render-callstack.png"'
check "ttv --render flamegraph draws the process and its call paths" \
  'roots_drawn "$SHOTS/render-flamegraph.png" && warm_drawn "$SHOTS/render-flamegraph.png"'
check "ttv --render functions draws the table" 'text_drawn "$SHOTS/render-functions.png"'
check "ttv --render memory draws the bytes in use" 'blue_drawn "$SHOTS/render-memory.png"'

# Beside a copy of itself six years earlier (its clock's offset, in ns
# since the epoch, moved back 2 * 10^17 ns by its two leading digits: as
# many digits, so the metadata's packets keep their length), the call
# stacks and the memory views draw both, the idle years between them as a
# gap's band (ttv-view-axis.c's ground, #e6e6eb) a few pixels wide.
GAP='abs(r-0.902)<0.006 && abs(g-0.902)<0.006 && abs(b-0.922)<0.006 ? 1 : 0'
gap_drawn () { gap_px=$(pixels "$1" "$GAP"); [ "$gap_px" -gt 20 ] && [ "$gap_px" -lt 1200 ] 2>/dev/null; }
early="$WORK/early-copy"
rm -rf "$early" && cp -r "$trace" "$early"
find "$early" -name metadata -type f -exec perl -pi -e 's/\boffset = ([0-9]{2})([0-9]{17});/sprintf ("offset = %02d%s;", $1 - 2, $2)/ge' {} +
for v in callstack memory; do
  "$TTV" --render "$v" --trace "$early" --trace "$trace" --size 1100x500 -o "$SHOTS/render-$v-gap.png" >>"$WORK/ttv.log" 2>&1
done
check "six years apart, the call stacks draw both copies' calls and the gap between them" \
  'warm_drawn "$SHOTS/render-callstack-gap.png" && gap_drawn "$SHOTS/render-callstack-gap.png"'
# Each copy's line on its own side of the gap only: the earlier copy's
# process comes first (blue), the later's second (red); neither is drawn
# on through the other's time, nor across the gap (the copies are as
# long, so the gap is mid-plot).
RED='abs(r-0.89)<0.04 && abs(g-0.10)<0.04 && abs(b-0.11)<0.04 ? 1 : 0'
colour_in () { convert "$1" -crop "$2" +repage -sample 25% -fx "$3" -format '%[fx:round(mean*w*h)]' info: 2>/dev/null; }
line_in () { [ "$(colour_in "$1" "$2" "$3")" -gt 3 ] 2>/dev/null; }
line_not_in () { [ "$(colour_in "$1" "$2" "$3")" -eq 0 ] 2>/dev/null; }
check "six years apart, the memory view draws each copy's bytes in use on its own side of the gap only" \
  'line_in "$SHOTS/render-memory-gap.png" 420x290+80+45 "$BLUE" && line_in "$SHOTS/render-memory-gap.png" 420x290+660+45 "$RED" \
   && line_not_in "$SHOTS/render-memory-gap.png" 460x300+620+45 "$BLUE" && line_not_in "$SHOTS/render-memory-gap.png" 455x300+75+45 "$RED" \
   && gap_drawn "$SHOTS/render-memory-gap.png"'

# In the window: the views' area only (below the view tabs, left of the
# bookmarks), not the menus and tool bars.
CROP=920x452+0+268
start_ttv "$trace"
win=$(wait_window "ttv$" 400)
check "the window opens" '[ -n "$win" ]'
xdotool windowsize --sync "$win" 1200 760 2>/dev/null
xdotool windowmove --sync "$win" 0 0 2>/dev/null
obj=$(gdbus introspect --session --dest org.ttv.Viewer --object-path /org/ttv/Viewer/window --only-properties 2>/dev/null \
        | sed -n 's/^ *node \([0-9]*\).*/\1/p' | head -n 1)
show () {
  gdbus call --session --dest org.ttv.Viewer --object-path "/org/ttv/Viewer/window/${obj:-1}" \
    --method org.gtk.Actions.Activate show-viewer "[<'$1'>]" "{}" >/dev/null 2>&1
}

show callstack
check "the call stacks view draws the threads' calls" 'shoot_until "$SHOTS/callstack.png" 150 warm_drawn'
eval "$(xdotool getwindowgeometry --shell "$win")"
# Over the plot of the first thread's rows, right of the labels.
cx=$((X + WIDTH / 2 + 200)); cy=$((Y + 330))
xdotool mousemove --sync "$cx" "$cy"
xdotool keydown ctrl click 4 click 4 click 4 click 4 keyup ctrl
sleep 1
import -window root "$SHOTS/callstack-zoom.png"
check "Ctrl+wheel zooms the call stacks (the picture changes)" \
  'differ "$SHOTS/callstack.png" "$SHOTS/callstack-zoom.png" 2000'
# Back to the whole trace for the next views (they show the window).
xdotool keydown ctrl click 5 click 5 click 5 click 5 click 5 click 5 keyup ctrl

show flamegraph
check "the flame graph draws the process and its call paths" 'shoot_until "$SHOTS/flamegraph.png" 150 roots_drawn'
# A click on the second row from the bottom (main), left part: zoom to it.
xdotool mousemove --sync $((X + 300)) $((Y + HEIGHT - 90)) click 1
sleep 1
import -window root "$SHOTS/flamegraph-zoom.png"
check "a click zooms the flame graph to a box (the picture changes)" \
  'differ "$SHOTS/flamegraph.png" "$SHOTS/flamegraph-zoom.png" 500'
xdotool key --clearmodifiers Escape
sleep 1
import -window root "$SHOTS/flamegraph-back.png"
check "Escape shows the whole graph again" \
  'differ "$SHOTS/flamegraph-zoom.png" "$SHOTS/flamegraph-back.png" 500'

show functions
check "the functions view lists the functions" 'shoot_until "$SHOTS/functions.png" 100 text_drawn'
show memory
check "the memory view draws the bytes in use" 'shoot_until "$SHOTS/memory.png" 150 blue_drawn'
show controlflow
check "the control flow shows the program's threads (state unknown between their events)" \
  'shoot_until "$SHOTS/controlflow.png" 150 threads_drawn'
stop_ttv

# The event list names each userspace event's caller, and Find finds the
# leak's malloc by it (a GTK test program of its own, on the same trace).
if [ -n "$test_event_list" ]; then
  check "the event list's Symbol column names the callers, Find finds make_leak's malloc" \
    'TTV_UST_TRACE="$trace" "$test_event_list" -p /gui/event-list/symbol-column >>"$WORK/ttv.log" 2>&1'
else
  ok "the event list's Symbol column # SKIP no test-event-list given"
fi
# The Functions view's numbers and the Memory view's leaks are the report's.
if [ -n "$test_userspace_report" ]; then
  check "the Functions and Memory views show what ttv-report --analysis callstack and memory print" \
    'TTV_UST_TRACE="$trace" "$test_userspace_report" -p /gui/userspace/recorded-vs-report >>"$WORK/ttv.log" 2>&1'
  check "beside a copy from another machine, each view names each function's and leak's machine as ttv-report does" \
    'TTV_UST_TRACE="$trace" "$test_userspace_report" -p /gui/userspace/recorded-two-machines >>"$WORK/ttv.log" 2>&1'
else
  ok "the views against the report # SKIP no test-userspace-report given"
  ok "the views of two machines against the report # SKIP no test-userspace-report given"
fi
gui_test_finish

#!/bin/sh
# test-kernel-window.sh: the kernel analysis views (issue 17) in the real
# ttv window under Xvfb, as a user meets them (TAP): on a generated trace
# with the simulator's probe, shows each latency view, the CPU usage and
# the critical path through the window's show-viewer action (D-Bus), with
# a screenshot of each once drawn (kept in $TTV_GUI_SHOTS when set); picks
# the longest system call in its list, which selects it in every view (the
# scatter rings it, the control flow tints its thread, the critical path
# draws that thread's path); a drag on the scatter zooms the time window.
# Run by meson under dbus-run-session + xvfb-run.
set -u
# shellcheck source=tests/gui/gui-test-lib.sh
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
GEN="$2"
gui_test_init kernel-views
# The analysis views one at a time in the whole area; the test module's
# view among them logs what the tab says (the pick's selection).
one_pane_layout events,controlflow,test

# Shows the viewer $1 of the window's tab.
show_viewer () {
  gdbus call --session --dest org.ttv.Viewer --object-path "/org/ttv/Viewer/window/${obj:-1}" \
    --method org.gtk.Actions.Activate show-viewer "[<'$1'>]" "{}" >/dev/null 2>&1
}

# The view's area (under the tab's labels, left of the bookmarks panel)
# has something drawn: a chart and a table.
view_drawn () { has_contrast "$1" 900x200+20+330 && has_contrast "$1" 900x120+20+640; }

# Shows the viewer $1 and screenshots it into $SHOTS/$1.png once drawn and
# no longer the picture of the view before it ($prev).
shoot_viewer () {
  show_viewer "$1"
  shoot_until "$SHOTS/$1.png" 600 new_view_drawn
}
new_view_drawn () { view_drawn "$1" && { [ -z "$prev" ] || differ "$prev" "$1" 2000; }; }
prev=""

echo "1..13"
"$GEN" -q -f ctf --probe --cpus 2 --duration 0.3 -s 3 -o "$WORK/trace" >"$WORK/gen.log" 2>&1
check "ttv-gen writes a trace with the probe" '[ -f "$WORK/trace/metadata" ]'
start_ttv "$WORK/trace"
win=$(wait_window "^trace.* ttv$" "$WINDOW_WAIT")
check_window "the window opens"
xdotool windowsize --sync "$win" 1280 800 2>/dev/null
xdotool windowmove --sync "$win" 0 0 2>/dev/null
obj=$(gdbus introspect --session --dest org.ttv.Viewer --object-path /org/ttv/Viewer/window --only-properties 2>/dev/null \
        | sed -n 's/^ *node \([0-9]*\).*/\1/p' | head -n 1)

# The event list first, drawn: the first analysis view must differ from it
# (on a loaded machine, a screenshot of the list could pass for the view,
# and the pick below would then click into the list).
shoot_until "$SHOTS/events.png" 600 view_drawn
prev="$SHOTS/events.png"
check "the system call latency view draws its scatter, density and statistics" 'shoot_viewer syscall-latency'

# The Longest page, its first row: the longest call of the window.  The
# list fills once the analysis is done (late on a loaded machine): click
# until the pick reaches the tab, which then has a selection (the test
# module logs it).
# (grep -c prints 0 and fails when nothing matches: "|| echo 0" would make
# that "0 0", which no test compares, and every pick looked missed.)
selections () { _n=$(grep -c "^selection-changed" "$TTV_TEST_MODULE_LOG" 2>/dev/null); echo "${_n:-0}"; }
pick_longest () {
  _before=$(selections)
  for _attempt in 1 2 3 4 5 6 7 8 9 10; do
    xdotool mousemove --sync $((X + 140)) $((Y + 626)) click 1
    sleep 0.5
    xdotool mousemove --sync $((X + 300)) $((Y + 682)) click 1
    wait_for '[ "$(selections)" -gt "$_before" ]' 50 && return 0
  done
  return 1
}
eval "$(xdotool getwindowgeometry --shell "$win")"
pick_longest
sleep 1.5
import -window root "$SHOTS/syscall-longest.png"
check "picking the longest call rings it on the scatter (the picture changes)" \
  '[ "$(selections)" -gt 0 ] && differ "$SHOTS/syscall-latency.png" "$SHOTS/syscall-longest.png" 300'

prev="$SHOTS/syscall-longest.png"
check "the control flow shows the selection and the selected thread" 'shoot_viewer controlflow'
prev="$SHOTS/controlflow.png"
check "the critical path draws the selected thread's path" 'shoot_viewer critical-path'
prev="$SHOTS/critical-path.png"
check "the CPU usage draws its chart and threads" 'shoot_viewer cpu-usage'
prev="$SHOTS/cpu-usage.png"
for v in sched-latency irq-latency block-latency futex-latency; do
  check "the $v view draws" 'shoot_viewer "$v"'
  prev="$SHOTS/$v.png"
done

# A drag across the scatter zooms the time window: the whole view changes.
show_viewer syscall-latency
shoot_until "$SHOTS/syscall-before-zoom.png" 150 new_view_drawn
xdotool mousemove --sync $((X + 200)) $((Y + 450)) mousedown 1 mousemove --sync $((X + 260)) $((Y + 450)) \
  mousemove --sync $((X + 330)) $((Y + 450)) mouseup 1
sleep 2
import -window root "$SHOTS/syscall-zoomed.png"
check "a drag on the scatter zooms the time window (the picture changes)" \
  'differ "$SHOTS/syscall-before-zoom.png" "$SHOTS/syscall-zoomed.png" 2000'

xdotool windowfocus --sync "$win" 2>/dev/null
stop_ttv
check "ttv quits cleanly" '! grep -q -E "CRITICAL|WARNING|Sanitizer|runtime error" "$WORK/ttv.log"'
gui_test_finish

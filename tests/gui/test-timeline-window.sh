#!/bin/sh
# test-timeline-window.sh: the control flow view in the real ttv window
# under Xvfb (TAP): opens the sample trace, shows the view through the
# window's show-viewer action (D-Bus), waits for the state history, then
# zooms with Ctrl+wheel, pans with a drag and selects with a right-drag,
# collapses and expands the threads under their process from the keyboard,
# opens Preferences with the time line colours, with a screenshot after
# each step (kept in $TTV_GUI_SHOTS when set).
# Run by meson under dbus-run-session + xvfb-run.
set -u
# shellcheck source=tests/gui/gui-test-lib.sh
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
SAMPLE="$2"
gui_test_init timeline-test

# Pixels of colour $2 in the image $1.
color_pixels () {
  convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" -format '%[fx:mean*w*h]' info: 2>/dev/null | cut -d. -f1
}

# The control flow rows are drawn in the image $1: the blocked colour
# (#cab2d6: most of a process's life) and CPU idle (#e3d7bf: the idle tasks) show.
user_drawn () {
  [ "$(color_pixels "$1" '#cab2d6')" -gt 2000 ] 2>/dev/null && [ "$(color_pixels "$1" '#e3d7bf')" -gt 200 ] 2>/dev/null
}

echo "1..10"
cp -r "$SAMPLE" "$WORK/trace"
# A user's kept layout of one pane, where the control flow fills the middle
# of the window (the default layout's panes are tested in test-layout-window.sh).
one_pane_layout
start_ttv "$WORK/trace"
win=$(wait_window "^trace.* ttv$" "$WINDOW_WAIT")
check_window "the window opens"
xdotool windowsize --sync "$win" 1200 760 2>/dev/null
xdotool windowmove --sync "$win" 0 0 2>/dev/null
obj=$(gdbus introspect --session --dest org.ttv.Viewer --object-path /org/ttv/Viewer/window --only-properties 2>/dev/null \
        | sed -n 's/^ *node \([0-9]*\).*/\1/p' | head -n 1)
check "the show-viewer action shows the control flow" \
  'gdbus call --session --dest org.ttv.Viewer --object-path "/org/ttv/Viewer/window/${obj:-1}" \
     --method org.gtk.Actions.Activate show-viewer "[<'"'controlflow'"'>]" "{}" >/dev/null 2>&1'
check "the control flow draws the processes' states" 'shoot_until "$SHOTS/cf-open.png" 150 user_drawn'

# The drawing area: the middle of the window, right of the label column.
eval "$(xdotool getwindowgeometry --shell "$win")"
cx=$((X + WIDTH / 2 + 100)); cy=$((Y + HEIGHT / 2 + 60))
xdotool mousemove --sync "$cx" "$cy"
xdotool keydown ctrl click 4 click 4 click 4 click 4 click 4 click 4 keyup ctrl
sleep 1
import -window root "$SHOTS/cf-zoom.png"
check "Ctrl+wheel zooms in (the picture changes)" 'differ "$SHOTS/cf-open.png" "$SHOTS/cf-zoom.png" 2000'

xdotool mousemove --sync "$cx" "$cy" mousedown 1 mousemove --sync $((cx - 50)) "$cy" \
  mousemove --sync $((cx - 150)) "$cy" mousemove --sync $((cx - 250)) "$cy" mouseup 1
sleep 1
import -window root "$SHOTS/cf-pan.png"
check "dragging pans (the picture changes)" 'differ "$SHOTS/cf-zoom.png" "$SHOTS/cf-pan.png" 2000'

xdotool mousemove --sync $((cx - 100)) "$cy" mousedown 3 mousemove --sync $((cx)) "$cy" \
  mousemove --sync $((cx + 150)) "$cy" mouseup 3
sleep 1
import -window root "$SHOTS/cf-select.png"
check "a right-drag selects an interval (shaded)" 'differ "$SHOTS/cf-pan.png" "$SHOTS/cf-select.png" 500'

# Threads under their process: a click in the label column gives the view
# the keyboard; / collapses every process, * expands them all again.
lx=$((X + 60)); ly=$((Y + HEIGHT / 2 + 60))
xdotool mousemove --sync "$lx" "$ly" click 1
sleep 1
import -window root "$SHOTS/cf-expanded.png"
xdotool key --clearmodifiers slash
sleep 1
import -window root "$SHOTS/cf-collapsed.png"
check "/ collapses the threads under their process (rows and scroll bar change)" \
  'differ "$SHOTS/cf-expanded.png" "$SHOTS/cf-collapsed.png" 100'
xdotool key --clearmodifiers asterisk
sleep 1
import -window root "$SHOTS/cf-expanded-again.png"
check "* expands them again (the same picture as before)" \
  '! differ "$SHOTS/cf-expanded.png" "$SHOTS/cf-expanded-again.png" 50'

# The palette is edited in Preferences.
gdbus call --session --dest org.ttv.Viewer --object-path "/org/ttv/Viewer/window/${obj:-1}" \
  --method org.gtk.Actions.Activate preferences "[]" "{}" >/dev/null 2>&1
prefs=$(wait_window "^Preferences$" 600)
check "Preferences opens with the time line colours" '[ -n "$prefs" ]'
import -window root "$SHOTS/preferences.png"
key_in_window "$prefs" Escape
sleep 0.5

xdotool windowfocus --sync "$win" 2>/dev/null
xdotool key --clearmodifiers ctrl+q
i=0
while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "ttv quits cleanly" '! kill -0 "$pid" 2>/dev/null && ! grep -q -E "CRITICAL|WARNING|Sanitizer|runtime error" "$WORK/ttv.log"'
[ -s "$WORK/ttv.log" ] && sed 's/^/# /' "$WORK/ttv.log"
pid=""
exit $failed

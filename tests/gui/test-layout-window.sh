#!/bin/sh
# test-layout-window.sh: the panes of a tab's views in the real ttv window
# under Xvfb (TAP, issue 16): on first open the histogram strip, the control
# flow and the event list with the event details beside it are all drawn;
# a click on an event fills the details pane, whose Ctrl+C copies it; the
# View shortcuts close, split and move views; the layout is kept (GSettings
# keyfile) and comes back at the next start; Reset Layout goes back to the
# default.  Screenshots after each step (kept in $TTV_GUI_SHOTS when set).
# Run by meson under dbus-run-session + xvfb-run.
set -u
# shellcheck source=tests/gui/gui-test-lib.sh
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
SAMPLE="$2"
CLIPBOARD="$3"
gui_test_init layout-window
# A keyfile kept across the two starts, as a user's settings are.
export GSETTINGS_BACKEND=keyfile
KEYFILE="$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"

# Pixels of colour $2 in the image $1 (in its area $3, a WxH+X+Y geometry;
# $4: the colour distance allowed, in percent, for antialiased shapes).
color_pixels () {
  convert "$1" ${3:+-crop "$3"} -fuzz "${4:-0}%" -fill black +opaque "$2" -fill white -opaque "$2" -format '%[fx:mean*w*h]' info: \
    2>/dev/null | cut -d. -f1
}
# The control flow's rows are drawn: CPU idle (#e3d7bf) of the idle tasks.
cf_drawn () { [ "$(color_pixels "$1" '#e3d7bf')" -gt 300 ] 2>/dev/null; }
# The kept layout, as the keyfile has it (empty: the default).
kept_layout () { sed -n "s/^view-layout='\(.*\)'$/\1/p" "$KEYFILE" 2>/dev/null; }
win_action () {
  gdbus call --session --dest org.ttv.Viewer --object-path "/org/ttv/Viewer/window/${obj:-1}" \
    --method org.gtk.Actions.Activate "$1" "[]" "{}" >/dev/null 2>&1
}
open_window () {
  start_ttv "$WORK/trace"
  win=$(wait_window "^trace.* ttv$" "$WINDOW_WAIT")
  # (The first start checks it by name below; a later one only stops
  # here when there is no window.)
  [ -n "$win" ] || check_window "ttv starts again with its window"
  xdotool windowsize --sync "$win" 1280 800 2>/dev/null
  xdotool windowmove --sync "$win" 0 0 2>/dev/null
  obj=$(gdbus introspect --session --dest org.ttv.Viewer --object-path /org/ttv/Viewer/window --only-properties \
          2>/dev/null | sed -n 's/^ *node \([0-9]*\).*/\1/p' | head -n 1)
  eval "$(xdotool getwindowgeometry --shell "$win")"
}

echo "1..15"
cp -r "$SAMPLE" "$WORK/trace"
open_window
check_window "the window opens"
check "first open: the control flow is drawn above the event list" 'shoot_until "$SHOTS/layout-default.png" 150 cf_drawn'

# The event list is the bottom left pane: a click on a row makes it current,
# and the details pane beside it shows that event.
i=0
while [ "$i" -lt 40 ] && ! grep -q "^current: " "$TTV_TEST_MODULE_LOG" 2>/dev/null; do
  xdotool mousemove --sync $((X + 150)) $((Y + HEIGHT - 45)) click 1
  sleep 0.5; i=$((i + 1))
done
check "a click in the event list sets the current event" 'grep -q "^current: " "$TTV_TEST_MODULE_LOG"'
sleep 1
import -window root "$SHOTS/layout-clicked.png"
# The details pane: right of the event list, left of the bookmarks panel;
# Home selects its first row, the event, which Ctrl+C copies with its rows.
xdotool mousemove --sync $((X + WIDTH - 420)) $((Y + HEIGHT - 100)) click 1
sleep 0.3
xdotool key --clearmodifiers Home ctrl+c
sleep 0.5
copied=$(timeout 10 "$CLIPBOARD" 2>/dev/null)
printf '%s\n' "$copied" | head -n 12 | sed 's/^/# copied: /'
check "Ctrl+C in the details pane copies the current event with its fields" \
  'printf "%s\n" "$copied" | grep -q -E "^(  )*(Fields|core\.[a-z_]+ = \+[0-9.]+)$"'

# Close the focused view (the details) with Ctrl+Shift+W: kept at once.
xdotool key --clearmodifiers ctrl+shift+w
check "Ctrl+Shift+W closes the view; the layout is kept without it" \
  'wait_for "kept_layout | grep -q controlflow && ! kept_layout | grep -q details" 50'
sleep 0.5
import -window root "$SHOTS/layout-closed.png"
check "the event list takes the room of the closed view" 'differ "$SHOTS/layout-clicked.png" "$SHOTS/layout-closed.png" 2000'

# The resources shown in the event list's pane, then split off to its right.
xdotool mousemove --sync $((X + 150)) $((Y + HEIGHT - 45)) click 1
sleep 0.3
gdbus call --session --dest org.ttv.Viewer --object-path "/org/ttv/Viewer/window/${obj:-1}" \
  --method org.gtk.Actions.Activate show-viewer "[<'resources'>]" "{}" >/dev/null 2>&1
sleep 0.5
xdotool key --clearmodifiers ctrl+shift+e
check "Ctrl+Shift+E puts the view in a new pane on the right" \
  'wait_for "kept_layout | grep -q \"H(0.500,\[events[^]]*\],\[resources\])\"" 50'
before=$(kept_layout)
sleep 1
import -window root "$SHOTS/layout-split.png"
stop_ttv

# The next start shows the layout the user left.
open_window
# The same panes: once every view is drawn (the event list fills last),
# only the current time and the event list's selected row differ.
like_split () { cf_drawn "$1" && ! differ "$SHOTS/layout-split.png" "$1" 60000; }
shoot_until "$SHOTS/layout-restarted.png" 150 like_split
check "the next start keeps the layout" '[ "$(kept_layout)" = "$before" ] && ! differ "$SHOTS/layout-split.png" "$SHOTS/layout-restarted.png" 60000 && differ "$SHOTS/layout-default.png" "$SHOTS/layout-restarted.png" 100000'
# A selection (a right-drag across the control flow's rows), Escape, then
# Ctrl+D: the bookmark is at the current event, not the stale interval;
# it is drawn in the control flow; Home then F2 come back to it.
cy=$((Y + 548))
xdotool mousemove --sync $((X + 600)) "$cy" mousedown 3 mousemove --sync $((X + 700)) "$cy" \
  mousemove --sync $((X + 800)) "$cy" mouseup 3
sleep 0.7
import -window root "$SHOTS/layout-selected.png"
check "a right-drag in the control flow selects an interval" \
  'differ "$SHOTS/layout-restarted.png" "$SHOTS/layout-selected.png" 500'
xdotool key --clearmodifiers Escape
sleep 0.7
import -window root "$SHOTS/layout-unselected.png"
# (The band over the rows, the time bar and the histogram goes.)
check "Escape clears the selection" 'differ "$SHOTS/layout-selected.png" "$SHOTS/layout-unselected.png" 5000'
i=0
while [ "$i" -lt 40 ] && ! grep -q "^current: " "$TTV_TEST_MODULE_LOG" 2>/dev/null; do
  xdotool mousemove --sync $((X + 150)) $((Y + HEIGHT - 45)) click 1
  sleep 0.5; i=$((i + 1))
done
marked=$(grep "^current: " "$TTV_TEST_MODULE_LOG" | tail -n 1)
xdotool key --clearmodifiers ctrl+d
dlg=$(wait_window "Add Bookmark" 1200)
xdotool windowfocus --sync "$dlg" 2>/dev/null
xdotool type --delay 20 "after-escape"
xdotool key Return
check "then Ctrl+D bookmarks the current event (a point in time)" \
  'wait_for "grep -q \"name=.after-escape.[^>]* time=\" \"$WORK/trace/info/bookmarks.xml\"" 300'
sleep 0.7
import -window root "$SHOTS/layout-bookmark.png"
# (Its flag on the control flow's ruler: its line is under the current time's.)
check "the bookmark is drawn in the control flow" \
  '[ "$(color_pixels "$SHOTS/layout-bookmark.png" "#e69900" 700x30+400+480 12)" -gt 6 ] 2>/dev/null'
xdotool mousemove --sync $((X + 150)) $((Y + HEIGHT - 45)) click 1 key --clearmodifiers Home
sleep 0.5
xdotool key --clearmodifiers F2
check "Home, then F2 comes back to the bookmark" \
  'wait_for "[ \"\$(grep \"^current: \" \"$TTV_TEST_MODULE_LOG\" | tail -n 1)\" = \"$marked\" ]" 50'
win_action reset-layout
check "View > Reset Layout goes back to the default" 'wait_for "[ -z \"\$(kept_layout)\" ]" 50'
stop_ttv
check "ttv quits cleanly" '! grep -q -E "CRITICAL|WARNING|Sanitizer|runtime error" "$WORK/ttv.log"'
gui_test_finish

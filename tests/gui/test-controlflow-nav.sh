#!/bin/sh
# test-controlflow-nav.sh: navigation in the control flow of the real ttv
# window under Xvfb (TAP, issue 16), the control flow above the event list
# and the event details (a user's layout giving it room): a click on a row's
# name selects its thread in the tab; Right and Left take the current time
# to that thread's next and previous state change (checked against the
# events ttv-report prints there); the event details follow; Down selects
# the next row's thread, the event list's bold rows with it.  The row menu
# (right click, Shift+F10): its check item shows the selected thread's
# wakeup arrows or not; Follow This Thread keeps the row in sight as the
# time moves; Filter on This Process sets the filter the filter bar shows;
# Hide Row, Show Hidden Rows; Pin Row to the Top.  The resources' CPU menu:
# Follow This CPU makes the task it runs the tab's thread as the time
# moves; Filter on This CPU.  Screenshots kept in $TTV_GUI_SHOTS when set.
# Arguments: TTV TTV-REPORT SAMPLE CLIPBOARD.  Run by meson under
# dbus-run-session + xvfb-run.
set -u
# shellcheck source=tests/gui/gui-test-lib.sh
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
REPORT="$2"
SAMPLE="$3"
CLIPBOARD="$4"
gui_test_init controlflow-nav

# Pixels of colour $2 in the image $1.
color_pixels () {
  convert "$1" -fill black +opaque "$2" -fill white -opaque "$2" -format '%[fx:mean*w*h]' info: 2>/dev/null | cut -d. -f1
}
# The control flow's rows are drawn: CPU idle (#e3d7bf) of the idle tasks.
cf_drawn () { [ "$(color_pixels "$1" '#e3d7bf')" -gt 300 ] 2>/dev/null; }
last () { grep "^$1: " "$TTV_TEST_MODULE_LOG" 2>/dev/null | tail -n 1 | cut -d' ' -f2-; }
# The number of "$1: " lines the test module logged.
count () { grep -c "^$1: " "$TTV_TEST_MODULE_LOG" 2>/dev/null; }
# Waits for a new current time after $1 were logged, and prints it.
next_current () {
  wait_for "[ \"\$(count current)\" -gt $1 ]" 100 && last current
}
keys () { xdotool key --clearmodifiers "$@"; }
# Whether thread $2 changes state at time $1: an event there runs it or
# names it (a switch to or from it, its wakeup, its fork).
changes_at () {
  "$REPORT" --state --start "$1" --end "$1" "$SAMPLE" |
    awk -v t="$1" -v tid="$2" '$1 == t && ($4 == tid || $0 ~ ("_pid = " tid "[,]") || $0 ~ ("_pid = " tid "$") \
                               || $0 ~ ("[ (]pid = " tid "[,]")) { found = 1 } END { exit !found }'
}

# Whether a menu of ttv is shown.
menu_shown () {
  for _w in $(xdotool search --onlyvisible --classname ttv 2>/dev/null); do
    xprop -id "$_w" _NET_WM_WINDOW_TYPE 2>/dev/null | grep -q POPUP_MENU && return 0
  done
  return 1
}
# Opens the menu of the row at y $1 (a right click on its name) or, with
# an empty $1, of the keyboard row (Shift+F10), then activates its item
# with the keys $2... (Down N times from the top, Up from the bottom).
row_menu () {
  if [ -n "$1" ]; then xdotool mousemove $((X + 60)) "$1" click 3; else keys shift+F10; fi
  shift
  wait_for menu_shown 50 || return 1
  keys "$@"
  wait_for "! menu_shown" 50
}
# Starts ttv on the sample and places its window (1280x800 at 0,0); check
# $1: the window is there.
open_window () {
  start_ttv "$SAMPLE"
  win=$(wait_window "^sample.* ttv$" "$WINDOW_WAIT")
  check_window "$1"
  xdotool windowsize --sync "$win" 1280 800 2>/dev/null
  xdotool windowmove --sync "$win" 0 0 2>/dev/null
  eval "$(xdotool getwindowgeometry --shell "$win")"
}
echo "1..25"
mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings"
printf "[org/ttv/Viewer]\nview-layout='V(0.550,[controlflow],H(0.600,[events,test],[details]))'\n" \
  >"$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"
export GSETTINGS_BACKEND=keyfile
open_window "the window opens"
shoot_until "$SHOTS/nav-open.png" 150 cf_drawn
wait_for 'grep -q "^history-changed" "$TTV_TEST_MODULE_LOG"' 300

# A click on a row's name, below the idle tasks: its thread is selected.
ly=$((Y + 420))
i=0
while [ "$i" -lt 20 ] && [ -z "$(last thread)" ]; do
  xdotool mousemove $((X + 60)) "$ly" click 1
  sleep 0.3; i=$((i + 1)); ly=$((ly + 18))
done
tid=$(last thread)
check "a click on a row's name selects its thread ($tid)" '[ -n "$tid" ] && [ "$tid" -gt 0 ]'
import -window root "$SHOTS/nav-selected.png"

n0=$(count current)
keys Right
t1=$(next_current "$n0")
check "Right: the current time goes to the thread's next state change ($t1)" \
  '[ -n "$t1" ] && changes_at "$t1" "$tid"'
n1=$(count current)
keys Right
t2=$(next_current "$n1")
check "Right again: its next one, later ($t2)" \
  '[ -n "$t2" ] && [ "$(echo "$t2 > $t1" | bc)" = 1 ] && changes_at "$t2" "$tid"'
import -window root "$SHOTS/nav-right.png"
check "the current time line moved in the control flow" 'differ "$SHOTS/nav-selected.png" "$SHOTS/nav-right.png" 20'
n2=$(count current)
keys Left
t3=$(next_current "$n2")
check "Left: back to the previous state change ($t1)" '[ -n "$t3" ] && [ "$t3" = "$t1" ]'

# The selected thread's wakeup (and fork) arrows, drawn over the whole
# trace (where every thread's would be too many): the row menu's check item
# hides them (kept in the settings) and shows them again.

# (The plot of the first rows, the pointer away: no tooltip over it.)
plot="590x160+$((X + 405))+$((Y + 362))"
plot_differ () {
  d=$(compare -metric AE "$1[$plot]" "$2[$plot]" null: 2>&1 | cut -d' ' -f1)
  [ "${d%.*}" -ge "$3" ] 2>/dev/null
}
xdotool mousemove $((X + 600)) $((Y + 40))
import -window root "$SHOTS/nav-arrows-on.png"
row_menu $((ly - 18)) Up Return
xdotool mousemove $((X + 600)) $((Y + 40))
arrows_gone () { plot_differ "$SHOTS/nav-arrows-on.png" "$1" 300; }
check "Wakeup Arrows of the Selected Thread, unchecked, hides its arrows" \
  'shoot_until "$SHOTS/nav-arrows-off.png" 25 arrows_gone \
   && grep -q "^timeline-thread-arrows=false" "$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"'
row_menu $((ly - 18)) Up Return
xdotool mousemove $((X + 600)) $((Y + 40))
arrows_back () { ! plot_differ "$SHOTS/nav-arrows-on.png" "$1" 20; }
check "checked again, they come back" 'shoot_until "$SHOTS/nav-arrows-again.png" 25 arrows_back'

# The event details pane (bottom right) shows the event at that time:
# Home selects its first row, which Ctrl+C copies.
xdotool mousemove --sync $((X + WIDTH - 420)) $((Y + HEIGHT - 100)) click 1
sleep 0.3
keys Home ctrl+c
sleep 0.5
copied=$(timeout 10 "$CLIPBOARD" 2>/dev/null)
printf '%s\n' "$copied" | head -n 4 | sed 's/^/# copied: /'
# (Shown relative to the traceset's start.)
start=$(sed -n 's/^span: \([^ ]*\) .*/\1/p' "$TTV_TEST_MODULE_LOG" | head -n 1)
rel=$(echo "${t1:-0} - ${start:-0}" | bc)
case "$rel" in .*) rel="0$rel" ;; esac
check "the event details show an event at that time (+$rel)" \
  '[ -n "$t1" ] && printf "%s\n" "$copied" | grep -q -F "+$rel"'

# Down: the next row's thread.
xdotool mousemove $((X + 60)) "$ly" click 1
sleep 0.3
nt=$(count thread)
keys Down
check "Down selects the next row's thread" \
  'wait_for "[ \"\$(count thread)\" -gt $nt ]" 50 && [ "$(last thread)" != "$tid" ]'
# The event list shows the selected thread's events in bold: the rows of
# the first thread (around the current time, which has not moved) change.
list="600x190+$((X + 2))+$((Y + 595))"
list_changed () {
  d=$(compare -metric AE "$SHOTS/nav-arrows-again.png[$list]" "$1[$list]" null: 2>&1 | cut -d' ' -f1)
  [ "${d%.*}" -ge 200 ] 2>/dev/null
}
xdotool mousemove $((X + 600)) $((Y + 40))
check "the event list's bold rows follow the selected thread" 'shoot_until "$SHOTS/nav-down.png" 25 list_changed'

# --- The row menu ----------------------------------------------------------------
# The name column of the first rows.
labels="300x150+$((X + 10))+$((Y + 362))"

# Follow: the row's thread selected (its name tinted), and kept in sight as
# the time moves.
nt=$(count thread)
row_menu "$ly" Down Return
wait_for "[ \"\$(count thread)\" -gt $nt ]" 30
ftid=$(last thread)
sleep 0.5
import -window root "$SHOTS/nav-follow.png"
# The tint's colour, where the row is, counted over the name column.
tint=$(convert "$SHOTS/nav-follow.png" -format "%[pixel:p{$((X + 8)),$ly}]" info: 2>/dev/null)
tint_pixels () {
  convert "$1" -crop "$labels" +repage -fill black +opaque "$tint" -fill white -opaque "$tint" \
    -format '%[fx:mean*w*h]' info: 2>/dev/null | cut -d. -f1
}
few_tinted () { [ "$(tint_pixels "$1")" -lt 100 ] 2>/dev/null; }
many_tinted () { [ "$(tint_pixels "$1")" -gt 1000 ] 2>/dev/null; }
check "Follow This Thread selects the row's thread ($ftid, its name tinted)" \
  '[ -n "$ftid" ] && [ "$ftid" -gt 0 ] && many_tinted "$SHOTS/nav-follow.png"'
xdotool mousemove --sync $((X + 600)) "$ly" click 5 click 5 click 5 click 5 click 5 click 5 click 5 click 5
shoot_until "$SHOTS/nav-scrolled.png" 25 few_tinted
xdotool mousemove $((X + 60)) "$ly"
keys Right
check "scrolled away, the followed row comes back in sight when the time moves" \
  'few_tinted "$SHOTS/nav-scrolled.png" && shoot_until "$SHOTS/nav-followed.png" 25 many_tinted'

# Filter on This Process: the tab's filter, in the filter language.
keys Home
sleep 0.3
nf=$(count filter)
row_menu "$ly" Down Down Return
check "Filter on This Process sets the tab's filter ($(last filter))" \
  'wait_for "[ \"\$(count filter)\" -gt $nf ]" 50 && last filter | grep -q -E "^state\.pid = [0-9]+$"'
import -window root "$SHOTS/nav-filtered.png"
keys ctrl+l ctrl+a ctrl+c
sleep 0.3
shown=$(timeout 10 "$CLIPBOARD" 2>/dev/null)
check "the filter bar shows it ($shown)" '[ -n "$shown" ] && [ "$shown" = "$(last filter)" ]'
keys BackSpace Return
wait_for '[ -z "$(last filter)" ]' 50

# Hide Row: the next row takes its place; Show Hidden Rows brings it back.
xdotool mousemove $((X + 60)) "$ly" click 1
wait_for "[ \"\$(last thread)\" != $ftid ]" 30
hid=$(last thread)
row_menu "" Down Down Down Return
nt=$(count thread)
xdotool mousemove $((X + 60)) "$ly" click 1
wait_for "[ \"\$(count thread)\" -gt $nt ]" 30
check "Hide Row (on Shift+F10): another thread takes the row's place" '[ "$(last thread)" != "$hid" ]'
row_menu "$ly" Up Up Return
xdotool mousemove $((X + 60)) "$ly" click 1
check "Show Hidden Rows brings it back" 'wait_for "[ \"\$(last thread)\" = $hid ]" 30'

# Pin Row: the row goes to the top (Home reaches it).
pinned_y=$((ly + 54))
xdotool mousemove $((X + 60)) "$pinned_y" click 1
wait_for "[ \"\$(last thread)\" != $hid ]" 30
pinned=$(last thread)
row_menu "$pinned_y" Down Down Down Down Return
keys End
wait_for "[ \"\$(last thread)\" != $pinned ]" 30
keys Home
check "Pin Row to the Top: Home reaches it ($pinned)" 'wait_for "[ \"\$(last thread)\" = $pinned ]" 30'
import -window root "$SHOTS/nav-pinned.png"

# --- Resources: follow a CPU, filter on it ------------------------------------------
# The task CPU $2 runs at time $1 (after the events there), as ttv-report
# tells; empty when it idles.
running_on () {
  "$REPORT" --state --end "$1" "$SAMPLE" | awk -v cpu="cpu$2" '$2 == cpu { pid = $4 } END { if (pid != "-" && pid != 0) print pid }'
}
obj=$(gdbus introspect --session --dest org.ttv.Viewer --object-path /org/ttv/Viewer/window --only-properties 2>/dev/null \
        | sed -n 's/^ *node \([0-9]*\).*/\1/p' | head -n 1)
gdbus call --session --dest org.ttv.Viewer --object-path "/org/ttv/Viewer/window/${obj:-1}" \
  --method org.gtk.Actions.Activate show-viewer "[<'resources'>]" "{}" >/dev/null 2>&1
# (Shown in the control flow's pane: most of it changes.)
resources_shown () { differ "$SHOTS/nav-pinned.png" "$1" 30000; }
shoot_until "$SHOTS/nav-resources.png" 50 resources_shown
# A click on a row's name gives the view the keyboard; Home: CPU 0.
xdotool mousemove $((X + 60)) $((Y + 420)) click 1
keys Home
nt=$(count thread)
row_menu "" Down Return
# Until CPU 0 runs a task at the current time: Right, to its next change.
i=0
want=$(running_on "$(last current)" 0)
while [ -z "$want" ] && [ "$i" -lt 8 ]; do
  nc=$(count current)
  keys Right
  next_current "$nc" >/dev/null
  want=$(running_on "$(last current)" 0)
  i=$((i + 1))
done
check "Follow This CPU: the task it runs at the current time is the tab's thread ($want)" \
  '[ -n "$want" ] && wait_for "[ \"\$(last thread)\" = $want ]" 30'
# The time moves on: the thread follows the CPU.
moved=""
i=0
while [ "$i" -lt 12 ]; do
  nc=$(count current)
  keys Right
  next_current "$nc" >/dev/null
  w=$(running_on "$(last current)" 0)
  if [ -n "$w" ] && [ "$w" != "$want" ]; then moved=$w; break; fi
  i=$((i + 1))
done
check "as the time moves, the thread follows what CPU 0 runs ($moved)" \
  '[ -n "$moved" ] && wait_for "[ \"\$(last thread)\" = $moved ]" 30'
nf=$(count filter)
row_menu "" Down Down Return
check "Filter on This CPU sets the tab's filter ($(last filter))" \
  'wait_for "[ \"\$(count filter)\" -gt $nf ]" 50 && [ "$(last filter)" = "cpu = 0" ]'
import -window root "$SHOTS/nav-cpu-filtered.png"
stop_ttv
check "ttv quits cleanly" '! grep -q -E "CRITICAL|WARNING|Sanitizer|runtime error" "$WORK/ttv.log"'

# --- The pinned row is kept for this trace: pinned again after a restart ------------
check "the pinned row is kept in the settings" \
  'grep "^controlflow-rows=" "$XDG_CONFIG_HOME/glib-2.0/settings/keyfile" | grep -q "\[uint64 $pinned\]\|\[$pinned\]"'
: >"$TTV_TEST_MODULE_LOG"
open_window "ttv opens the trace again"
wait_for 'grep -q "^history-changed" "$TTV_TEST_MODULE_LOG"' 300
# (The layout kept the resources in front: the control flow again.)
obj=$(gdbus introspect --session --dest org.ttv.Viewer --object-path /org/ttv/Viewer/window --only-properties 2>/dev/null \
        | sed -n 's/^ *node \([0-9]*\).*/\1/p' | head -n 1)
gdbus call --session --dest org.ttv.Viewer --object-path "/org/ttv/Viewer/window/${obj:-1}" \
  --method org.gtk.Actions.Activate show-viewer "[<'controlflow'>]" "{}" >/dev/null 2>&1
shoot_until "$SHOTS/nav-reopened.png" 150 cf_drawn
i=0
while [ "$i" -lt 20 ] && [ -z "$(last thread)" ]; do
  xdotool mousemove $((X + 60)) $((Y + 420 + 18 * i)) click 1
  sleep 0.3; i=$((i + 1))
done
keys End
sleep 0.3
keys Home
check "after the restart, Home reaches the row pinned before ($pinned)" \
  'wait_for "[ \"\$(last thread)\" = $pinned ]" 30'
import -window root "$SHOTS/nav-pinned-kept.png"
stop_ttv
gui_test_finish

#!/bin/sh
# test-keyboard.sh: the real ttv window driven by the keyboard alone under
# Xvfb (TAP): when a trace opens the keys move in the event list (not in the
# first time entry), Ctrl+L goes to the filter bar and what is typed there
# filters, Ctrl+F to Find and Enter finds.  Expected events from ttv-report.
# Arguments: TTV TTV-REPORT SAMPLE.  Run by meson under dbus-run-session +
# xvfb-run.
set -u
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
REPORT="$2"
SAMPLE="$3"
gui_test_init keyboard

# The time of the event at index $1 (0: the first) of the sample; with a
# filter expression $2, among the events it keeps.
event_time () {
  "$REPORT" ${2:+--filter "$2"} "$SAMPLE" | sed -n "$(($1 + 1)){s/ .*//p;q}"
}
current () {
  grep "^current: " "$TTV_TEST_MODULE_LOG" | tail -n 1 | cut -d' ' -f2
}
keys () {
  xdotool windowfocus --sync "$win" 2>/dev/null
  xdotool key --clearmodifiers "$@"
}

echo "1..5"
start_ttv "$SAMPLE"
win=$(wait_window "^sample.* ttv$" "$WINDOW_WAIT")
check_window "the window opens on the sample trace"
wait_for 'grep -q "^span: " "$TTV_TEST_MODULE_LOG" 2>/dev/null' 300
# Let the first rows arrive.
sleep 2

# Down selects the first row, Down again the second event.
second=$(event_time 1)
keys Down
sleep 0.3
keys Down
check "the keyboard is in the event list when the trace opens: Down, Down select the second event ($second)" \
  'wait_for "[ \"\$(current)\" = $second ]" 100'

# Ctrl+L, a filter, Enter: the tab filters.
keys ctrl+l
xdotool type --delay 20 "syscall_exit"
keys Return
check "Ctrl+L goes to the filter bar: what is typed there filters" \
  'wait_for "grep -q \"^filter-changed\" \"$TTV_TEST_MODULE_LOG\"" 100'

# Ctrl+F, a process name, Enter: after the filtered event now selected (the
# first at or after the current time), the next one that shows the name.
# The name: the longest one-word process name among the next filtered events
# (a long name is no part of another column's text).
filtered=$("$REPORT" --state --filter 'event.name = "*syscall_exit*"' "$SAMPLE")
name=$(printf '%s\n' "$filtered" |
  awk -v from="$second" '$1 >= from && $7 ~ /syscall_exit/ && ++n <= 200 && length($5) > length(best) { best = $5 }
                         END { print best }')
keys ctrl+f
sleep 0.5
xdotool type --delay 20 "$name"
keys Return
want=$(printf '%s\n' "$filtered" |
  awk -v from="$second" -v name="$name" 'sel && index(substr($0, length($1) + 2), name) { if ($5 == name) print $1; exit }
                                        $1 >= from { sel = 1 }')
check "Ctrl+F, a process name ($name) and Enter select the next event of that process ($want)" \
  '[ -n "$want" ] && wait_for "[ \"\$(current)\" = $want ]" 100'
check "the window is still alive" 'kill -0 $pid 2>/dev/null'
stop_ttv
gui_test_finish

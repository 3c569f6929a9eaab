#!/bin/sh
# test-gui.sh: drives the real ttv window under Xvfb with xdotool (TAP):
# opens the sample trace (a copy) and a .tar.gz of it, screenshots, moves in
# the event list, adds bookmarks with Ctrl+D, reopens and finds them in the
# bookmarks panel, opens a hostile archive and a corrupt trace and reads the
# error dialogs' messages.  Run by meson under dbus-run-session + xvfb-run.
set -u
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
SAMPLE="$2"
CLIPBOARD="$3"     # prints the X clipboard (ttv-test-clipboard)
gui_test_init gui-test

# Adds a bookmark named $1 through Ctrl+D, the dialog, and Enter.
add_bookmark () {
  xdotool windowfocus --sync "$win" 2>/dev/null
  xdotool key --clearmodifiers ctrl+d
  dlg=$(wait_window "Add Bookmark" 1200) || return 1
  xdotool windowfocus --sync "$dlg" 2>/dev/null
  xdotool type --delay 20 "$1"
  xdotool key Return
  return 0
}

# The event list of the screenshot $1 has drawn rows: the area under the
# column headers is no longer uniform.
list_drawn () { has_contrast "$1" 600x300+10+260; }

# Screenshots into $1 until the event list has drawn rows (up to 20 s).
shoot () { shoot_until "$1" 100 list_drawn; }

# The message of the error dialog $1 about the path $2: its labels are
# selectable, so Tab selects one and Ctrl+C copies it, until the message
# (not the title) is copied.  Prints it; fails when it cannot be read.
dialog_message () {
  _try=0
  while [ "$_try" -lt 6 ]; do
    xdotool windowfocus --sync "$1" 2>/dev/null
    xdotool key Tab ctrl+c
    sleep 0.2
    _msg=$(timeout 10 "$CLIPBOARD" 2>/dev/null)
    case "$_msg" in "Cannot open “$2”"*) printf '%s\n' "$_msg"; return 0 ;; esac
    _try=$((_try + 1))
  done
  return 1
}

# Goes to the first bookmark of the window $1's bookmarks panel (the
# window's right side) the way a keyboard user does: a click in the panel's
# empty area under its rows gives it the focus, Home puts the cursor on the
# first row, Return activates it.  No pixel of a row is aimed at: where the
# rows are drawn depends on the fonts and on what else the window shows.
activate_first_bookmark () {
  eval "$(xdotool getwindowgeometry --shell "$1")"
  xdotool mousemove --window "$1" $((WIDTH - 120)) $((HEIGHT - 120)) click 1
  sleep 0.2
  xdotool key --clearmodifiers Home Return
}

# Activates the bookmarks panel's first row until the current time is $2
# (up to a minute: a loaded machine may fill the panel late).
bookmark_goes_to () {
  for _attempt in 1 2 3 4 5 6; do
    activate_first_bookmark "$1"
    wait_for "grep -q \"^current: $2\" \"$TTV_TEST_MODULE_LOG\"" 100 && return 0
  done
  echo "# the bookmarks panel did not go to $2; the module's log ends with:"
  tail -n 5 "$TTV_TEST_MODULE_LOG" | sed 's/^/#   /'
  return 1
}

echo "1..29"
cp -r "$SAMPLE" "$WORK/trace"
rm -f "$WORK/trace/info/bookmarks.xml"

# --- A trace directory -------------------------------------------------------
start_ttv "$WORK/trace"
win=$(wait_window "^trace.* ttv$" "$WINDOW_WAIT")
check_window "the window opens on the sample trace"
wait_for "grep -q traceset-changed \"$TTV_TEST_MODULE_LOG\" 2>/dev/null || [ -s \"$TTV_TEST_MODULE_LOG\" ]" 50
check "the screenshot shows the window with a drawn event list" 'shoot "$SHOTS/ttv-trace.png" && has_contrast "$SHOTS/ttv-trace.png"'

# Into the event list: a click on one of its first rows, then keys.
eval "$(xdotool getwindowgeometry --shell "$win")"
click_first_row "$win"
end_time=$(span_end)
before=$(grep -c "^current: " "$TTV_TEST_MODULE_LOG")
xdotool key --clearmodifiers Next Next
check "Page Down moves the selection (and the current time) forward" \
  'wait_for "[ \$(grep -c \"^current: \" \"$TTV_TEST_MODULE_LOG\") -gt $before ]" 300'
xdotool key --clearmodifiers End
check "End selects the last event of the trace ($end_time)" \
  'wait_for "grep -q \"^current: $end_time\" \"$TTV_TEST_MODULE_LOG\"" 300'
import -window root "$SHOTS/ttv-end.png"
last_current () { grep "^current: " "$TTV_TEST_MODULE_LOG" | tail -n 1 | cut -d' ' -f2; }
xdotool key --clearmodifiers Prior Home
check "Page Up / Home leave the last event" 'wait_for "[ \"\$(last_current)\" != $end_time ]" 300 && kill -0 $pid'
# The bookmark goes at the last event, End again: not at the time a fresh
# tab starts at (going there later would not change the current time: on
# the first event, Ctrl+D once came before a Page Down was handled).
xdotool key --clearmodifiers End
wait_for "[ \"\$(last_current)\" = $end_time ]" 300

add_bookmark "first-mark"
check "Ctrl+D, a name and Enter save info/bookmarks.xml" \
  'wait_for "grep -q first-mark \"$WORK/trace/info/bookmarks.xml\" 2>/dev/null" 300'
check "the bookmark is an LTT <location>" 'grep -q "<location" "$WORK/trace/info/bookmarks.xml"'
check "the module was told about it" 'wait_for "grep -q \"bookmarks:.*\[first-mark\]\" \"$TTV_TEST_MODULE_LOG\"" 300'
import -window root "$SHOTS/ttv-bookmark.png"
mark_time=$(sed -n 's/.*name="first-mark"[^>]* time="\([0-9.]*\)".*/\1/p' "$WORK/trace/info/bookmarks.xml")
check "the bookmark's time is in the file" '[ -n "$mark_time" ]'


# --- A hostile archive: an error dialog, the window stays -------------------
python3 - "$WORK/evil.tar.gz" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w:gz") as t:
    data = b"owned\n"
    info = tarfile.TarInfo("../evil")
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))
PY
"$TTV" "$WORK/evil.tar.gz" >>"$WORK/ttv.log" 2>&1   # goes to the running instance
# Waits for the error dialog about the path $1, names its checks after $2,
# screenshots it into $3, and reads its message into msg.
error_dialog () {
  err=$(wait_window "Cannot open trace" 1200)
  check "$2 shows an error dialog" '[ -n "$err" ]'
  import -window root "$SHOTS/$3"
  msg=$(dialog_message "$err" "$1")
  printf '%s\n' "$msg" | sed "s/^/# $2: /"
}

error_dialog "$WORK/evil.tar.gz" "a hostile archive" ttv-hostile.png
check "the dialog names the archive and the hostile member" \
  'echo "$msg" | grep -q "evil.tar.gz" && echo "$msg" | grep -q "“../evil”" && echo "$msg" | grep -q "refusing"'
check "nothing was written outside the cache" '[ ! -e "$WORK/evil" ] && [ ! -e "$WORK/cache/ttv/evil" ]'
# Escape: Return would go to the selected message label, not the button.
key_in_window "$err" Escape
check "the error dialog closes"  'wait_for "! xdotool search --onlyvisible --name \"Cannot open trace\" >/dev/null 2>&1" 100'
check "the main window is still alive after the error" \
  'kill -0 $pid 2>/dev/null && wait_for "xdotool search --name \"^trace.* ttv\$\" >/dev/null 2>&1" 300'

# --- A corrupt trace: the dialog says which file and where -------------------
cp -r "$SAMPLE" "$WORK/corrupt"
printf '\377\377' | dd of="$WORK/corrupt/cpu/1" bs=1 seek=65536 conv=notrunc 2>/dev/null
"$TTV" "$WORK/corrupt" >>"$WORK/ttv.log" 2>&1
error_dialog "$WORK/corrupt" "a corrupt trace" ttv-corrupt.png
check "the dialog names the file and the byte offset" \
  'echo "$msg" | grep -q "corrupt/cpu/1: byte offset 65536" && echo "$msg" | grep -q "block_start"'
key_in_window "$err" Escape
check "the window is still alive after it" 'kill -0 $pid 2>/dev/null'
stop_ttv
check "ttv quits with Ctrl+Q" '[ -z "$pid" ]'

# --- Reopen: the bookmark is listed ------------------------------------------
: >"$TTV_TEST_MODULE_LOG"
start_ttv "$WORK/trace"
win=$(wait_window "^trace.* ttv$" "$WINDOW_WAIT")
check_window "the trace reopens"
check "the saved bookmark is loaded into the tab's list" \
  'wait_for "grep -q \"bookmarks:.*\[first-mark\]\" \"$TTV_TEST_MODULE_LOG\"" 300'
shoot "$SHOTS/ttv-reopened.png"
# In the bookmarks panel: its row takes the tab to the bookmark's time.
check "the bookmarks panel lists it: its row goes to $mark_time" 'bookmark_goes_to "$win" "$mark_time"'
# Delete, with the keyboard in the panel: out of the file, Undo offered.
xdotool key --clearmodifiers Delete
check "Delete in the bookmarks panel takes it out of info/bookmarks.xml" \
  'wait_for "! grep -q first-mark \"$WORK/trace/info/bookmarks.xml\"" 300'
import -window root "$SHOTS/ttv-deleted.png"
stop_ttv

# --- A .tar.gz of the trace ---------------------------------------------------
rm -f "$WORK/trace/info/bookmarks.xml"
tar -C "$WORK" -czf "$WORK/trace.tar.gz" trace
tar -tvzf "$WORK/trace.tar.gz" >"$WORK/members-before"
mkdir "$WORK/before" && tar -C "$WORK/before" -xzf "$WORK/trace.tar.gz"
: >"$TTV_TEST_MODULE_LOG"
start_ttv "$WORK/trace.tar.gz"
win=$(wait_window "^trace.* ttv$" "$WINDOW_WAIT")
check_window "the window opens on trace.tar.gz"
check "the archive screenshot shows a drawn event list" 'shoot "$SHOTS/ttv-archive.png"'
add_bookmark "archived-mark"
check "a bookmark on an archive is written into the archive" \
  'wait_for "tar -xzOf \"$WORK/trace.tar.gz\" trace/info/bookmarks.xml 2>/dev/null | grep -q archived-mark" 300'
tar -tvzf "$WORK/trace.tar.gz" >"$WORK/members-after"
mkdir "$WORK/after" && tar -C "$WORK/after" -xzf "$WORK/trace.tar.gz"
check "every other member is unchanged: names, modes, owners, sizes, dates, order" \
  'grep -v "trace/info/bookmarks.xml\$" "$WORK/members-after" | diff "$WORK/members-before" -'
check "and contents" 'diff -r -x bookmarks.xml "$WORK/before" "$WORK/after"'
check "the archive gained only info/bookmarks.xml" \
  '[ "$(wc -l <"$WORK/members-after")" -eq $(($(wc -l <"$WORK/members-before") + 1)) ]'
stop_ttv

check "ttv logged no GLib critical or warning" \
  '! grep -E "(CRITICAL|WARNING) \*\*" "$WORK/ttv.log" | grep -v "dbus\|AT-SPI\|atk-bridge"'
gui_test_finish

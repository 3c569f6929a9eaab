#!/bin/sh
# test-ctf2-window.sh: the real ttv window on CTF 2 traces under Xvfb (TAP):
# a kernel trace as LTTng 2.15 writes it (ttv-gen --format ctf2), the same
# in a .tar.gz, a real LTTng UST trace in CTF 2 when the shared traces are
# there, and a CTF 2 trace whose metadata is wrong (the error dialog names
# the file and the byte offset).  Spans and last events from ttv-report.
# Arguments: TTV TTV-GEN TTV-REPORT CLIPBOARD SHARED-TRACES.  Run by meson
# under dbus-run-session + xvfb-run.
set -u
. "$(dirname "$0")/gui-test-lib.sh"

TTV="$1"
GEN="$2"
REPORT="$3"
CLIPBOARD="$4"     # prints the X clipboard (ttv-test-clipboard)
SHARED="$5"
gui_test_init ctf2-window

list_drawn () { has_contrast "$1" 600x300+10+260; }
shoot () { shoot_until "$1" 100 list_drawn; }
current () {
  grep "^current: " "$TTV_TEST_MODULE_LOG" | tail -n 1 | cut -d' ' -f2
}
# The times of the first and last events ttv-report reads from $1.
report_span () {
  "$REPORT" "$1" >"$WORK/report.txt" || return 1
  printf '%s %s\n' "$(sed -n '1{s/ .*//p;q}' "$WORK/report.txt")" "$(sed -n '${s/ .*//p}' "$WORK/report.txt")"
}

# Opens $1 in a fresh ttv, waits for the window named after $2, checks its
# span against what ttv-report reads from $5 ($3: what it is, in the
# checks' names), the event list drawn (screenshot $4), and End reaching
# the last event.
open_and_check () {
  : >"$TTV_TEST_MODULE_LOG"
  shot=$4
  want=$(report_span "$5")
  start_ttv "$1"
  win=$(wait_window "^$2.* ttv$" "$WINDOW_WAIT")
  check_window "the window opens on $3"
  wait_for 'grep -q "^span: " "$TTV_TEST_MODULE_LOG" 2>/dev/null' 300
  got=$(sed -n 's/^span: //p' "$TTV_TEST_MODULE_LOG" | head -n 1)
  check "its span is ttv-report's ($want)" '[ "$got" = "$want" ]'
  check "the screenshot of $3 shows a drawn event list" 'shoot "$SHOTS/$shot"'
  # A row, for the focus (the rows of a kernel trace's statedump are all
  # at the current time: the module logs no change), then End.
  xdotool mousemove --window "$win" 200 340 click 1
  sleep 0.5
  xdotool key --clearmodifiers End
  last=${want#* }
  check "End selects the last event of $3 ($last)" 'wait_for "[ \"\$(current)\" = $last ]" 300'
  stop_ttv
}

echo "1..17"
"$GEN" -f ctf2 -q --seed 4 --cpus 2 --processes 20 --events 20000 -o "$WORK/kernel2"
# Packetized metadata (magic 0x75d11d57, little-endian) of major version 2.
check "ttv-gen wrote a CTF 2 trace" \
  '[ "$(od -An -tx1 -N4 "$WORK/kernel2/metadata" | tr -d " ")" = 571dd175 ] && "$REPORT" --info "$WORK/kernel2" | grep -q "ctf_version.*2"'

# --- A CTF 2 directory, then a .tar.gz of it ----------------------------------
open_and_check "$WORK/kernel2" kernel2 "the CTF 2 kernel trace" ttv-ctf2.png "$WORK/kernel2"
tar -C "$WORK" -czf "$WORK/kernel2.tar.gz" kernel2
mkdir "$WORK/elsewhere" && mv "$WORK/kernel2.tar.gz" "$WORK/elsewhere/"
sum_before=$(md5sum <"$WORK/elsewhere/kernel2.tar.gz")
open_and_check "$WORK/elsewhere/kernel2.tar.gz" kernel2 "its .tar.gz" ttv-ctf2-archive.png "$WORK/kernel2"
check "the archive was not changed" '[ "$(md5sum <"$WORK/elsewhere/kernel2.tar.gz")" = "$sum_before" ]'

# --- A real LTTng UST trace in CTF 2 -------------------------------------------
if [ -d "$SHARED/ctf2/trace-with-index" ]; then
  cp -r "$SHARED/ctf2/trace-with-index" "$WORK/ust2"
  open_and_check "$WORK/ust2" ust2 "the LTTng UST trace in CTF 2" ttv-ctf2-ust.png "$WORK/ust2"
else
  for what in "opens" "span" "screenshot" "End"; do
    n=$((n + 1)); echo "ok $n # SKIP no $SHARED/ctf2/trace-with-index ($what)"
  done
fi

# --- Wrong CTF 2 metadata: an error dialog naming the file and offset ----------
cp -r "$WORK/kernel2" "$WORK/bad2"
# The first field class alias loses its "field-class" (same length: the
# metadata packets stay whole).
python3 - "$WORK/bad2/metadata" <<'PY'
import sys
p = sys.argv[1]
b = open(p, "rb").read()
i = b.index(b'"field-class"')
open(p, "wb").write(b[:i] + b'"field-clasz"' + b[i + 13:])
PY
: >"$TTV_TEST_MODULE_LOG"
start_ttv "$WORK/bad2"
err=$(wait_window "Cannot open trace" 1200)
check "wrong CTF 2 metadata shows an error dialog" '[ -n "$err" ]'
import -window root "$SHOTS/ttv-ctf2-bad.png"
msg=""
for _try in 1 2 3 4 5 6; do
  xdotool windowfocus --sync "$err" 2>/dev/null
  xdotool key Tab ctrl+c
  sleep 0.2
  msg=$(timeout 10 "$CLIPBOARD" 2>/dev/null)
  case "$msg" in "Cannot open “$WORK/bad2”"*) break ;; esac
done
printf '%s\n' "$msg" | sed 's/^/# wrong metadata: /'
check "the dialog names the metadata file, the byte offset and what is missing" \
  'echo "$msg" | grep -q "bad2/metadata:2:2 (byte offset 101)" && echo "$msg" | grep -q "needs the property “field-class”"'
key_in_window "$err" Escape
wait_for "! xdotool search --onlyvisible --name \"Cannot open trace\" >/dev/null 2>&1" 100
stop_ttv
check "ttv logged no GLib critical or warning" \
  '! grep -E "(CRITICAL|WARNING) \*\*" "$WORK/ttv.log" | grep -v "dbus\|AT-SPI\|atk-bridge"'
gui_test_finish

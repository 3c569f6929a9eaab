# gui-test-lib.sh: shell helpers shared by the GUI window tests that drive
# the real ttv under Xvfb with xdotool (test-gui.sh, test-big-scroll.sh,
# test-timeline-window.sh).
#
# Sourced (POSIX sh), not run: `. "$(dirname "$0")/gui-test-lib.sh"`.  Then
# set TTV to the program and call `gui_test_init NAME` before anything else.
# State is in plain globals, as the tests read them: WORK (a private folder,
# removed at exit), SHOTS (where screenshots go: $TTV_GUI_SHOTS or WORK),
# TTV_TEST_MODULE_LOG (what the test module logs), n and failed (TAP), pid
# (the running ttv, or empty), and i, w for the polling loops.
# shellcheck shell=sh

# A private folder named ttv-NAME-XXXXXX with its own XDG folders, the TAP
# counters, and the clean-up at exit (kills a ttv still running).
gui_test_init () {
  # xdotool matches window names only when it can decode them (UTF-8 titles).
  export LC_ALL=C.UTF-8 LANG=C.UTF-8
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/ttv-$1-XXXXXX")
  export XDG_CACHE_HOME="$WORK/cache" XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config"
  export TTV_TEST_MODULE_LOG="$WORK/module.log"
  # shellcheck disable=SC2034  # read by the tests
  SHOTS="${TTV_GUI_SHOTS:-$WORK}"
  n=0
  failed=0
  pid=""
  trap gui_test_cleanup EXIT
  # Killed (meson's timeout): the EXIT trap still cleans up.
  trap 'exit 1' HUP INT TERM
  # The X server answers before ttv is started: once in a CI run ttv
  # could not open the display xvfb-run had just started.  Said in the
  # log when it never does.
  wait_for 'xdotool getdisplaygeometry >/dev/null 2>&1' 100 \
    || echo "# the X server of DISPLAY=${DISPLAY:-} does not answer"
}

gui_test_cleanup () {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$WORK"
}

# Exits with the TAP result; ttv's output goes into the log as TAP comments
# when a check failed.
gui_test_finish () {
  [ "$failed" = 0 ] || sed 's/^/# ttv: /' "$WORK/ttv.log"
  exit "$failed"
}

# --- TAP ---------------------------------------------------------------------

ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
# A check named $1 that passes when the shell code $2 succeeds.
check () { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }

# --- Waiting -------------------------------------------------------------------

# Polls for a visible window whose name matches $1 (up to $2 tenths of a
# second) and prints its id.
wait_window () {
  i=0
  while [ "$i" -lt "${2:-100}" ]; do
    w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n 1)
    [ -n "$w" ] && { echo "$w"; return 0; }
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

# How long (tenths of a second) a test waits for ttv's main window: long,
# since it costs nothing when the window comes (a CI run on a loaded
# machine under the sanitizers once took more than 40 s to show it), but
# shorter than the tests' time-outs, so that check_window can still speak.
WINDOW_WAIT=${WINDOW_WAIT:-900}

# The check $1 that ttv's window $win is there.  Without it nothing after
# can pass, and each later wait would run to its end (a test went on for
# 960 s and was killed with nothing said): stop here, saying whether ttv
# was still running and what it printed.
check_window () {
  if [ -n "$win" ]; then ok "$1"; return 0; fi
  not_ok "$1"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "# ttv (process $pid) is running but showed no window in $((WINDOW_WAIT / 10)) s"
  else
    echo "# ttv exited before it showed a window"
  fi
  sed 's/^/# ttv: /' "$WORK/ttv.log"
  echo "Bail out! $1: no window"
  exit 1
}

# Polls until the shell code $1 succeeds (up to $2 tenths of a second).
wait_for () {
  i=0
  while [ "$i" -lt "${2:-100}" ]; do
    eval "$1" && return 0
    sleep 0.1; i=$((i + 1))
  done
  return 1
}

# --- ttv -------------------------------------------------------------------------

# The views in one pane, as a user may have kept them (the view-layout
# setting, in a keyfile under $XDG_CONFIG_HOME): for the tests that show
# one view at a time in the whole area (test-layout-window.sh tests the
# default layout).  $1: the views of the pane (default: the event list and
# the control flow, in one notebook as before panes existed).
one_pane_layout () {
  mkdir -p "$XDG_CONFIG_HOME/glib-2.0/settings"
  printf "[org/ttv/Viewer]\nview-layout='[%s]'\n" "${1:-events,controlflow}" >"$XDG_CONFIG_HOME/glib-2.0/settings/keyfile"
  export GSETTINGS_BACKEND=keyfile
}

# Starts ttv in the background with the arguments given (output in
# $WORK/ttv.log); its process id is in pid.
start_ttv () {
  "$TTV" "$@" >>"$WORK/ttv.log" 2>&1 &
  pid=$!
}

# Quits the running ttv with Ctrl+Q (killed after 30 s); pid is empty after.
stop_ttv () {
  if [ -n "$pid" ]; then
    xdotool key --clearmodifiers ctrl+q 2>/dev/null
    wait_for "! kill -0 $pid 2>/dev/null" 300 || kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pid=""
  fi
}

# Focuses the window $1, when there is one, and presses the key $2 in it
# (Return or Escape on a dialog).
key_in_window () {
  [ -n "$1" ] || return 0
  xdotool windowfocus --sync "$1" 2>/dev/null
  xdotool key "$2"
}

# Clicks a row near the top of the event list of the window $1 until the
# test module logs a current event (up to 30 s): the first rows can arrive
# after the window is drawn (a large trace, or the sanitizers).
click_first_row () {
  i=0
  while [ "$i" -lt 60 ] && ! grep -q "^current: " "$TTV_TEST_MODULE_LOG" 2>/dev/null; do
    xdotool mousemove --window "$1" 200 340 click 1
    sleep 0.5; i=$((i + 1))
  done
}

# The time of the last event, as the test module logs the trace's span.
span_end () {
  sed -n 's/^span: [^ ]* //p' "$TTV_TEST_MODULE_LOG" | head -n 1
}

# --- Screenshots -------------------------------------------------------------------

# The image $1 (or its area $2, a WxH+X+Y geometry) has contrast: something
# is drawn there.
has_contrast () {
  [ "$(convert "$1" ${2:+-crop "$2"} -colorspace gray \
        -format '%[fx:standard_deviation>0.05]' info: 2>/dev/null)" = 1 ]
}

# The two images $1 and $2 differ in at least $3 pixels.
differ () {
  d=$(compare -metric AE "$1" "$2" null: 2>&1 | cut -d' ' -f1)
  [ "${d%.*}" -ge "$3" ] 2>/dev/null
}

# Screenshots the whole screen into $1 until the command after $2 succeeds
# on the image (it gets the file as its last argument), at most $2 times,
# 0.2 s apart.
shoot_until () {
  _shot=$1 _tries=$2
  shift 2
  _try=0
  while [ "$_try" -lt "$_tries" ]; do
    import -window root "$_shot"
    "$@" "$_shot" && return 0
    sleep 0.2; _try=$((_try + 1))
  done
  return 1
}

# ust-record-lib.sh: recording ustwork.c under LTTng-UST for the userspace
# tests (test-userspace.sh, test-userspace-views.sh): the checks that it
# can run here, the build of the program and its plugin, the session daemon
# (as user nobody with its LTTNG_HOME under the work folder, see
# tests/formats/ctf-ust/test-ctf-ust.sh) and one recording per session.
#
# Sourced (POSIX sh): the caller defines skip MESSAGE and fail MESSAGE
# (neither returns), sets cc, src and work, then calls ust_setup; record
# prints the trace directory; ust_cleanup stops the daemon (also at exit).
# Sets lib (the folder of liblttng-ust-*.so.1) and bt (babeltrace2 or "").
# shellcheck shell=sh

ust_setup () {
  [ "$(id -u)" = 0 ] || skip "not root: this test records traces only as root"
  for p in lttng lttng-sessiond timeout setpriv python3 objcopy strip readelf; do
    command -v "$p" >/dev/null 2>&1 || skip "$p not in PATH (lttng-tools, util-linux, python3, binutils needed)"
  done
  lib=""
  for d in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib64 /usr/lib; do
    [ -e "$d/liblttng-ust-cyg-profile.so.1" ] && lib=$d && break
  done
  [ -n "$lib" ] || skip "liblttng-ust-cyg-profile.so.1 not found (liblttng-ust1)"
  bt=$(command -v babeltrace2 || true)

  rm -rf "$work"
  mkdir -p "$work/home" "$work/bin" "$work/out"
  flags="-g -O0 -finstrument-functions"
  "$cc" $flags -fPIC -shared -o "$work/bin/libustplugin.so" "$src/ustplugin.c" || fail "cannot build ustplugin.c"
  "$cc" $flags -o "$work/bin/ustwork" "$src/ustwork.c" -ldl -lpthread || fail "cannot build ustwork.c"
  cp "$src/ustwork.c" "$src/ustplugin.c" "$work/bin/"
  chown -R 65534:65534 "$work" || skip "cannot give $work to user nobody"
  chmod -R a+rX "$work"

  export LTTNG_HOME="$work/home"
  export HOME="$work/home"
  trap ust_cleanup EXIT
  trap 'ust_cleanup; exit 1' INT TERM
  run 20 lttng-sessiond --daemonize --no-kernel >"$work/sessiond.log" 2>&1 \
    || { cat "$work/sessiond.log"; skip "lttng-sessiond cannot start here"; }
}

run () {  # run SECONDS COMMAND...: as nobody, with a timeout
  t=$1; shift
  timeout -k 5 "$t" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    env LTTNG_HOME="$LTTNG_HOME" HOME="$HOME" LTTNG_UST_REGISTER_TIMEOUT=5000 "$@"
}

ust_cleanup () {
  _pid=$(cat "$work/home/.lttng/lttng-sessiond.pid" 2>/dev/null || true)
  if [ -n "${_pid:-}" ] && kill -0 "$_pid" 2>/dev/null; then
    kill "$_pid" 2>/dev/null
    i=0
    while kill -0 "$_pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$_pid" 2>/dev/null || true
  fi
}

# record NAME "EVENTS" "CONTEXTS" PRELOAD ARGS...: one session, one run of
# ustwork with ARGS; prints the trace's directory.
record () {
  name=$1 events=$2 contexts=$3 preload=$4
  shift 4
  log="$work/$name.log"
  run 20 lttng create "$name" --output="$work/out/$name" >"$log" 2>&1 \
    || { cat "$log"; skip "lttng create fails here (daemon not usable)"; }
  for e in $events; do
    run 20 lttng enable-event -u "$e" >>"$log" 2>&1 || { cat "$log"; fail "enable-event $e"; }
  done
  if [ -n "$contexts" ]; then
    run 20 lttng add-context -u $contexts >>"$log" 2>&1 || { cat "$log"; fail "add-context $contexts"; }
  fi
  run 20 lttng start >>"$log" 2>&1 || { cat "$log"; fail "start"; }
  run 30 env LD_PRELOAD="$preload" "$work/bin/ustwork" "$@" || fail "ustwork $* failed under $preload"
  run 30 lttng stop >>"$log" 2>&1 || { cat "$log"; fail "stop"; }
  run 30 lttng destroy >>"$log" 2>&1 || { cat "$log"; fail "destroy"; }
  meta=$(find "$work/out/$name" -name metadata -type f | head -n 1)
  [ -n "$meta" ] || { cat "$log"; skip "no trace recorded (the program did not register with the daemon)"; }
  dirname "$meta"
}

# The full recording: ip, vtid and the rest, a second thread, the plugin.
record_full () {
  record full 'lttng_ust_cyg_profile:* lttng_ust_libc:* lttng_ust_statedump:* lttng_ust_dl:*' \
    '-t vpid -t vtid -t procname -t ip' \
    "$lib/liblttng-ust-cyg-profile.so.1:$lib/liblttng-ust-libc-wrapper.so.1:$lib/liblttng-ust-dl.so.1" \
    "$work/bin/libustplugin.so" threads
}

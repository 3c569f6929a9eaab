# lttng-record-lib.sh: recording real LTTng userspace traces in a test as a
# user does, with a session daemon of the test's own: lttng-sessiond runs as
# the unprivileged user "nobody" with LTTNG_HOME (and so its run directory,
# $LTTNG_HOME/.lttng) under the test's work folder; a root daemon would use
# the machine-wide /var/run/lttng, which lttng-tools 2.13 offers no way to
# move.  Every command has a timeout and the daemon is always killed.
# Sourced (POSIX sh) by tests/formats/ctf-ust and tests/formats/ctf-sessions.
# shellcheck shell=sh

# An empty folder $1 (the global work) with home/ and out/, given to
# nobody; LTTNG_HOME and HOME in it.  When that cannot be, the function $2
# is called with the reason (it skips the test).
lttng_record_init () {
  work=$1
  rm -rf "$work"
  mkdir -p "$work/home" "$work/out"
  chown -R 65534:65534 "$work" || "$2" "cannot give $work to user nobody"
  chmod 755 "$work"
  export LTTNG_HOME="$work/home"
  export HOME="$work/home"
}

# run SECONDS COMMAND...: as nobody, with a timeout.
run () {
  t=$1; shift
  timeout -k 5 "$t" setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
    env LTTNG_HOME="$LTTNG_HOME" HOME="$HOME" LTTNG_UST_REGISTER_TIMEOUT=5000 "$@"
}

# Starts the session daemon; when it cannot, prints its log and calls the
# function $1 with the reason.
lttng_sessiond_start () {
  run 20 lttng-sessiond --daemonize --no-kernel >"$work/sessiond.log" 2>&1 \
    || { cat "$work/sessiond.log"; "$1" "lttng-sessiond cannot start here"; }
}

# Stops the session daemon: the process $1, or the one its pid file names;
# killed after 5 s.
lttng_sessiond_kill () {
  pid=${1:-$(cat "$work/home/.lttng/lttng-sessiond.pid" 2>/dev/null || true)}
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null || true
  fi
}

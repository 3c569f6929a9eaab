#!/bin/sh
# test-userspace.sh: the userspace analyses on real traces recorded here.
# Builds ustwork.c and ustplugin.c with -finstrument-functions -g, records
# them under LTTng-UST's helper libraries (cyg-profile, libc wrapper, dl)
# three ways (full: ip and vtid contexts, a second thread and a dlopen'ed
# plugin; vtid: no ip; bare: no context, the fast cyg-profile), checks each
# with check-userspace.py, then where the symbols are looked for: a binary
# moved away (found in --symbols), stripped with its debug file by build id
# or by debug link, and rebuilt (never used: another build id).
# Then the full trace with the kernel trace of the same machine that
# ttv-kernel-for-ust writes from it: call stacks on the kernel's threads;
# and beside a copy of itself from another machine (check-userspace-machines.py).
# Usage: test-userspace.sh CC TTV_REPORT SOURCE_DIR WORK_DIR KERNEL_FOR_UST   (exit 77: skipped)
# Root only: the session daemon runs as user nobody with LTTNG_HOME under
# WORK_DIR (see tests/formats/ctf-ust/test-ctf-ust.sh).
set -u
cc=$1
report=$2
src=$3
work=$4
kernel_for_ust=$5

skip () { echo "SKIP: $*"; exit 77; }
fail () { echo "FAIL: $*"; exit 1; }

# shellcheck source=tests/userspace/ust-record-lib.sh
. "$src/ust-record-lib.sh"
ust_setup

cyg="$lib/liblttng-ust-cyg-profile.so.1"
fast="$lib/liblttng-ust-cyg-profile-fast.so.1"
libc="$lib/liblttng-ust-libc-wrapper.so.1"
full=$(record_full) || exit $?
vtid=$(record vtid 'lttng_ust_cyg_profile:* lttng_ust_libc:* lttng_ust_statedump:*' \
  '-t vpid -t vtid -t procname' "$cyg:$libc" - threads) || exit $?
bare=$(record bare 'lttng_ust_cyg_profile_fast:* lttng_ust_libc:* lttng_ust_statedump:*' '' "$fast:$libc" -) \
  || exit $?
ust_cleanup

python3 "$src/check-userspace.py" full "$report" "$full" "$src" "$bt" || exit 1
python3 "$src/check-userspace.py" vtid "$report" "$vtid" "$src" "$bt" || exit 1
python3 "$src/check-userspace.py" bare "$report" "$bare" "$src" "$bt" || exit 1
"$kernel_for_ust" "$full" "$work/kernel" 100000 || fail "cannot write the kernel trace"
python3 "$src/check-userspace.py" merged "$report" "$work/kernel,$full" "$src" || exit 1
# Beside a copy of itself from another machine: each machine's records.
python3 "$src/check-userspace-machines.py" "$report" "$full" "$work" || exit 1

# --- Where symbols come from --------------------------------------------------
# names FILE: the function names the call stack report resolved, sorted.
names () {
  "$report" --analysis callstack --format jsonl "$@" "$full" \
    | python3 -c 'import json, sys
print(" ".join(sorted(r["name"] for r in map(json.loads, sys.stdin) if r["type"] == "function" and r["resolved"])))'
}
all="churn fib helper leaf main make_leak plugin_inner plugin_work run_plugin run_worker worker"
plugin_only="plugin_inner plugin_work"
[ "$(names)" = "$all" ] || fail "at the recorded paths: resolved $(names)"
mkdir -p "$work/empty"
[ -z "$(names --symbols "$work/empty" --symbols-only)" ] \
  || fail "--symbols-only with an empty directory, yet resolved: $(names --symbols "$work/empty" --symbols-only)"

bin="$work/bin"
syms="$work/symbols"
mkdir -p "$syms"
mv "$bin/ustwork" "$bin/ustwork.moved"
[ "$(names)" = "$plugin_only" ] || fail "binary moved away, yet resolved: $(names)"
cp "$bin/ustwork.moved" "$syms/ustwork"
[ "$(names --symbols "$syms")" = "$all" ] || fail "binary in --symbols: resolved $(names --symbols "$syms")"
rm "$syms/ustwork"

# Stripped, its debug information by build id under --symbols.
id=$(readelf -n "$bin/ustwork.moved" | sed -n 's/.*Build ID: *\([0-9a-f]*\).*/\1/p')
[ -n "$id" ] || fail "no build id in ustwork"
mkdir -p "$syms/.build-id/$(echo "$id" | cut -c1-2)"
objcopy --only-keep-debug "$bin/ustwork.moved" "$syms/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-).debug"
strip -s -o "$bin/ustwork" "$bin/ustwork.moved"
[ "$(names --symbols "$syms")" = "$all" ] || fail "stripped, debug file by build id: resolved $(names --symbols "$syms")"
"$report" --analysis callstack "$full" --symbols "$syms" | grep -q "ustwork.c:" \
  || fail "stripped, debug file by build id: no source lines"

# Stripped, with a debug link to a file beside it.
rm -rf "$syms"
objcopy --only-keep-debug "$bin/ustwork.moved" "$bin/ustwork.debug"
strip -s -o "$bin/ustwork" "$bin/ustwork.moved"
objcopy --add-gnu-debuglink="$bin/ustwork.debug" "$bin/ustwork"
[ "$(names)" = "$all" ] || fail "stripped, debug link beside it: resolved $(names)"

# Rebuilt: another build id at the recorded path is never used.
rm -f "$bin/ustwork.debug"
{ cat "$bin/ustwork.c"; echo 'int ustwork_rebuilt = 1;'; } >"$work/rebuilt.c"
"$cc" $flags -o "$bin/ustwork" "$work/rebuilt.c" -ldl -lpthread || fail "cannot rebuild ustwork.c"
[ "$(names)" = "$plugin_only" ] || fail "a rebuilt binary was used: resolved $(names)"
"$report" --analysis callstack --format jsonl "$full" | grep -q '"symbols":"not found: [^"]*another build id' \
  || fail "the rebuilt binary is not reported as another build id"
echo "ok: three recordings, symbols beside, by build id, by debug link, never from another build"
exit 0

#!/bin/sh
# test-install.sh: the plugin SDK as a module author outside ttv's tree
# meets it (issue 13).  Installs the build into a temporary DESTDIR
# (meson install --destdir), builds the sample module of
# docs/viewer-module.md against the installed tree alone (pkg-config
# ttv-viewer, no path into ttv's sources or build), then loads it: the
# installed ttv renders its view with no display, and the sample module
# test drives it in a window as it drives the module built in the tree.
#
# Usage: test-install.sh MESON BUILD_DIR SOURCE_DIR SAMPLE_TRACE TEST_SAMPLE_MODULE [XVFB_RUN]
# shellcheck shell=sh
set -u
meson=$1 build=$2 source=$3 trace=$4 sample_test=$5 xvfb=${6:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/ttv-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0
failed=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; sed 's/^/# /' "$work/log" 2>/dev/null; }
check () { if eval "$2" >"$work/log" 2>&1; then ok "$1"; else not_ok "$1"; fi; }
skip () { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

dest="$work/dest"
check "meson install --destdir installs the build" \
  '"$meson" install -C "$build" --no-rebuild --destdir "$dest" --quiet'
pc=$(find "$dest" -name ttv-viewer.pc | head -n 1)
check "ttv-viewer.pc is installed" '[ -n "$pc" ] && [ -f "$pc" ]'
export PKG_CONFIG_PATH="${pc%/*}"
cflags=$(pkg-config --cflags ttv-viewer 2>"$work/log")
moduledir=$(pkg-config --variable=moduledir ttv-viewer)
include=$(pkg-config --variable=includedir ttv-viewer)/ttv
check "its include path is the installed tree's, nothing of ttv's sources or build" \
  'echo "$cflags" | grep -q -- "-I$dest" && ! echo "$cflags" | grep -q -e "$source" -e "$build"'
# Every header the SDK's headers include is installed beside them.
check "every header of the SDK is installed" \
  '[ -f "$include/ttv-viewer.h" ] && [ -f "$include/ttv-viewer-model.h" ] && for f in "$include"/*.h; do
     for h in $(sed -n "s/^#include \"\(.*\)\".*/\1/p" "$f"); do [ -f "$include/$h" ] || exit 1; done; done'
# The model part promises GLib alone: it compiles without GTK's or cairo's
# include paths (what src/viewer-model is built with).
printf '#include <ttv-viewer-model.h>\nint main (void) { return TTV_VIEWER_API_VERSION > 0 ? 0 : 1; }\n' \
  >"$work/model-only.c"
# shellcheck disable=SC2046  # the flags are words
check "ttv-viewer-model.h compiles with GLib alone (no GTK, no cairo)" \
  'cc -std=c11 -Wall -Werror -fsyntax-only $(pkg-config --cflags gio-2.0 gmodule-2.0) -I"$include" "$work/model-only.c"'
check "moduledir holds the installed modules" \
  '[ -f "$moduledir/libttv-events.so" ] && [ -f "$moduledir/libttv-timeline.so" ] && [ -f "$moduledir/libttv-latency.so" ]'
check "ttv-viewer.pc's apiversion is the installed headers' TTV_VIEWER_API_VERSION" \
  'v=$(sed -n "s/^#define TTV_VIEWER_API_VERSION \([0-9]*\).*/\1/p" "$include/ttv-viewer-module.h") &&
   [ -n "$v" ] && [ "$(pkg-config --variable=apiversion ttv-viewer)" = "$v" ]'

# The page's module, built as its author would, against the installed SDK.
mkdir -p "$work/modules"
python3 "$source/tests/gui/sample/extract-sample.py" "$source/docs/viewer-module.md" "$work/ttv-inspector.c" \
  >"$work/log" 2>&1
# shellcheck disable=SC2086  # the flags are words
check "the sample module builds against the installed SDK only" \
  'cc -std=c11 -shared -fPIC -Wall -Werror -Wno-unused-parameter -DGETTEXT_PACKAGE="\"ttv-inspector\"" \
     $cflags "$work/ttv-inspector.c" -o "$work/modules/libttv-inspector.so"'

# The installed viewer loads it: its display-free render, no display at all.
bin=$(find "$dest" -path "*/bin/ttv" | head -n 1)
check "the installed ttv loads it and renders its view without a display" \
  'env -u DISPLAY -u WAYLAND_DISPLAY TTV_MODULE_DIR="$work/modules" "$bin" --render inspector \
     --trace "$trace" --size 640x240 -o "$work/inspector.png" && \
   [ "$(head -c 8 "$work/inspector.png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ]'

# Driven in a window as the sample module test drives the in-tree build.
if [ -n "$xvfb" ]; then
  check "the sample module test passes with the module built outside the tree" \
    'TTV_SAMPLE_MODULE="$work/modules/libttv-inspector.so" "$xvfb" -a -n 215 -s "-screen 0 1280x800x24" \
       "$sample_test" --tap'
else
  skip "the sample module test passes with the module built outside the tree" "no xvfb-run"
fi
echo "1..$n"
exit "$failed"

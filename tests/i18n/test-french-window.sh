#!/bin/sh
# test-french-window.sh: the real ttv window in French under Xvfb (TAP).
# Reads the menu bar that the running program exports on D-Bus
# (org.gtk.Menus), once in English and once in a real fr_FR.UTF-8 locale,
# and checks each French label against the catalogue; screenshots the open
# Fichier menu; renders the statistics view to SVG in French and checks
# that its numbers kept the '.' that the time entries read.  Run by meson
# under dbus-run-session + xvfb-run.
#
# Usage: test-french-window.sh TTV SAMPLE_TRACE LOCPATH CATALOGUE_DIR
set -u
. "$(dirname "$0")/../gui/gui-test-lib.sh"

TTV="$1"
SAMPLE="$2"
LOCALES="$3"
CATALOGUES="$4"
gui_test_init french

# The translation of $1 in the catalogue, as gettext(1) finds it.
translated () {
  TEXTDOMAINDIR="$CATALOGUES" LANGUAGE=fr LC_ALL=C.UTF-8 gettext -d ttv -- "$1"
}

# Starts ttv on the trace copy in the language of the environment
# assignments given ($@), and waits for its window and its menus on D-Bus.
start_in () {
  env -u LC_ALL -u LANGUAGE "$@" "$TTV" "$WORK/trace" >>"$WORK/ttv.log" 2>&1 &
  pid=$!
  win=$(wait_window "^trace.* ttv$" "$WINDOW_WAIT")
  wait_for "menus >/dev/null 2>&1" 100
}

# The labels of the menu bar of the running ttv, one a line, in menu order
# (the recent traces, which are paths, left out).
menus () {
  gdbus call --session --dest org.ttv.Viewer --object-path /org/ttv/Viewer/menus/menubar \
    --method org.gtk.Menus.Start "[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]" |
    grep -o "'label': <[\"'][^\"']*[\"']>" | sed "s/^'label': <.//; s/.>\$//" | grep -v '^/'
}

echo "1..9"
cp -r "$SAMPLE" "$WORK/trace"

# --- The menus -------------------------------------------------------------------
start_in LC_ALL=C.UTF-8
menus > "$WORK/menus.en"
stop_ttv
start_in LOCPATH="$LOCALES" LANG=fr_FR.UTF-8
check "the window opens in fr_FR.UTF-8" '[ -n "$win" ]'
menus > "$WORK/menus.fr"
check "the menu bar has the same $(wc -l < "$WORK/menus.en") items in both languages" \
  '[ -s "$WORK/menus.en" ] && [ "$(wc -l < "$WORK/menus.en")" = "$(wc -l < "$WORK/menus.fr")" ]'
# Each French label is the catalogue's translation of the English one.
: > "$WORK/menus.expected"
while IFS= read -r label; do
  translated "$label" >> "$WORK/menus.expected"
  echo >> "$WORK/menus.expected"
done < "$WORK/menus.en"
check "every menu label is the catalogue's French" 'cmp -s "$WORK/menus.expected" "$WORK/menus.fr"'
[ "$failed" = 0 ] || paste -d '|' "$WORK/menus.en" "$WORK/menus.fr" "$WORK/menus.expected" | sed 's/^/# /'
check "the four menus are not in English (Fichier, Affichage, Signets, Aide)" \
  '[ "$(head -n 1 "$WORK/menus.fr")" = "$(translated _File)" ] && [ "$(translated _File)" != _File ] &&
   ! grep -qx -e _View -e _Bookmarks -e _Help "$WORK/menus.fr"'

# Screenshot of the open File menu: look at it (TTV_GUI_SHOTS keeps it).
xdotool windowfocus --sync "$win" 2>/dev/null
xdotool key --clearmodifiers alt+f
sleep 1
import -window root "$SHOTS/ttv-french-menu.png"
check "the screenshot shows the window with its menu open" 'has_contrast "$SHOTS/ttv-french-menu.png"'
xdotool key Escape
stop_ttv

# --- Numbers in French -------------------------------------------------------------
svg="$WORK/statistics.svg"
env -u LC_ALL -u LANGUAGE LOCPATH="$LOCALES" LANG=fr_FR.UTF-8 \
  "$TTV" --render statistics --trace "$WORK/trace" -o "$svg" >>"$WORK/ttv.log" 2>&1
check "ttv --render statistics writes well-formed SVG in fr_FR.UTF-8" 'xmllint --noout "$svg"'
check "its column titles are French ($(translated Average))" \
  'grep -q ">$(translated Average)</text>" "$svg" && [ "$(translated Average)" != Average ]'
check "its coordinates are C numbers (no decimal comma)" \
  'grep -q "=\"[0-9]*\\.[0-9]" "$svg" && ! grep -q "=\"-*[0-9]*,[0-9]" "$svg"'
check "its durations keep the '.' the time entries accept (e.g. $(grep -o '>[0-9]*\.[0-9]* [µm]*s<' "$svg" | head -n 1))" \
  'grep -q ">[0-9]*\\.[0-9]* [µm]*s<" "$svg" && ! grep -q ">[0-9]*,[0-9]* [µm]*s<" "$svg"'
gui_test_finish

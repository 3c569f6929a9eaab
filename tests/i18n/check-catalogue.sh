#!/bin/sh
# check-catalogue.sh: the translations cover the current sources (TAP).
# Extracts the messages of the sources as `ninja ttv-pot` does (into a
# temporary folder, never into po/), merges every po/LANG.po of po/LINGUAS
# with them as `ninja ttv-update-po` would, and fails on a source file with
# strings missing from po/POTFILES.in, a message xgettext cannot extract
# whole, or a message untranslated, fuzzy or with mismatched formats.
#
# Usage: check-catalogue.sh SOURCE_ROOT XGETTEXT_ARG...
# (the arguments of po/meson.build's xgettext_args, given by meson).
set -u
src=$1
shift
po="$src/po"
work=$(mktemp -d "${TMPDIR:-/tmp}/ttv-catalogue-XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
n=0
failed=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
# Prints the file $1 as TAP comments.
comment () { sed 's/^/# /' "$1"; }

langs=$(sed 's/#.*//' "$po/LINGUAS" | tr -s ' \t' '\n' | grep -v '^$')
echo "1..$((4 + 3 * $(echo "$langs" | wc -l)))"

# --- po/POTFILES.in ------------------------------------------------------------
grep -v '^#' "$po/POTFILES.in" | grep -v '^$' > "$work/listed"
if LC_ALL=C sort -c "$work/listed" 2>"$work/sort.err"; then
  ok "po/POTFILES.in is sorted"
else
  comment "$work/sort.err"
  not_ok "po/POTFILES.in is sorted"
fi

# Files with strings: gettext calls in C, translatable properties in .ui,
# and the desktop data (whose text is translatable by nature).
(
  cd "$src" || exit 1
  find src modules -name '*.[ch]' -print0 |
    xargs -0 -r grep -lE '(^|[^[:alnum:]_])((N|C|NC)?_|g_dngettext|ngettext|g_dpgettext2) ?\(' 2>/dev/null
  find src modules -name '*.ui' -print0 | xargs -0 -r grep -l 'translatable="yes"' 2>/dev/null
  find data -maxdepth 1 \( -name '*.desktop.in' -o -name '*.metainfo.xml.in' -o -name '*.gschema.xml' \)
) | LC_ALL=C sort > "$work/with-strings"
LC_ALL=C sort "$work/listed" > "$work/listed.sorted"
LC_ALL=C comm -23 "$work/with-strings" "$work/listed.sorted" > "$work/unlisted"
if [ -s "$work/unlisted" ]; then
  echo "# files with translatable strings missing from po/POTFILES.in:"
  comment "$work/unlisted"
  not_ok "every source file with translatable strings is in po/POTFILES.in"
else
  ok "every source file with translatable strings is in po/POTFILES.in"
fi
while read -r f; do
  [ -f "$src/$f" ] || echo "$f"
done < "$work/listed" > "$work/gone"
if [ -s "$work/gone" ]; then
  echo "# listed in po/POTFILES.in but not found:"
  comment "$work/gone"
  not_ok "every file of po/POTFILES.in exists"
else
  ok "every file of po/POTFILES.in exists"
fi

# --- Extraction ----------------------------------------------------------------
# A G_GUINT64_FORMAT (or any macro) inside _() cuts the message at the
# macro: it is then never found at run time.  <inttypes.h>'s PRIu64 and
# %zu are what xgettext and gettext understand.
xgettext --package-name=ttv -f "$po/POTFILES.in" -D "$src" -k_ --no-wrap -o "$work/ttv.pot" "$@" \
  2>"$work/xgettext.err"
status=$?
grep -v 'a fallback ITS rule file' "$work/xgettext.err" > "$work/xgettext.warnings"
grep -nE '^(msgid(_plural)? )?"(.*[^%])?(%%)*%"$' "$work/ttv.pot" >> "$work/xgettext.warnings"
if [ "$status" = 0 ] && [ ! -s "$work/xgettext.warnings" ]; then
  ok "xgettext extracts every message whole, without warnings"
else
  echo "# use PRIu64/PRId64/PRIx64 or %zu inside translatable strings, not G_*_FORMAT:"
  comment "$work/xgettext.warnings"
  not_ok "xgettext extracts every message whole, without warnings"
fi

# --- Each language -------------------------------------------------------------------
for lang in $langs; do
  merged="$work/$lang.po"
  msgmerge --quiet --no-wrap -o "$merged" "$po/$lang.po" "$work/ttv.pot"
  msgattrib --untranslated --no-obsolete --no-wrap "$merged" > "$work/$lang.untranslated"
  msgattrib --only-fuzzy --no-obsolete --no-wrap "$merged" > "$work/$lang.fuzzy"
  if grep -q '^#:' "$work/$lang.untranslated"; then
    echo "# untranslated in po/$lang.po (see po/README.md):"
    grep -E '^(#:|msgid)' "$work/$lang.untranslated" | sed 's/^/#   /'
    not_ok "$lang: every message of the sources is translated"
  else
    ok "$lang: every message of the sources is translated"
  fi
  if grep -q '^#:' "$work/$lang.fuzzy"; then
    echo "# fuzzy in po/$lang.po once merged with the sources (review, then remove the flag):"
    grep -E '^(#:|msgid)' "$work/$lang.fuzzy" | sed 's/^/#   /'
    not_ok "$lang: no fuzzy translation"
  else
    ok "$lang: no fuzzy translation"
  fi
  if msgfmt --check --statistics -o /dev/null "$merged" 2>"$work/$lang.msgfmt"; then
    echo "# $lang: $(tr '\n' ' ' < "$work/$lang.msgfmt")"
    ok "$lang: formats, plurals and header check (msgfmt --check)"
  else
    comment "$work/$lang.msgfmt"
    not_ok "$lang: formats, plurals and header check (msgfmt --check)"
  fi
done
exit "$failed"

#!/usr/bin/env python3
"""check-readme-suites.py: README.md names the test suites a user can run
(`meson test --suite S`); they must be exactly the suites the build
declares.  Reads README's "meson suites a, b, ..." and the build's
meson-info/intro-tests.json; prints what differs and exits 1 when anything
does.  `--absent S` names a suite this build leaves out (-Dgui=false)."""
import json
import os
import re
import sys

source_root, build_root = sys.argv[1], sys.argv[2]
absent = set(sys.argv[i + 1] for i in range(3, len(sys.argv) - 1) if sys.argv[i] == '--absent')
with open(os.path.join(source_root, 'README.md'), encoding='utf-8') as f:
    readme = f.read()
match = re.search(r'meson suites\s+([a-z0-9_,\s-]+?)\s*\(', readme)
if not match:
    print('README.md: no "meson suites a, b, ... (" sentence')
    sys.exit(1)
named = set(s.strip() for s in match.group(1).split(',') if s.strip())

with open(os.path.join(build_root, 'meson-info', 'intro-tests.json'), encoding='utf-8') as f:
    tests = json.load(f)
declared = set()
for test in tests:
    # meson prefixes each suite with the project's name: ttv:gui.
    declared.update(s.split(':', 1)[-1] for s in test['suite'])

status = 0
for s in sorted(named - declared - absent):
    print('README.md names suite %s, which no test is in' % s)
    status = 1
for s in sorted(declared - named):
    print('suite %s is missing from README.md\'s list' % s)
    status = 1
sys.exit(status)

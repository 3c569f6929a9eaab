#!/usr/bin/env python3
# extract-sample.py DOC.md OUT.c: writes the C block that follows the line
# "<!-- sample-module: NAME -->" in DOC.md (the sample module of
# docs/viewer-module.md), so that the test builds exactly what the page shows.
import sys

def main():
    doc, out = sys.argv[1], sys.argv[2]
    lines = open(doc, encoding='utf-8').read().split('\n')
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith('<!-- sample-module:'))
    except StopIteration:
        sys.exit(f'{doc}: no "<!-- sample-module: ... -->" marker')
    if start + 1 >= len(lines) or lines[start + 1].strip() != '```c':
        sys.exit(f'{doc}:{start + 2}: the marker must be followed by a ```c block')
    body = []
    for l in lines[start + 2:]:
        if l.strip() == '```':
            break
        body.append(l)
    else:
        sys.exit(f'{doc}: the sample block is not closed')
    if len(body) >= 250:
        sys.exit(f'{doc}: the sample module has {len(body)} lines; the page promises under 250')
    with open(out, 'w', encoding='utf-8') as f:
        f.write('\n'.join(body) + '\n')

main()

#!/usr/bin/env python3
"""check-layers.py: the architecture's rules that the compiler cannot see
(docs/architecture.md, "Rules").  The layers' include paths already make an
include that points up the stack a compile error; this checks the rest:

- a format's headers are included only inside its own folder, by the format
  registry, and by the simulator library (writers, -sim.h adapters);
  a format's -private.h only inside its own folder;
- libttv never includes GTK or GDK;
- every file in src/gui is application code (GTK, or GIO's application
  machinery: GApplication, GSettings, GModule, GObject signals) or
  implements the plugin API of ttv-viewer.h: logic that needs neither
  belongs in libttv, where ttv-report can use it too;
- the plugin SDK (src/gui/sdk, the headers installed for modules) includes
  only its own headers and system ones: no header of the application or
  of libttv, whose structures must not become the modules' ABI;
- modules include no libttv header: only the plugin SDK (src/gui/sdk),
  their own headers and modules/common (their include path holds
  src/gui/sdk alone, so that a module builds as it would against the
  installed SDK).
Prints each violation as FILE:LINE: and exits 1 when there is one."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
root = os.path.abspath(root)
include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
format_header_re = re.compile(r'^ttv-(ltt|lttng|ctf)(-[a-z0-9-]+)?\.h$')
problems = []


def sources(folder):
    for dirpath, _dirs, files in os.walk(os.path.join(root, folder)):
        for name in sorted(files):
            if name.endswith(('.c', '.h')):
                yield os.path.join(dirpath, name)


def rel(path):
    return os.path.relpath(path, root)


def includes(path):
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            m = include_re.match(line)
            if m:
                yield number, os.path.basename(m.group(1))


def format_folder(header):
    m = format_header_re.match(header)
    return m.group(1) if m else None


# Formats: only through the format table.
for path in list(sources('src')) + list(sources('modules')):
    r = rel(path)
    for number, header in includes(path):
        fmt = format_folder(header)
        if fmt is None:
            continue
        own = r.startswith(f'src/libttv/formats/{fmt}/')
        if header.endswith('-private.h') and not own:
            problems.append(f'{r}:{number}: includes {header}, private to src/libttv/formats/{fmt}')
            continue
        simulator = header.endswith(('-sim.h', '-writer.h'))
        allowed = (own or r == 'src/libttv/formats/ttv-formats.c'
                   or (simulator and (r.startswith('src/libttv/sim/')
                                      or r in ('src/cli/ttv-gen.c', 'src/cli/ttv-bench.c')))
                   or (simulator and r.startswith('src/libttv/formats/')))
        if not allowed:
            problems.append(f'{r}:{number}: includes {header}: reach a format through '
                            'TtvFormatClass (src/libttv/trace/ttv-trace.h) instead')

# libttv is GTK-free.
gtk_re = re.compile(r'#\s*include\s*<(gtk|gdk)/')
for path in sources('src/libttv'):
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if gtk_re.search(line):
                problems.append(f'{rel(path)}:{number}: libttv includes GTK')

# src/gui holds the application and the plugin API's implementation only.
app_re = re.compile(r'\b(gtk_|gdk_|Gtk[A-Z]|Gdk[A-Z]|GTK_|GDK_|cairo_|g_application_|GApplication'
                    r'|g_settings_|GSettings|g_module_|GModule|g_signal_)')
api_re = re.compile(r'^(ttv_viewer_|ttv_tab_state_|ttv_event_request_)\w* \(', re.M)
for path in sources('src/gui'):
    if not path.endswith('.c'):
        continue
    with open(path, encoding='utf-8') as f:
        text = f.read()
    if not app_re.search(text) and not api_re.search(text):
        problems.append(f'{rel(path)}:1: neither application code nor the plugin API: '
                        'GTK-free logic belongs in src/libttv')

# The SDK is sealed: its headers include each other and system headers only.
sdk_dir = os.path.join(root, 'src', 'gui', 'sdk')
api = {n for n in os.listdir(sdk_dir) if n.endswith('.h')}
for path in sources('src/gui/sdk'):
    for number, header in includes(path):
        if header not in api:
            problems.append(f'{rel(path)}:{number}: the plugin SDK includes {header}: its headers '
                            'may include each other and system headers only')

# Modules see the plugin SDK only.
for path in sources('modules'):
    module_dir = os.path.dirname(path)
    own = {n for n in os.listdir(module_dir) if n.endswith('.h')}
    common = {n for n in os.listdir(os.path.join(root, 'modules', 'common')) if n.endswith('.h')}
    for number, header in includes(path):
        if header not in api | own | common:
            problems.append(f'{rel(path)}:{number}: a module includes {header}: '
                            'modules see the plugin API (ttv-viewer.h) only')

for p in problems:
    print(p)
print(f'# {len(problems)} violation(s) of the layering rules' if problems else '# layering rules hold')
sys.exit(1 if problems else 0)

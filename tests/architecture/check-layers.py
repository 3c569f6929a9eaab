#!/usr/bin/env python3
"""check-layers.py: the architecture's rules that the compiler cannot see
(docs/architecture.md, "Rules").  The layers' include paths already make an
include that points up the stack a compile error; this checks the rest:

- a format's headers are included only inside its own folder, by the format
  registry, and by the simulator library (writers, -sim.h adapters);
  a format's -private.h only inside its own folder;
- libttv never includes GTK or GDK;
- the viewer's model (src/viewer-model, built without GTK) includes no
  GTK, GDK, cairo or Pango header, no header of the SDK's widget part
  (ttv-viewer.h, ttv-viewer-widget.h, ttv-palette.h) and no header of
  src/gui, and names no GTK, GDK, cairo or Pango identifier;
- the SDK's model half (ttv-viewer-model.h and every SDK header it
  includes) includes GLib and GIO only: no GTK, GDK, cairo or Pango
  header, no header of the widget part;
- every C file in src/gui uses GTK: it names a GTK, GDK, cairo or Pango
  identifier or one of the SDK's widget part (TtvViewerInfo,
  ttv_viewer_register, the palette, the marker colours...); code that
  needs none of them belongs in src/viewer-model or in libttv;
- the plugin SDK (src/gui/sdk, the headers installed for modules) includes
  only its own headers and system ones: no header of the application or
  of libttv, whose structures must not become the modules' ABI;
- modules include no libttv header: only the plugin SDK (src/gui/sdk),
  their own headers and modules/common (their include path holds
  src/gui/sdk alone, so that a module builds as it would against the
  installed SDK);
- no module recognises kernel events by name: a string literal in a
  module's code (comments left out) that is a kernel event's name, a
  prefix of one ("sched_", "syscall_entry_"), a facility-qualified LTT
  name ("kernel.sched_schedule") or a field only kernel events have
  ("prev_state", "syscall_id") is a violation; what the kernel model knows
  reaches modules through the SDK (process names, soft IRQ and syscall
  names, states, the kernel analyses).  Text for the user, inside _(),
  N_(), C_() or NC_(), is not code; ALLOWED_KERNEL_NAMES lists the other
  literals that name a kernel event without recognising one.
Checks the checks on a made-up tree first (alone: --self-test), then
prints each violation as FILE:LINE: and exits 1 when there is one."""
import os
import re
import sys
import tempfile

include_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
system_include_re = re.compile(r'^\s*#\s*include\s+<([^>]+)>')
format_header_re = re.compile(r'^ttv-(ltt|lttng|ctf)(-[a-z0-9-]+)?\.h$')
# Headers of the toolkit: what the viewer's model and the SDK's model half
# are built without.
toolkit_header_re = re.compile(r'^(gtk|gdk|gdk-pixbuf|cairo|pango|atk)[/.-]')
toolkit_name_re = re.compile(r'\b(gtk_\w+|gdk_\w+|cairo_\w+|pango_\w+|(Gtk|Gdk|Pango)[A-Z]\w*|cairo_t\b'
                             r'|(GTK|GDK|PANGO|CAIRO)_[A-Z]\w*)')
# The SDK's widget part; every other SDK header is its model half.
SDK_WIDGET_HEADERS = ('ttv-viewer.h', 'ttv-viewer-widget.h', 'ttv-palette.h')

# A kernel event's name as a string literal's whole text: LTTng 2 names
# (and their prefixes: a literal ending in "_" matches families), LTT and
# LTTng 0.x names with or without their facility, and fields that only
# kernel events have.
kernel_name_re = re.compile(r'''^(?:(?:kernel|core|fs|block|mm|net|ipc|irq|softirq|timer|locking)\.)?(?:
    sched_\w* | schedchange | irq_\w* | soft_?irq_\w* | tasklet_\w* | trap_\w*
  | (?:compat_)?syscall_\w* | exit_syscall | (?:compat_)?sys_\w+ | \w*futex\w*
  | block_(?:rq|bio)_\w* | request_(?:issue|complete)
  | (?:hr|i)?timer_\w* | kmem_\w* | mm_\w+ | power_\w* | workqueue_\w* | signal_\w*
  | net_dev_\w* | netif_\w* | napi_\w* | writeback_\w* | rcu_\w* | x86_irq_vectors_\w*
  | lttng_statedump_\w* | process_(?:fork|exit|free|exec|state)\w* | exec
  | (?:prev|next)_(?:pid|tid|comm|prio|state) | (?:child|parent)_(?:pid|tid|tgid|comm)
  | (?:syscall|irq|softirq|trap)_id
)$''', re.X)
# Literals that name a kernel event in a module without recognising one
# (FILE relative to the root, literal): why each is fine.
ALLOWED_KERNEL_NAMES = {
    ('modules/events/ttv-event-column-view.c', 'syscall_entry_read'):
        'a usual value the Event column is sized to show, never compared with an event',
}
# A literal right after one of these (and, for C_ and NC_, the context) is
# text for the user.
gettext_before_re = re.compile(r'\b(?:N|C|NC)?_\s*\(\s*(?:"(?:[^"\\\n]|\\.)*"\s*,\s*)?$')


def c_tokens(text):
    """The code of a C file without its comments, and its string literals as
    (line, offset in the code, contents)."""
    code = []
    literals = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            line += text.count('\n', i, end)
            code.append('\n' * text.count('\n', i, end) or ' ')
            i = end
        elif text.startswith('//', i):
            end = text.find('\n', i)
            i = n if end < 0 else end
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            if c == '"':
                literals.append((line, len(''.join(code)), text[i + 1:j]))
            code.append(c + c)
            i = j + 1
        else:
            if c == '\n':
                line += 1
            code.append(c)
            i += 1
    return ''.join(code), literals


def check(root):
    problems = []

    def sources(folder):
        for dirpath, _dirs, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if name.endswith(('.c', '.h')):
                    yield os.path.join(dirpath, name)

    def rel(path):
        return os.path.relpath(path, root)

    def includes(path, pattern=include_re):
        with open(path, encoding='utf-8') as f:
            for number, line in enumerate(f, 1):
                m = pattern.match(line)
                if m:
                    yield number, m.group(1) if pattern is system_include_re else os.path.basename(m.group(1))

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

    sdk_dir = os.path.join(root, 'src', 'gui', 'sdk')
    api = {n for n in os.listdir(sdk_dir) if n.endswith('.h')}
    gui_dir = os.path.join(root, 'src', 'gui')
    gui_headers = {n for n in os.listdir(gui_dir) if n.endswith('.h')}

    def toolkit_includes(path, who, fix):
        """The toolkit's and the SDK widget part's headers @path includes."""
        for number, header in includes(path, system_include_re):
            if toolkit_header_re.match(header):
                problems.append(f'{rel(path)}:{number}: {who} includes <{header}>: {fix}')
        for number, header in includes(path):
            if header in SDK_WIDGET_HEADERS:
                problems.append(f'{rel(path)}:{number}: {who} includes {header}, the SDK\'s widget '
                                f'part: {fix}')

    # The viewer's model is built without the toolkit.
    for path in sources('src/viewer-model'):
        r = rel(path)
        toolkit_includes(path, 'the viewer\'s model', 'it is built with GLib, GIO and libttv only '
                         '(the SDK\'s ttv-viewer-model.h)')
        for number, header in includes(path):
            if header in gui_headers and header not in SDK_WIDGET_HEADERS:
                problems.append(f'{r}:{number}: the viewer\'s model includes {header} of src/gui: '
                                'the application uses the model, not the other way round')
        with open(path, encoding='utf-8') as f:
            code, _literals = c_tokens(f.read())
        m = toolkit_name_re.search(code)
        if m:
            number = code.count('\n', 0, m.start()) + 1
            problems.append(f'{r}:{number}: the viewer\'s model names {m.group(0)}: GTK, GDK, cairo '
                            'and Pango belong in src/gui')

    # The SDK's model half needs GLib and GIO only.
    model_half, todo = set(), ['ttv-viewer-model.h']
    while todo:
        name = todo.pop()
        if name in model_half or name not in api:
            continue
        model_half.add(name)
        path = os.path.join(sdk_dir, name)
        toolkit_includes(path, 'the SDK\'s model half', 'GLib and GIO only (the widget part is '
                         'ttv-viewer-widget.h)')
        todo.extend(header for _number, header in includes(path))
    if 'ttv-viewer-model.h' not in model_half:
        problems.append('src/gui/sdk/ttv-viewer-model.h:1: missing: the SDK\'s GLib-only half')

    # Every C file of src/gui uses GTK (or the SDK's widget part).
    def declared(headers):
        names = set()
        for h in headers:
            with open(os.path.join(sdk_dir, h), encoding='utf-8') as f:
                code, _literals = c_tokens(f.read())
            names |= set(re.findall(r'\b(?:ttv_|Ttv|TTV_)\w+', code))
        return names
    widget_names = declared(h for h in SDK_WIDGET_HEADERS if h in api) - declared(model_half)
    widget_re = re.compile(r'\b(' + '|'.join(sorted(widget_names)) + r')\b') if widget_names else None
    for path in sources('src/gui'):
        if not path.endswith('.c') or os.path.dirname(path) != gui_dir:
            continue
        with open(path, encoding='utf-8') as f:
            code, _literals = c_tokens(f.read())
        if not toolkit_name_re.search(code) and not (widget_re and widget_re.search(code)):
            problems.append(f'{rel(path)}:1: no GTK in this file of src/gui: code that needs neither '
                            'GTK nor the SDK\'s widget part belongs in src/viewer-model or libttv')

    # The SDK is sealed: its headers include each other and system headers only.
    for path in sources('src/gui/sdk'):
        for number, header in includes(path):
            if header not in api:
                problems.append(f'{rel(path)}:{number}: the plugin SDK includes {header}: its headers '
                                'may include each other and system headers only')

    # Modules see the plugin SDK only.
    common = {n for n in os.listdir(os.path.join(root, 'modules', 'common')) if n.endswith('.h')}
    for path in sources('modules'):
        module_dir = os.path.dirname(path)
        own = {n for n in os.listdir(module_dir) if n.endswith('.h')}
        for number, header in includes(path):
            if header not in api | own | common:
                problems.append(f'{rel(path)}:{number}: a module includes {header}: '
                                'modules see the plugin API (ttv-viewer.h) only')

    # Modules do not recognise kernel events by name.
    for path in sources('modules'):
        r = rel(path)
        with open(path, encoding='utf-8') as f:
            code, literals = c_tokens(f.read())
        for number, offset, text in literals:
            if not kernel_name_re.match(text) or (r, text) in ALLOWED_KERNEL_NAMES:
                continue
            line_start = code.rfind('\n', 0, offset) + 1
            if code[line_start:offset].lstrip().startswith('#'):
                continue   # an #include's or #pragma's
            if gettext_before_re.search(code[max(0, offset - 200):offset]):
                continue   # text for the user
            problems.append(f'{r}:{number}: a module matches the kernel event name "{text}": '
                            'what the kernel model knows comes through the SDK')
    return problems


def self_test():
    """The checks on a made-up tree: each rule reports what breaks it, and
    nothing in a tree that keeps them."""
    files = {
        'src/libttv/base/ttv-ok.c': '#include <glib.h>\n',
        'src/gui/sdk/ttv-viewer.h': '#include <gtk/gtk.h>\n#include "ttv-viewer-model.h"\n'
                                    '#include "ttv-viewer-widget.h"\n',
        'src/gui/sdk/ttv-viewer-model.h': '#include <gio/gio.h>\n#include "ttv-viewer-tab.h"\n',
        'src/gui/sdk/ttv-viewer-tab.h': '#include <cairo.h>\nvoid ttv_tab_state_get_x (void);\n',
        'src/gui/sdk/ttv-viewer-widget.h': '#include <gtk/gtk.h>\ntypedef struct { int a; } TtvViewerInfo;\n'
                                           'void ttv_viewer_register (const TtvViewerInfo *info);\n',
        'src/gui/ttv-window.h': '#include <gtk/gtk.h>\n',
        'src/gui/ttv-window.c': 'void f (void) { gtk_widget_show (0); }\n',
        'src/gui/ttv-registry.c': 'void ttv_viewer_register (const TtvViewerInfo *info) {}\n',
        'src/gui/ttv-plain.c': '/* gtk_widget_show */ void g (void) { g_print ("GtkWidget"); }\n',
        'src/viewer-model/ttv-tab.c': '#include <gtk/gtk.h>\n#include "ttv-window.h"\n'
                                      '#include "ttv-viewer.h"\nint x = GTK_ALIGN_START;\n',
        'src/viewer-model/ttv-fine.c': '#include "ttv-viewer-model.h"\n/* no GtkWidget here */\n'
                                       'const char *s = "gtk_init";\n',
        'modules/common/ttv-common.h': '',
        'modules/events/ttv-event-column-view.c':
            'static const char *usual = "syscall_entry_read";\n',
        'modules/a/ttv-a.c': '#include "ttv-viewer.h"\n'
                             'int f (const char *n) { return strcmp (n, "sched_switch") == 0\n'
                             '  || g_str_has_prefix (n, "syscall_entry_")\n'
                             '  || g_str_equal (n, "kernel.soft_irq_entry"); }\n'
                             'static const char *fields[] = { "prev_state", "next_comm" };\n',
        'modules/b/ttv-b.c': '/* "sched_switch" in a comment */\n'
                             'const char *l = N_("sched_switch");\n'
                             'const char *m = C_("event", "irq_handler_entry");\n'
                             'const char *t[] = { "softirqs", "calls", "syscall read", "ksoftirqd/1" };\n'
                             'const char *u = _("Filter: event.name = sched_switch");\n',
    }
    expected = [
        'src/gui/sdk/ttv-viewer-tab.h:1: the SDK\'s model half includes <cairo.h>',
        'src/gui/ttv-plain.c:1: no GTK in this file of src/gui',
        "src/viewer-model/ttv-tab.c:1: the viewer's model includes <gtk/gtk.h>",
        "src/viewer-model/ttv-tab.c:2: the viewer's model includes ttv-window.h of src/gui",
        "src/viewer-model/ttv-tab.c:3: the viewer's model includes ttv-viewer.h, the SDK's widget part",
        "src/viewer-model/ttv-tab.c:4: the viewer's model names GTK_ALIGN_START",
        'modules/a/ttv-a.c:2: a module matches the kernel event name "sched_switch"',
        'modules/a/ttv-a.c:3: a module matches the kernel event name "syscall_entry_"',
        'modules/a/ttv-a.c:4: a module matches the kernel event name "kernel.soft_irq_entry"',
        'modules/a/ttv-a.c:5: a module matches the kernel event name "prev_state"',
        'modules/a/ttv-a.c:5: a module matches the kernel event name "next_comm"',
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in files.items():
            os.makedirs(os.path.join(tmp, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(tmp, name), 'w', encoding='utf-8') as f:
                f.write(text)
        found = check(tmp)
    failed = False
    for want in expected:
        hits = [p for p in found if p.startswith(want)]
        print(('ok - ' if hits else 'not ok - missed: ') + want)
        failed |= not hits
    for p in found:
        if not any(p.startswith(want) for want in expected):
            print('not ok - reported wrongly: ' + p)
            failed = True
    print('# the layering checks catch what they should' if not failed else '# the layering checks are wrong')
    return 1 if failed else 0


if __name__ == '__main__':
    if sys.argv[1:2] == ['--self-test']:
        sys.exit(self_test())
    # The checks first prove they catch what they should, then run.
    broken = self_test()
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
    problems = check(os.path.abspath(root))
    for p in problems:
        print(p)
    print(f'# {len(problems)} violation(s) of the layering rules' if problems else '# layering rules hold')
    sys.exit(1 if problems or broken else 0)

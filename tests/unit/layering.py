#!/usr/bin/env python3
"""layering.py ROOT [LAYERS] [--include DIRS] -- the tree's include structure (CTest `layering`).

Reads the `#include "..."` lines of every file under ROOT/src and ROOT/tools and fails, naming
each offence, on:
  - an include of a higher part of src/, or of a sibling part (LAYERS, section [src]);
  - an include that goes up the levels of a directory that has its own section ([src/emu]);
  - tools/ including anything but the public API ([tools]) and its own directory's files;
  - a circle between the modules of one directory (foo.c + foo.h is module foo);
  - an existing part or module that LAYERS does not list;
  - a file or a function longer than [limits] (functions as Universal Ctags sees them; without
    ctags that check is skipped with a notice).
LAYERS defaults to layers.txt beside this script; its header says the format.  DIRS: the library's
include directories, ';'- or ':'-separated (CMake passes visa_objects' own), default
ROOT/include, ROOT/src, ROOT/src/isa.  Quoted includes are looked up as the compiler does: the
including file's directory first, then DIRS; a name found nowhere in the tree (a generated
header) is reported as a notice and not checked.
"""
import os
import re
import shutil
import subprocess
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_EXT = ('.c', '.h', '.def', '.inc')


def is_fragment(path):
    """A .def table or a *_body.h fragment: part of whichever module includes it."""
    return path.endswith('.def') or path.endswith('.inc') or path.endswith('_body.h')


def module_of(path):
    return os.path.splitext(os.path.basename(path))[0]


class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, offences):
        """One check: passes when it found no offence, else each offence is a failure."""
        for o in offences:
            print('FAIL ' + o)
        self.failed += len(offences)
        self.passed += not offences


def read_layers(path):
    """{section: [[group, ...] per level, lowest first]}, a group being a list of names."""
    sections, cur = {}, None
    with open(path) as f:
        for raw in f:
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            m = re.fullmatch(r'\[(.+)\]', line)
            if m:
                cur = sections.setdefault(m.group(1), [])
            elif cur is None:
                sys.exit(f'{path}: "{line}" before any [section]')
            else:
                cur.append([g.split() for g in line.split('|')])
    return sections


def ranks(levels):
    """name -> (level, group)."""
    return {n: (li, gi) for li, level in enumerate(levels) for gi, g in enumerate(level) for n in g}


def order_offence(rank, a, b):
    """None when a may include b under rank, else why not."""
    ra, rb = rank.get(a), rank.get(b)
    if ra is None or rb is None or a == b:
        return None  # unlisted names are reported once, by the listing check
    if rb[0] < ra[0] or rb == ra:
        return None
    return f'{b} is a sibling of {a}' if rb[0] == ra[0] else f'{b} is above {a}'


class Tree:
    def __init__(self, root, include_dirs):
        self.root = root
        self.include_dirs = include_dirs
        self.files = []  # paths relative to root
        for top in ('src', 'tools'):
            for d, _, names in os.walk(os.path.join(root, top)):
                for n in sorted(names):
                    if n.endswith(SOURCE_EXT):
                        self.files.append(os.path.relpath(os.path.join(d, n), root))
        self.files.sort()
        self.edges = []  # (file, line number, included name, resolved path or None)
        for f in self.files:
            with open(os.path.join(root, f), errors='replace') as fh:
                for no, line in enumerate(fh, 1):
                    m = INCLUDE_RE.match(line)
                    if m:
                        self.edges.append((f, no, m.group(1), self.resolve(f, m.group(1))))

    def resolve(self, f, name):
        dirs = [os.path.join(self.root, os.path.dirname(f))]
        if f.startswith('src' + os.sep):
            dirs += self.include_dirs
        else:  # tools build against the installed headers only
            dirs.append(os.path.join(self.root, 'include'))
        for d in dirs:
            p = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(p):
                rel = os.path.relpath(p, self.root)
                return None if rel.startswith('..') else rel
        return None


def part_of(path):
    """src/emu/x.c -> 'emu'; anything else (include/...) -> None."""
    parts = path.split(os.sep)
    return parts[1] if parts[0] == 'src' and len(parts) > 2 else None


def check_includes(tree, layers, rep):
    part_rank = ranks(layers.get('src', []))
    api = [os.path.normpath(p) for g in layers.get('tools', []) for grp in g for p in grp]
    per_file = {}
    for f, no, name, to in tree.edges:
        where = f'{f}:{no}'
        offences = per_file.setdefault(f, [])
        if to is None:
            if not f.startswith('tools' + os.sep):
                print(f'NOTICE {where}: "{name}" is not in the tree (generated?): not checked')
            elif not name.startswith('visa/'):  # visa/version.h: a generated API header
                offences.append(f'{where}: tools include "{name}", which is not the public API')
            continue
        if f.startswith('tools' + os.sep):
            if os.path.dirname(to) != os.path.dirname(f) and os.path.dirname(to) not in api:
                offences.append(f'{where}: tools include {to}, which is not the public API')
            continue
        if to.startswith('tools' + os.sep):
            offences.append(f'{where}: the library includes {to} from tools/')
            continue
        pa, pb = part_of(f), part_of(to)
        if pa and pb:
            o = order_offence(part_rank, pa, pb)
            if o:
                offences.append(f'{where}: includes "{name}": part {o}')
    for f in tree.files:
        rep.check(per_file.get(f, []))


def module_edges(tree, directory):
    """The include graph between the modules of one directory: {module: {module: [where]}};
    a fragment's includes count for every module that includes it."""
    local = [e for e in tree.edges if os.path.dirname(e[0]) == directory and e[3] and
             os.path.dirname(e[3]) == directory]
    includers = {}  # fragment -> modules including it (directly or through other fragments)
    changed = True
    while changed:
        changed = False
        for f, _, _, to in local:
            if not is_fragment(to):
                continue
            src = includers.get(f, set()) if is_fragment(f) else {module_of(f)}
            have = includers.setdefault(to, set())
            if not src <= have:
                have |= src
                changed = True
    graph = {}
    for f, no, name, to in local:
        if is_fragment(to):
            continue
        froms = includers.get(f, set()) if is_fragment(f) else {module_of(f)}
        for a in froms:
            b = module_of(to)
            if a != b:
                graph.setdefault(a, {}).setdefault(b, []).append(f'{f}:{no}: includes "{name}"')
    modules = {module_of(f) for f in tree.files if os.path.dirname(f) == directory and not is_fragment(f)}
    return graph, modules


def circles(graph):
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, {})):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check_directories(tree, layers, rep):
    dirs = sorted({os.path.dirname(f) for f in tree.files})
    for d in dirs:
        graph, modules = module_edges(tree, d)
        offences = []
        for comp in circles(graph):
            inside = [w for a in comp for b in comp for w in graph.get(a, {}).get(b, [])]
            offences.append(f'{d}: a circle between modules {", ".join(comp)}: ' + '; '.join(inside))
        rep.check(offences)
        if d not in layers:
            continue
        rank = ranks(layers[d])
        rep.check([f'{d}: module {m} is not listed in [{d}] of the layers file'
                   for m in sorted(modules) if m not in rank])
        rep.check([f'{w}: module {o}' for a in sorted(graph) for b in sorted(graph[a])
                   for o in [order_offence(rank, a, b)] if o for w in graph[a][b]])
    parts = sorted({part_of(f) for f in tree.files if part_of(f)})
    rank = ranks(layers.get('src', []))
    rep.check([f'src: part {p} is not listed in [src] of the layers file' for p in parts if p not in rank])


def ctags_functions(root, files):
    """[(file, name, first line, last line)], or None without Universal Ctags."""
    exe = shutil.which('ctags')
    if not exe:
        return None
    ver = subprocess.run([exe, '--version'], capture_output=True, text=True).stdout
    if 'Universal Ctags' not in ver:
        return None
    out = subprocess.run([exe, '--sort=no', '--fields=+ne', '--c-kinds=f', '--languages=C',
                          '--langmap=C:.c.h', '-o', '-'] + files, cwd=root, capture_output=True,
                         text=True, check=True).stdout
    funcs = []
    for line in out.splitlines():
        cols = line.split('\t')
        fields = dict(c.split(':', 1) for c in cols[3:] if ':' in c)
        if 'line' in fields and 'end' in fields:
            funcs.append((cols[1], cols[0], int(fields['line']), int(fields['end'])))
    return funcs


def check_sizes(tree, layers, rep):
    limits = {g[0][0]: int(g[0][1]) for g in layers.get('limits', [])}
    max_file, max_fn = limits.get('file', 1500), limits.get('function', 150)
    for f in tree.files:
        with open(os.path.join(tree.root, f), errors='replace') as fh:
            n = sum(1 for _ in fh)
        rep.check([f'{f}: {n} lines, over {max_file}'] if n > max_file else [])
    code = [f for f in tree.files if f.endswith(('.c', '.h'))]
    funcs = ctags_functions(tree.root, code)
    if funcs is None:
        print('NOTICE: Universal Ctags (ctags) not found: function lengths not checked')
        return
    rep.check([f'{f}:{first}: function {name} is {last - first + 1} lines, over {max_fn}'
               for f, name, first, last in funcs if last - first + 1 > max_fn])


def main(argv):
    args, include = [], None
    it = iter(argv[1:])
    for a in it:
        if a == '--include':
            include = next(it, '')
        else:
            args.append(a)
    if not args or len(args) > 2:
        sys.exit(__doc__)
    root = os.path.abspath(args[0])
    layers_path = args[1] if len(args) > 1 else os.path.join(os.path.dirname(__file__), 'layers.txt')
    if include:
        dirs = [d for d in re.split(r'[;:]', include) if d]
    else:
        dirs = [os.path.join(root, d) for d in ('include', 'src', 'src/isa')]
    layers = read_layers(layers_path)
    tree = Tree(root, [os.path.abspath(os.path.join(root, d)) for d in dirs])
    rep = Report()
    check_includes(tree, layers, rep)
    check_directories(tree, layers, rep)
    check_sizes(tree, layers, rep)
    print(f'{rep.passed} passed, {rep.failed} failed')
    return 1 if rep.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

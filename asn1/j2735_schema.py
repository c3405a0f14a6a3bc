"""The user's SAE J2735 schema as both generators' preprocessors read it: asn1c/
j2735_for_asn1c.py (v2xcap's decoder) and asn2wrs/j2735_prep.py (the Wireshark plugin).
What the schema says is read here once: the files (BOM, UTF-8 or Latin-1, comments), the
modules, their IMPORTS (WITH SUCCESSORS too), information object classes and object sets,
placeholders (`::= NULL`), the names kept stable across editions, which module keeps a name
several modules define, and where an output line came from in the user's files. Each
generator's script keeps only what its generator needs written differently.

Names defined by several modules. Both generators put every module into one namespace, so a
name that several modules define keeps its plain name in at most one of them and becomes
Module-Name (module-name for a value) in the others, where it is defined and where it is
imported. Type names that differ only in case count as the same name: asn1c writes one C
file per type, which a case-insensitive file system merges, and j2735.SnapShot next to
j2735.Snapshot would be a filter-name trap. The plain name stays with the module of the
best rank when no other module has that rank:
  0. J2735's own modules (an object identifier with the arc 2735, or none: 2016's file),
  1. J2735's regional addition groups (AddGrp*),
  2. the other standards' modules a set bundles (J2540 ITIS, J2945/x, J3186, J3217, J3224,
     ISO 17573 EFC).
Why: the names users already have in filters, columns and JSON scripts are J2735's own
(2016 and 2020 hold nothing else but AddGrpB, whose four clashing names were always
renamed), so those keep them. Between two modules of the same rank (ManeuverID in J2945/6
CCM and J3186 MSCM) neither name is older; giving it to one, say the first alphabetically,
would let a later set that adds a module move the plain name to another type. So every copy
gets its module's name.
"""
import bisect
import os
import re

IDENT = r'[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*'
CLASSREF = r'[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*'
# Written next to each generator's input: its lines -> the user's files and lines.
ORIGINS = 'origins.tsv'
STABLE_NAMES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            'stable-member-names.txt')


class SchemaError(Exception):
    pass


def read_schema(path):
    """The file's text, without BOM and comments, ASCII only (2016 is UTF-8 with a BOM,
    2020 Latin-1); every line break kept, so that positions still tell the file's line."""
    raw = open(path, 'rb').read()
    try:
        text = raw.decode('utf-8-sig')
    except UnicodeDecodeError:
        text = raw.decode('latin-1')
    return strip_comments(text).encode('ascii', 'replace').decode('ascii')


def blank(text):
    """What replaces a removed piece: its line breaks, or a space."""
    return '\n' * text.count('\n') or ' '


def strip_comments(text):
    """Removes -- ... (to the next -- or the end of the line) and /* ... */ (X.680 12.6)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith('--', i):
            j = i + 2
            while j < n and text[j] != '\n' and not text.startswith('--', j):
                j += 1
            i = j + 2 if text.startswith('--', j) else j
            out.append(' ')
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


MODULE_RE = re.compile(r'(' + IDENT + r')\s*(\{[^{}]*\})?\s*DEFINITIONS([^:]*)::=\s*BEGIN(.*?)'
                       r'(?<![\w-])END(?![\w-])', re.S)


class Module:
    """One module: name, oid ('' if none), tagging (what DEFINITIONS says), path, body (the
    text between BEGIN and END without IMPORTS, EXPORTS, classes and object sets, lines
    kept), line (the file's line of the body's first line), imports [(names, module, oid)],
    classes {class: id type}, objsets {set: (class, [(type, id value)])}, names as the
    module spells them."""

    def __init__(self, m, path, text):
        self.name, self.oid, self.tagging = m.group(1), m.group(2) or '', m.group(3)
        self.path = path
        self.line = text.count('\n', 0, m.start(4)) + 1
        body = m.group(4)
        self.imports = []
        im = re.search(r'(?<![\w-])IMPORTS(?![\w-])(.*?);', body, re.S)
        if im:
            # X.680 (2021) selects successor versions of a module (2024 set): the plain
            # import says the same to both generators.
            clause = re.sub(r'(?<![\w-])WITH\s+(?:SUCCESSORS|DESCENDANTS)(?![\w-])', ' ',
                            im.group(1))
            clause = re.sub(r'\{\s*\}', ' ', clause)  # Name{} of a parameterised type
            for names, frm, oid in re.findall(r'((?:\s*' + IDENT + r'\s*,?)+?)\s*FROM\s+(' +
                                              IDENT + r')(\s*\{[^{}]*\})?', clause):
                self.imports.append((re.findall(IDENT, names), frm, oid.strip()))
            body = body[:im.start()] + blank(im.group(0)) + body[im.end():]
        body = re.sub(r'(?<![\w-])EXPORTS(?![\w-]).*?;', lambda e: blank(e.group(0)), body,
                      flags=re.S)
        self.classes, self.objsets = {}, {}
        body = re.sub(r'(' + CLASSREF + r')\s*::=\s*CLASS\s*\{([^{}]*)\}(?:\s*WITH\s+SYNTAX\s*'
                      r'\{[^{}]*\})?', self._class, body)
        body = re.sub(r'([A-Z]' + IDENT[8:] + r')\s+((?:' + IDENT + r'\.)?' + CLASSREF +
                      r')\s*::=\s*\{((?:[^{}]|\{[^{}]*\})*)\}', self._objset, body)
        self.body = body

    def _class(self, m):
        idtype = re.search(r'&id\s+((?:' + IDENT + r'\.)?' + IDENT + ')', m.group(2))
        if idtype:
            self.classes[m.group(1)] = idtype.group(1)
        return blank(m.group(0))

    def _objset(self, m):
        ref = r'((?:' + IDENT + r'\.)?' + IDENT + ')'
        rows = re.findall(r'\{\s*' + ref + r'\s+IDENTIFIED\s+BY\s+' + ref + r'\s*\}', m.group(3))
        self.objsets[m.group(1)] = (m.group(2), rows)
        return blank(m.group(0))

    def rank(self):
        """0: J2735's own, 1: its regional addition groups, 2: another standard's."""
        if self.name.startswith('AddGrp'):
            return 1
        return 0 if not self.oid or re.search(r'\(\s*2735\s*\)', self.oid) else 2

    def assignments(self):
        """[(file line, text)]: every assignment starts on a line holding '::='."""
        out = []
        for n, line in enumerate(self.body.split('\n'), self.line):
            if '::=' in line:
                out.append([n, line])
            elif out:
                out[-1][1] += '\n' + line
        return [(n, a.strip()) for n, a in out if a.strip()]

    def defined(self):
        """The names this module assigns (types, values), in order."""
        return re.findall(r'^\s*(' + IDENT + r')\s*(?:\{[^{}]*\}\s*)?(?:' + IDENT + r'\s*)?::=',
                          self.body, re.M)

    def placeholders(self):
        """Types the edition only reserves (`RoadGeometryAndAttributes ::= NULL`, 2024)."""
        return set(re.findall(r'^\s*(' + IDENT + r')\s*::=\s*NULL\s*$', self.body, re.M))

    def source(self, name):
        """The module `name` is imported from, or None."""
        return next((frm for names, frm, _ in self.imports if name in names), None)


def read_modules(paths):
    """The modules of the schema files, with the member names kept stable across editions
    (stable_member_names()) already written in."""
    stable = stable_member_names()
    modules = []
    for path in paths:
        text = read_schema(path)
        modules += [Module(m, path, text) for m in MODULE_RE.finditer(text)]
    if not modules:
        raise SchemaError('%s: no ASN.1 module (Name DEFINITIONS ::= BEGIN ... END)' %
                          ', '.join(paths))
    for mod in modules:
        keep_member_names(mod, stable)
    return modules


def renamed(modules):
    """{(module, name): new name} for the names defined in several modules (module doc)."""
    definers = {}
    for mod in modules:
        for name in mod.defined():
            key = name.lower() if name[0].isupper() else name
            definers.setdefault(key, []).append((mod, name))
    out = {}
    for defs in definers.values():
        if len(defs) < 2:
            continue
        best = min(mod.rank() for mod, _ in defs)
        keeper = [mod for mod, _ in defs if mod.rank() == best]
        for mod, name in defs:
            if len(keeper) > 1 or mod is not keeper[0]:
                prefix = mod.name if name[0].isupper() else mod.name[0].lower() + mod.name[1:]
                out[(mod.name, name)] = prefix + '-' + name
    return out


def scopes(modules, renames):
    """{module: {name as the module spells it: name in the merged namespace}} for the names
    it defines and imports that were renamed."""
    out = {}
    for mod in modules:
        mine = {n: renames[(mod.name, n)] for n in mod.defined() if (mod.name, n) in renames}
        for names, frm, _ in mod.imports:
            for n in names:
                if (frm, n) in renames:
                    mine.setdefault(n, renames[(frm, n)])
        out[mod.name] = mine
    return out


def resolve(renames, scope, ref):
    """A reference as a module spells it (Name or Module.Name) in the merged namespace."""
    if '.' in ref:
        src, name = ref.split('.', 1)
        return renames.get((src, name), name)
    return scope.get(ref, ref)


def stable_member_names():
    """{type: {member or named bit: kept name}} from stable-member-names.txt."""
    out = {}
    for line in open(STABLE_NAMES):
        words = line.split('#')[0].split()
        if words:
            out.setdefault(words[0], {})[words[1]] = words[2]
    return out


def keep_member_names(mod, stable):
    """A component (or named bit) an edition renamed keeps its kept name (a filter name, a
    JSON key): the identifier is not encoded, the bits stay the same."""
    lines = mod.body.split('\n')
    owner = None
    for i, line in enumerate(lines):
        m = re.match(r'\s*(' + IDENT + r')\s*::=', line)
        if '::=' in line:
            owner = m.group(1) if m else None
        for old, new in stable.get(owner, {}).items():
            # a component is followed by its type, a named bit by its number
            line = re.sub(r'(?<![\w.&-])%s(?=\s+[A-Z]|\s*\(\s*\d)' % re.escape(old), new, line)
        lines[i] = line
    mod.body = '\n'.join(lines)


def write_origins(path, rows):
    """rows: (output file name, output line, schema file, schema line): from that output
    line on, the lines are the schema's from that line on (until the next row)."""
    with open(path, 'w') as f:
        for out, out_line, src, src_line in rows:
            f.write('%s\t%d\t%s\t%d\n' % (out, out_line, src, src_line))


def locate(origins, message):
    """'FILE:LINE' in the user's schema for the first output file and line the message
    names (`X.asn:LINE`, or `line N` with the file or `module M` named), or None."""
    rows = {}
    for line in open(origins):
        out, out_line, src, src_line = line.rstrip('\n').split('\t')
        rows.setdefault(out, []).append((int(out_line), src, int(src_line)))
    text = ' '.join(message.split())
    m = re.search(r'([^\s"():]+\.asn):(\d+)', text)
    if m:
        out, line = os.path.basename(m.group(1)), int(m.group(2))
    else:
        n = re.search(r'line (\d+)', text)
        mod = re.search(r'module (' + IDENT + ')', text)
        named = [os.path.basename(f) for f in re.findall(r'([^\s"():]+\.asn)\b', text)]
        out = next((f for f in named if f in rows),
                   mod.group(1) + '.asn' if mod else None)
        if not n or out not in rows:
            return None
        line = int(n.group(1))
    if out not in rows:
        return None
    starts = sorted(rows[out])
    i = bisect.bisect_right([s[0] for s in starts], line) - 1
    if i < 0:
        return None
    out_line, src, src_line = starts[i]
    return '%s:%d' % (src, src_line + line - out_line)

#!/usr/bin/python3
"""Turns the user's SAE J2735 schema (the 2016 single file, the 2020 split modules or the
2024 set with its J2540/J2945/J3217/J3224/ISO 17573 modules) into one ASN.1 module that
asn2wrs digests, plus a .cnf fragment and C tables generated from it. Runs at build time;
everything it writes goes into the build tree.

usage: j2735_prep.py OUTDIR SCHEMA.asn...
writes OUTDIR/j2735.asn, OUTDIR/j2735-gen.cnf, OUTDIR/j2735-gen-tables.c,
OUTDIR/j2735-gen-sets.c and OUTDIR/j2735.asn.lines (where each module of j2735.asn comes
from: merged line, line in the user's file, the file), for error messages.
"""
import re
import sys

IDENT = r'[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*'
CLASSREF = r'[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*'
# The one class asn2wrs is told about (j2735.cnf): every information object class of the
# schema is reduced to it, the id field becoming the class's id type.
OPEN = 'OPEN-TYPE-CLASS.&Type'
# Tables the object sets of a class are dispatched through, and what their ids are called.
SET_KINDS = {'REG-EXT-ID-AND-TYPE': ('regext', 'region id'),
             'PARTII-EXT-ID-AND-TYPE': ('partii', 'part II id')}
MESSAGE_CLASS = 'MESSAGE-ID-AND-TYPE'


def read_text(path):
    """The schemas come as UTF-8 with a BOM (2016) or Latin-1 (2020); keep ASCII only."""
    raw = open(path, 'rb').read()
    try:
        text = raw.decode('utf-8-sig')
    except UnicodeDecodeError:
        text = raw.decode('latin-1')
    return text.encode('ascii', 'replace').decode('ascii')


def blank(text):
    """What replaces a removed piece: its line breaks, so that lines keep their numbers."""
    return '\n' * text.count('\n') or ' '


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: blank(m.group(0)), text, flags=re.S)
    out = []
    for line in text.split('\n'):
        # "--" opens a comment that ends at the next "--" or at the end of the line
        parts = line.split('--')
        out.append(' '.join(parts[0::2]))
    return '\n'.join(out)


def split_modules(text):
    """[(name, object identifier or '', body, line of the body)]."""
    pat = re.compile(r'(' + IDENT + r')\s*(\{[^{}]*\}\s*)?DEFINITIONS[^:]*::=\s*BEGIN(.*?)'
                     r'(?<![\w-])END(?![\w-])', re.S)
    return [(m.group(1), m.group(2) or '', m.group(3), text.count('\n', 0, m.start(3)) + 1)
            for m in pat.finditer(text)]


def module_tier(name, oid):
    """Which module keeps a type name several modules define: J2735's own (0), then its
    regional add-on groups (1), then other standards' modules that the 2024 set bundles
    (J2540 ITIS, J2945/x, J3217, J3224, ISO 17573: an object identifier without 2735)."""
    if name.startswith('AddGrp'):
        return 1
    if oid and not re.search(r'\(\s*2735\s*\)', oid):
        return 2
    return 0


def take_imports(body):
    """Removes IMPORTS/EXPORTS; returns (body, {name: source module})."""
    imports = {}
    m = re.search(r'(?<![\w-])IMPORTS(.*?);', body, re.S)
    if m:
        clause = re.sub(r'\{[^{}]*\}', ' ', m.group(1))
        clause = re.sub(r'(?<![\w-])WITH\s+(?:SUCCESSORS|DESCENDANTS)(?![\w-])', ' ', clause)
        for names, mod in re.findall(r'((?:' + IDENT + r'\s*,?\s*)+?)\s*FROM\s+(' + IDENT + ')',
                                     clause):
            for n in re.findall(IDENT, names):
                imports[n] = mod
        body = body[:m.start()] + blank(m.group(0)) + body[m.end():]
    body = re.sub(r'(?<![\w-])EXPORTS.*?;', lambda e: blank(e.group(0)), body, flags=re.S)
    return body, imports


def take_classes(body):
    """Drops the class definitions and the object sets; returns (body, {class: id type},
    {set: (class, [(type, id name)])}), names as the module spells them."""
    classes = {}

    def record_class(m):
        idtype = re.search(r'&id\s+(' + IDENT + ')', m.group(2))
        if idtype:
            classes[m.group(1)] = idtype.group(1)
        return blank(m.group(0))
    body = re.sub(r'(' + CLASSREF + r')\s*::=\s*CLASS\s*\{([^{}]*)\}\s*WITH\s+SYNTAX\s*'
                  r'\{[^{}]*\}', record_class, body)
    objsets = {}

    def record_set(m):
        rows = re.findall(r'\{\s*((?:' + IDENT + r'\.)?' + IDENT + r')\s+IDENTIFIED\s+BY\s+((?:'
                          + IDENT + r'\.)?' + IDENT + r')\s*\}', m.group(3))
        objsets[m.group(1)] = (m.group(2), rows)
        return blank(m.group(0))
    body = re.sub(r'([A-Z]' + IDENT[8:] + r')\s+((?:' + IDENT + r'\.)?' + CLASSREF +
                  r')\s*::=\s*\{((?:[^{}]|\{[^{}]*\})*)\}', record_set, body)
    return body, classes, objsets


def defined_names(body):
    return re.findall(r'^\s*(' + IDENT + r')\s*(?:\{[^{}]*\}\s*)?(?:' + IDENT + r'\s*)?::=',
                      body, re.M)


class Schema:
    """The modules merged into one namespace. A name defined in several modules keeps its
    name in the module that ranks first (module_tier, then the number of modules importing
    it from there); the others become Module-Name (module-name for values). When no module
    ranks first, every definition is renamed: the name stays apart per module."""

    def __init__(self, modules):
        self.mods = []
        for name, oid, body, path, line in modules:
            body, imports = take_imports(body)
            body, classes, objsets = take_classes(body)
            self.mods.append({'name': name, 'tier': module_tier(name, oid), 'body': body,
                              'path': path, 'line': line,
                              'imports': imports, 'classes': classes, 'objsets': objsets})
        importers = {}
        for m in self.mods:
            for n, src in m['imports'].items():
                importers[(src, n)] = importers.get((src, n), 0) + 1
        tiers = {m['name']: m['tier'] for m in self.mods}
        definers = {}
        for m in self.mods:
            for n in defined_names(m['body']):
                definers.setdefault(n, []).append(m['name'])
        self.renamed = {}
        for n, mods in definers.items():
            if len(mods) < 2:
                continue
            rank = {mod: (-tiers[mod], importers.get((mod, n), 0)) for mod in mods}
            best = max(rank.values())
            owners = [mod for mod in mods if rank[mod] == best]
            for mod in mods:
                if mod != owners[0] or len(owners) > 1:
                    prefix = mod if n[0].isupper() else mod[0].lower() + mod[1:]
                    self.renamed[(mod, n)] = prefix + '-' + n
        self.byname = {m['name']: m for m in self.mods}

    def resolve(self, mod, name):
        return self.renamed.get((mod, name), name)

    def ref(self, m, word):
        """A reference as module m spells it, turned into its merged name."""
        if '.' in word:
            src, n = word.split('.', 1)
            return self.resolve(src, n)
        if word in m['local']:
            return m['local'][word]
        return word

    def class_of(self, m, cls):
        """(defining module, class name) of a class referenced in m."""
        src, _, cls = cls.rpartition('.')
        if not src and cls in m['classes']:
            return m['name'], cls
        src = src or m['imports'].get(cls)
        if src in self.byname and cls in self.byname[src]['classes']:
            return src, cls
        sys.exit('j2735_prep: module %s uses class %s, defined nowhere' % (m['name'], cls))

    def merge(self):
        """The merged module text; fills self.sets and self.holders."""
        self.sets = {}     # set -> (class name, id type, [(type, id name)]), merged names
        self.holders = {}  # parameterised type -> class name, merged names
        out = []
        for m in self.mods:
            mod = m['name']
            m['local'] = {n: self.resolve(mod, n) for n in defined_names(m['body'])}
            for n, src in m['imports'].items():
                m['local'].setdefault(n, self.resolve(src, n))
            body = re.sub(r'(?<![\w&-])' + IDENT + r'(?:\.' + IDENT + r')?(?![\w-])',
                          lambda w: self.ref(m, w.group(0)), m['body'])

            def idtype(cls):
                src, name = self.class_of(m, cls)
                return self.resolve(src, self.byname[src]['classes'][name])

            # Class fields become plain references; the object set constraints go away.
            cons = r'(?:\s*\(\s*\{[^{}]*\}\s*(?:\{[^{}]*\}\s*)?\))?'
            body = re.sub(r'((?:' + IDENT + r'\.)?' + CLASSREF + r')\.&id' + cons,
                          lambda c: idtype(c.group(1)), body)
            body = re.sub(r'(?:' + IDENT + r'\.)?' + CLASSREF + r'\.&Type' + cons, OPEN, body)

            # Types parameterised by an object set lose the parameter: dispatch is by id.
            def holder(h):
                self.holders[h.group(1)] = self.class_of(m, h.group(2))[1]
                return h.group(1) + ' ::='
            body = re.sub(r'(' + IDENT + r')\s*\{\s*((?:' + IDENT + r'\.)?' + CLASSREF +
                          r')\s*:\s*' + IDENT + r'\s*\}\s*::=', holder, body)
            for setname, (cls, rows) in m['objsets'].items():
                src, name = self.class_of(m, cls)
                self.sets[setname] = (name, idtype(cls),
                                      [(self.ref(m, t), self.ref(m, i)) for t, i in rows])
            m['merged'] = body
            out.append(body)
        text = '\n'.join(out)
        self.uses = holder_uses(text, self.holders)
        return re.sub(r'(' + '|'.join(map(re.escape, self.holders)) +
                      r')\s*\{\{\s*' + IDENT + r'\s*\}\}', r'\1', text) if self.holders else text


def holder_uses(text, holders):
    """[(type, holder, set)]: each `Holder {{Set}}` with the type whose definition holds it,
    in schema order."""
    if not holders:
        return []
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r'^\s*(' + IDENT + r')\s*::=', text, re.M)]
    uses = []
    for m in re.finditer(r'(' + '|'.join(map(re.escape, holders)) + r')\s*\{\{\s*(' + IDENT +
                         r')\s*\}\}', text):
        owner = [name for pos, name in starts if pos < m.start()]
        row = (owner[-1], m.group(1), m.group(2))
        if owner and row not in uses:
            uses.append(row)
    return uses


def unreachable(text, roots):
    """The type assignments that no root type refers to, directly or not (MessageFrame
    aside: j2735.cnf omits it itself)."""
    starts = [(m.start(), m.group(1), m.group(2)) for m in
              re.finditer(r'^\s*(' + IDENT + r')\s*(' + IDENT + r'\s*)?::=', text, re.M)]
    bodies = {}
    for i, (pos, name, valtype) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
        if not valtype and name[0].isupper():
            bodies[name] = text[text.index('::=', pos) + 3:end]
    seen, todo = set(), [r for r in roots if r in bodies]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        words = set(re.findall(r'(?<![\w&-])' + IDENT + r'(?![\w-])', bodies[name]))
        todo += [w for w in words if w in bodies and w not in seen]
    return [n for n in bodies if n not in seen and n != 'MessageFrame']


def type_body(text, typ):
    m = re.search(r'^\s*' + re.escape(typ) + r'\s*::=\s*(\S+)', text, re.M)
    return m.group(1) if m else None


def dispatch(schema, text):
    """Which type makes each object set current (numbered from 1): a holder used with one
    set makes it current itself (PartIIcontent); a holder used with many (RegionalExtension)
    has the type holding it do so. [(entering type, set)], [set]."""
    per_holder = {}
    for _, h, s in schema.uses:
        per_holder.setdefault(h, set()).add(s)
    enter, sets = [], []
    for typ, h, s in schema.uses:
        row = (h if len(per_holder[h]) == 1 else typ, s)
        clash = [e for e in enter if e[0] == row[0] and e[1] != s]
        if clash:
            sys.exit('j2735_prep: %s holds open types of two object sets (%s, %s)'
                     % (row[0], clash[0][1], s))
        if row not in enter:
            enter.append(row)
        if s not in sets:
            sets.append(s)
    return enter, sorted(sets)


def main():
    outdir, paths = sys.argv[1], sys.argv[2:]
    modules = []
    for p in paths:
        modules += [m + (p,) for m in split_modules(strip_comments(read_text(p)))]
    schema = Schema([(n, oid, body, p, line) for n, oid, body, line, p in modules])
    text = schema.merge()
    with open(outdir + '/j2735.asn.lines', 'w') as f:
        at = 3  # the merged text starts after two header lines
        for m in schema.mods:
            f.write('%d\t%d\t%s\n' % (at, m['line'], m['path']))
            at += m['merged'].count('\n') + 1
    with open(outdir + '/j2735.asn', 'w') as f:
        f.write('-- generated at build time from the user\'s SAE J2735 schema; do not ship\n')
        f.write('J2735 DEFINITIONS AUTOMATIC TAGS ::= BEGIN\n')
        f.write(text)
        f.write('\nEND\n')
    write_tables(outdir, schema, text)


def write_tables(outdir, schema, text):
    enter, used_sets = dispatch(schema, text)
    idtypes = sorted({idt for _, idt, _ in schema.sets.values()})
    values = dict(re.findall(r'(' + IDENT + r')\s+(?:' + '|'.join(map(re.escape, idtypes)) +
                             r')\s*::=\s*(\d+)', text)) if idtypes else {}
    idtypes = sorted({schema.sets[s][1] for s in used_sets})
    msgs, registered = [], []
    for setname, (cls, _, rows) in sorted(schema.sets.items()):
        for typ, idname in rows:
            if idname not in values or not type_body(text, typ):
                continue
            row = (int(values[idname]), typ, setname)
            if cls == MESSAGE_CLASS:
                msgs.append(row)
            elif setname in used_sets:
                registered.append(row)
    # Placeholders (`RoadGeometryAndAttributes ::= NULL` in 2024): named, nothing to decode.
    placeholders = [m for m in msgs if type_body(text, m[1]) == 'NULL']
    pdus = sorted({r[1] for r in msgs + registered if r not in placeholders})
    unused = unreachable(text, pdus)
    tables = {s: '%s.%s' % (SET_KINDS.get(schema.sets[s][0], ('ext', ''))[0], s)
              for s in used_sets}
    with open(outdir + '/j2735-gen.cnf', 'w') as f:
        # types no PDU reaches (DDate, URL-Link, AddGrpB's own Angle, ...): not emitted
        f.write('#.OMIT_ASSIGNMENT\n')
        for t in unused:
            f.write(t + '\n')
        f.write('#.PDU\n')
        for t in pdus:
            f.write(t + '\n')
        f.write('#.REGISTER\n')
        for rid, typ, setname in registered:
            f.write('%s N j2735.%s %d\n' % (typ, tables[setname], rid))
        # The id of an open type is noted before its value is dissected by that id.
        f.write('#.FN_PARS\n')
        for idt in idtypes:
            if idt not in unused:
                f.write('%s VAL_PTR=&j2735_open_get(actx->pinfo)->id\n' % idt)
        for h in sorted(schema.holders):
            comp = re.search(r'^\s*' + re.escape(h) + r'\s*::=\s*SEQUENCE\s*\{[^{}]*?(' + IDENT
                             + r')\s+' + re.escape(OPEN), text, re.M)
            if comp and h not in unused:
                f.write('%s/%s FN_VARIANT=_pdu_new TYPE_REF_FN=j2735_dissect_open_value\n'
                        % (h, comp.group(1)))
        for typ, setname in enter:
            if typ in unused:
                continue
            f.write('\n#.FN_HDR %s\n' % typ)
            f.write('  const guint j2735_open_outer = j2735_open_enter(actx->pinfo, %d);\n'
                    % (used_sets.index(setname) + 1))
            f.write('#.FN_FTR %s\n' % typ)
            f.write('  j2735_open_leave(actx->pinfo, j2735_open_outer);\n')
        f.write('#.END\n')
    with open(outdir + '/j2735-gen-tables.c', 'w') as f:
        f.write('/* generated at build time from the user\'s SAE J2735 schema */\n')
        f.write('static const struct j2735_msg_pdu j2735_msg_pdus[] = {\n')
        for row in sorted(msgs):
            mid, typ, _ = row
            fn = 'NULL' if row in placeholders else 'dissect_%s_PDU' % typ.replace('-', '_')
            f.write('\t{ %d, "%s", %s },\n' % (mid, typ, fn))
        f.write('\t{ 0, NULL, NULL }\n};\n')
    with open(outdir + '/j2735-gen-sets.c', 'w') as f:
        f.write('/* generated at build time from the user\'s SAE J2735 schema */\n')
        f.write('/* The object sets of the open types, numbered from 1 (0: none): the dissector\n'
                ' * table each is dispatched through, and what its ids are. */\n')
        f.write('static const struct j2735_open_set j2735_open_sets[] = {\n\t{ NULL, NULL },\n')
        for s in used_sets:
            what = SET_KINDS.get(schema.sets[s][0], ('', 'id'))[1]
            f.write('\t{ "j2735.%s", "%s %s" },\n' % (tables[s], s, what))
        f.write('};\n')


if __name__ == '__main__':
    main()

#!/usr/bin/python3
"""Turns the user's SAE J2735 schema (the 2016 single file, the 2020 split modules or the
2024 set with its J2540/J2945/J3217/J3224/ISO 17573 modules) into one ASN.1 module that
asn2wrs digests, plus a .cnf fragment and C tables generated from it. What the schema says
(modules, imports, classes and object sets, names kept across editions, which module keeps a
name several define) is read by ../j2735_schema.py, shared with v2xcap's asn1c
preprocessing; here the modules are merged into asn2wrs's one module. Runs at build time;
everything it writes goes into the build tree.

usage: j2735_prep.py OUTDIR SCHEMA.asn...
writes OUTDIR/j2735.asn, OUTDIR/j2735-gen.cnf, OUTDIR/j2735-gen-tables.c,
OUTDIR/j2735-gen-sets.c and OUTDIR/origins.tsv (where each module of j2735.asn comes from,
j2735_schema.write_origins), for error messages.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import j2735_schema as schema  # noqa: E402  (asn1/j2735_schema.py: what the schema says)
from j2735_schema import IDENT, CLASSREF  # noqa: E402

# The one class asn2wrs is told about (j2735.cnf): every information object class of the
# schema is reduced to it, the id field becoming the class's id type.
OPEN = 'OPEN-TYPE-CLASS.&Type'
# Tables the object sets of a class are dispatched through, and what their ids are called.
SET_KINDS = {'REG-EXT-ID-AND-TYPE': ('regext', 'region id'),
             'PARTII-EXT-ID-AND-TYPE': ('partii', 'part II id')}
MESSAGE_CLASS = 'MESSAGE-ID-AND-TYPE'


class Schema:
    """The modules merged into one namespace (asn2wrs reads one module), with the names
    several modules define renamed as j2735_schema.renamed() says."""

    def __init__(self, modules):
        self.mods = modules
        self.renamed = schema.renamed(modules)
        self.scopes = schema.scopes(modules, self.renamed)
        self.byname = {m.name: m for m in modules}
        self.placeholders = {self.ref(m, p) for m in modules for p in m.placeholders()}

    def ref(self, m, word):
        """A reference as module m spells it, turned into its merged name."""
        return schema.resolve(self.renamed, self.scopes[m.name], word)

    def class_of(self, m, cls):
        """(defining module, class name) of a class referenced in m."""
        src, _, cls = cls.rpartition('.')
        if not src and cls in m.classes:
            return m.name, cls
        src = src or m.source(cls)
        if src in self.byname and cls in self.byname[src].classes:
            return src, cls
        raise schema.SchemaError('module %s uses class %s, defined nowhere' % (m.name, cls))

    def merge(self):
        """The merged module text; fills self.sets, self.holders and self.merged (the
        merged body of each module)."""
        self.sets = {}     # set -> (class name, id type, [(type, id name)]), merged names
        self.holders = {}  # parameterised type -> class name, merged names
        self.merged = []
        for m in self.mods:
            body = re.sub(r'(?<![\w&-])' + IDENT + r'(?:\.' + IDENT + r')?(?![\w-])',
                          lambda w: self.ref(m, w.group(0)), m.body)

            def idtype(cls):
                src, name = self.class_of(m, cls)
                return self.ref(self.byname[src], self.byname[src].classes[name])

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
            for setname, (cls, rows) in m.objsets.items():
                src, name = self.class_of(m, cls)
                self.sets[setname] = (name, idtype(cls),
                                      [(self.ref(m, t), self.ref(m, i)) for t, i in rows])
            self.merged.append(body)
        text = '\n'.join(self.merged)
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


def dispatch(merged):
    """Which type makes each object set current (numbered from 1): a holder used with one
    set makes it current itself (PartIIcontent); a holder used with many (RegionalExtension)
    has the type holding it do so. [(entering type, set)], [set]."""
    per_holder = {}
    for _, h, s in merged.uses:
        per_holder.setdefault(h, set()).add(s)
    enter, sets = [], []
    for typ, h, s in merged.uses:
        row = (h if len(per_holder[h]) == 1 else typ, s)
        clash = [e for e in enter if e[0] == row[0] and e[1] != s]
        if clash:
            raise schema.SchemaError('%s holds open types of two object sets (%s, %s)'
                                     % (row[0], clash[0][1], s))
        if row not in enter:
            enter.append(row)
        if s not in sets:
            sets.append(s)
    return enter, sorted(sets)


def main():
    outdir, paths = sys.argv[1], sys.argv[2:]
    merged = Schema(schema.read_modules(paths))
    text = merged.merge()
    at = 3  # the merged text starts after two header lines
    origins = []
    for m, body in zip(merged.mods, merged.merged):
        origins.append(('j2735.asn', at, m.path, m.line))
        at += body.count('\n') + 1
    schema.write_origins(os.path.join(outdir, schema.ORIGINS), origins)
    with open(outdir + '/j2735.asn', 'w') as f:
        f.write('-- generated at build time from the user\'s SAE J2735 schema; do not ship\n')
        f.write('J2735 DEFINITIONS AUTOMATIC TAGS ::= BEGIN\n')
        f.write(text)
        f.write('\nEND\n')
    write_tables(outdir, merged, text)


def write_tables(outdir, merged, text):
    enter, used_sets = dispatch(merged)
    idtypes = sorted({idt for _, idt, _ in merged.sets.values()})
    values = dict(re.findall(r'(' + IDENT + r')\s+(?:' + '|'.join(map(re.escape, idtypes)) +
                             r')\s*::=\s*(\d+)', text)) if idtypes else {}
    idtypes = sorted({merged.sets[s][1] for s in used_sets})
    msgs, registered = [], []
    for setname, (cls, _, rows) in sorted(merged.sets.items()):
        for typ, idname in rows:
            if idname not in values or not type_body(text, typ):
                continue
            row = (int(values[idname]), typ, setname)
            if cls == MESSAGE_CLASS:
                msgs.append(row)
            elif setname in used_sets:
                registered.append(row)
    # Placeholders (`RoadGeometryAndAttributes ::= NULL` in 2024): named, nothing to decode.
    placeholders = [m for m in msgs if m[1] in merged.placeholders]
    pdus = sorted({r[1] for r in msgs + registered if r not in placeholders})
    unused = unreachable(text, pdus)
    tables = {s: '%s.%s' % (SET_KINDS.get(merged.sets[s][0], ('ext', ''))[0], s)
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
        for h in sorted(merged.holders):
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
            what = SET_KINDS.get(merged.sets[s][0], ('', 'id'))[1]
            f.write('\t{ "j2735.%s", "%s %s" },\n' % (tables[s], s, what))
        f.write('};\n')


if __name__ == '__main__':
    try:
        main()
    except (schema.SchemaError, OSError) as e:
        sys.exit('j2735_prep: %s' % e)

#!/usr/bin/python3
"""Turns the user's SAE J2735 schema (2016 single file or 2020 split modules) into one
ASN.1 module that asn2wrs digests, plus a .cnf fragment and a C table generated from it.
Runs at build time; everything it writes goes into the build tree.

usage: j2735_prep.py OUTDIR SCHEMA.asn...
writes OUTDIR/j2735.asn, OUTDIR/j2735-gen.cnf, OUTDIR/j2735-gen-tables.c,
OUTDIR/j2735-gen-regext.c
"""
import re
import sys

IDENT = r'[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*'
CLASSES = ('MESSAGE-ID-AND-TYPE', 'REG-EXT-ID-AND-TYPE', 'PARTII-EXT-ID-AND-TYPE')


def read_text(path):
    """The schemas come as UTF-8 with a BOM (2016) or Latin-1 (2020); keep ASCII only."""
    raw = open(path, 'rb').read()
    try:
        text = raw.decode('utf-8-sig')
    except UnicodeDecodeError:
        text = raw.decode('latin-1')
    return text.encode('ascii', 'replace').decode('ascii')


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    out = []
    for line in text.split('\n'):
        # "--" opens a comment that ends at the next "--" or at the end of the line
        parts = line.split('--')
        out.append(' '.join(parts[0::2]))
    return '\n'.join(out)


def split_modules(text):
    pat = re.compile(r'(' + IDENT + r')\s*(?:\{[^{}]*\}\s*)?DEFINITIONS[^:]*::=\s*BEGIN(.*?)'
                     r'(?<![\w-])END(?![\w-])', re.S)
    return [(m.group(1), m.group(2)) for m in pat.finditer(text)]


def take_imports(body):
    """Removes IMPORTS/EXPORTS; returns (body, {name: source module})."""
    imports = {}
    m = re.search(r'(?<![\w-])IMPORTS(.*?);', body, re.S)
    if m:
        clause = re.sub(r'\{[^{}]*\}', ' ', m.group(1))
        for names, mod in re.findall(r'((?:' + IDENT + r'\s*,?\s*)+?)\s*FROM\s+(' + IDENT + ')',
                                     clause):
            for n in re.findall(IDENT, names):
                imports[n] = mod
        body = body[:m.start()] + body[m.end():]
    body = re.sub(r'(?<![\w-])EXPORTS.*?;', ' ', body, flags=re.S)
    return body, imports


def take_classes(body, objsets):
    """Drops the class definitions and the object sets (recorded in objsets)."""
    body = re.sub(r'(' + IDENT + r')\s*::=\s*CLASS\s*\{[^{}]*\}\s*WITH\s+SYNTAX\s*\{[^{}]*\}',
                  ' ', body)
    cls = r'(?:' + IDENT + r'\.)?(?:' + '|'.join(CLASSES) + ')'
    pat = re.compile(r'(' + IDENT + r')\s+(' + cls + r')\s*::=\s*\{((?:[^{}]|\{[^{}]*\})*)\}')

    def record(m):
        rows = re.findall(r'\{\s*((?:' + IDENT + r'\.)?' + IDENT + r')\s+IDENTIFIED\s+BY\s+((?:'
                          + IDENT + r'\.)?' + IDENT + r')\s*\}', m.group(3))
        objsets[m.group(1)] = (m.group(2).split('.')[-1], rows)
        return ' '
    return pat.sub(record, body)


def defined_names(body):
    return re.findall(r'^\s*(' + IDENT + r')\s*(?:\{[^{}]*\}\s*)?(?:' + IDENT + r'\s*)?::=',
                      body, re.M)


def main():
    outdir, paths = sys.argv[1], sys.argv[2:]
    modules = []
    for p in paths:
        modules += split_modules(strip_comments(read_text(p)))
    objsets = {}
    parsed = []
    for name, body in modules:
        body, imports = take_imports(body)
        body = take_classes(body, objsets)
        parsed.append((name, body, imports))

    # A name defined in more than one module keeps it in a core module (not a regional
    # AddGrp one), the one most others import it from; the others become Module-Name.
    importers = {}
    for _, _, imports in parsed:
        for n, src in imports.items():
            importers[(src, n)] = importers.get((src, n), 0) + 1
    definers = {}
    for mod, body, _ in parsed:
        for n in defined_names(body):
            definers.setdefault(n, []).append(mod)
    renamed = {}
    for n, mods in definers.items():
        owner = max(mods, key=lambda m: (not m.startswith('AddGrp'), importers.get((m, n), 0)))
        for mod in mods:
            if mod != owner:
                renamed[(mod, n)] = mod + '-' + n

    def resolve(mod, name):
        return renamed.get((mod, name), name)

    merged = []
    for mod, body, imports in parsed:
        local = {n: resolve(mod, n) for n in defined_names(body)}
        for n, src in imports.items():
            local.setdefault(n, resolve(src, n))

        def ref(m):
            word = m.group(0)
            if '.' in word and not word.split('.')[1].startswith('&'):
                src, n = word.split('.', 1)
                return resolve(src, n)
            return local.get(word, word)
        body = re.sub(r'(?<![\w&-])' + IDENT + r'(?:\.' + IDENT + r')?(?![\w-])', ref, body)
        merged.append(body)
    text = '\n'.join(merged)

    regext_users = regional_users(text)

    # Class fields become plain references; the object set constraints go away.
    text = re.sub(r'(' + '|'.join(CLASSES) + r')\.&(id|Type)\s*\(\s*\{[^{}]*\}\s*(?:\{[^{}]*\}\s*)?\)',
                  r'\1.&\2', text)
    # RegionalExtension and PartIIcontent lose their parameter: dispatch is by id.
    text = re.sub(r'(RegionalExtension|PartIIcontent)\s*\{\s*(' + '|'.join(CLASSES)
                  + r')\s*:\s*' + IDENT + r'\s*\}\s*::=', r'\1 ::=', text)
    text = re.sub(r'(RegionalExtension|PartIIcontent)\s*\{\{\s*' + IDENT + r'\s*\}\}', r'\1', text)

    with open(outdir + '/j2735.asn', 'w') as f:
        f.write('-- generated at build time from the user\'s SAE J2735 schema; do not ship\n')
        f.write('J2735 DEFINITIONS AUTOMATIC TAGS ::= BEGIN\n')
        f.write(text)
        f.write('\nEND\n')
    write_tables(outdir, text, objsets, regext_users)


def regional_users(text):
    """[(type, object set)]: the type whose definition holds each `RegionalExtension
    {{Reg-X}}`, in schema order. That type's code sets the dissector table the regional
    extension values are dispatched through (one table per object set)."""
    starts = [(m.start(), m.group(1)) for m in
              re.finditer(r'^\s*(' + IDENT + r')\s*::=', text, re.M)]
    users = []
    for m in re.finditer(r'RegionalExtension\s*\{\{\s*(' + IDENT + r')\s*\}\}', text):
        owner = [name for pos, name in starts if pos < m.start()]
        if not owner:
            continue
        row = (owner[-1], m.group(1))
        if row[0] in [u[0] for u in users if u != row]:
            sys.exit('j2735_prep: %s holds regional extensions of two sets' % row[0])
        if row not in users:
            users.append(row)
    return users


# The type of each class's id field, which a `CLASS.&id` component refers to.
CLASS_ID_TYPES = {'MESSAGE-ID-AND-TYPE': 'DSRCmsgID', 'REG-EXT-ID-AND-TYPE': 'RegionId',
                  'PARTII-EXT-ID-AND-TYPE': 'PartII-Id'}


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
        body = bodies[name]
        words = set(re.findall(r'(?<![\w&-])' + IDENT + r'(?![\w-])', body))
        words |= {t for c, t in CLASS_ID_TYPES.items() if c + '.&id' in body}
        todo += [w for w in words if w in bodies and w not in seen]
    return [n for n in bodies if n not in seen and n != 'MessageFrame']


def write_tables(outdir, text, objsets, regext_users):
    values = dict(re.findall(r'(' + IDENT + r')\s+(?:DSRCmsgID|RegionId|PartII-Id)\s*::=\s*(\d+)',
                             text))
    msgs, parts, regexts = [], [], []
    for setname, (cls, rows) in sorted(objsets.items()):
        for typ, idname in rows:
            typ, idname = typ.split('.')[-1], idname.split('.')[-1]
            if idname not in values:
                continue
            row = (int(values[idname]), typ, setname)
            {'MESSAGE-ID-AND-TYPE': msgs, 'PARTII-EXT-ID-AND-TYPE': parts,
             'REG-EXT-ID-AND-TYPE': regexts}[cls].append(row)

    def defined(typ):
        return re.search(r'(?<![\w-])' + re.escape(typ) + r'\s*::=\s*(?!NULL)', text)
    msgs = [m for m in msgs if defined(m[1])]
    # A regional extension's type depends on the enclosing set: one dissector table per
    # set (j2735.regext.<set>), chosen by the type that holds the regional field.
    regsets = sorted({s for _, s in regext_users})
    regexts = [r for r in regexts if r[2] in regsets and defined(r[1])]
    unused = unreachable(text, {r[1] for r in msgs + parts + regexts})
    with open(outdir + '/j2735-gen.cnf', 'w') as f:
        # types no PDU reaches (DDate, URL-Link, AddGrpB's own Angle, ...): not emitted
        f.write('#.OMIT_ASSIGNMENT\n')
        for t in unused:
            f.write(t + '\n')
        f.write('#.PDU\n')
        for t in sorted({r[1] for r in msgs + parts + regexts}):
            f.write(t + '\n')
        f.write('#.REGISTER\n')
        for pid, typ, _ in parts:
            f.write('%s N j2735.partii %d\n' % (typ, pid))
        for rid, typ, setname in regexts:
            f.write('%s N j2735.regext.%s %d\n' % (typ, setname, rid))
        f.write('#.END\n')
        for typ, setname in [u for u in regext_users if u[0] not in unused]:
            f.write('\n#.FN_HDR %s\n' % typ)
            f.write('  const guint j2735_regext_outer = j2735_regext_enter(actx->pinfo, %d);\n'
                    % (regsets.index(setname) + 1))
            f.write('#.FN_FTR %s\n' % typ)
            f.write('  j2735_regext_leave(actx->pinfo, j2735_regext_outer);\n')
        f.write('#.END\n')
    with open(outdir + '/j2735-gen-tables.c', 'w') as f:
        f.write('/* generated at build time from the user\'s SAE J2735 schema */\n')
        f.write('static const struct j2735_msg_pdu j2735_msg_pdus[] = {\n')
        for mid, typ, _ in sorted(msgs):
            f.write('\t{ %d, "%s", dissect_%s_PDU },\n' % (mid, typ, typ.replace('-', '_')))
        f.write('\t{ 0, NULL, NULL }\n};\n')
    with open(outdir + '/j2735-gen-regext.c', 'w') as f:
        f.write('/* generated at build time from the user\'s SAE J2735 schema */\n')
        f.write('/* The REG-EXT-ID-AND-TYPE object sets in use, numbered from 1 (0: none). */\n')
        f.write('static const char *const j2735_regext_sets[] = {\n\tNULL,\n')
        for setname in regsets:
            f.write('\t"%s",\n' % setname)
        f.write('};\n')


if __name__ == '__main__':
    main()

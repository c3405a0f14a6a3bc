#!/usr/bin/python3
"""Turns the user's SAE J2735 schema (2016 single file or 2020 split modules) into one
ASN.1 module that asn2wrs digests, plus a .cnf fragment and a C table generated from it.
Runs at build time; everything it writes goes into the build tree.

usage: j2735_prep.py OUTDIR SCHEMA.asn...
writes OUTDIR/j2735.asn, OUTDIR/j2735-gen.cnf, OUTDIR/j2735-gen-tables.c
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
    write_tables(outdir, text, objsets)


def write_tables(outdir, text, objsets):
    values = dict(re.findall(r'(' + IDENT + r')\s+(?:DSRCmsgID|RegionId|PartII-Id)\s*::=\s*(\d+)',
                             text))
    msgs, parts = [], []
    for setname, (cls, rows) in sorted(objsets.items()):
        for typ, idname in rows:
            typ, idname = typ.split('.')[-1], idname.split('.')[-1]
            if idname not in values:
                continue
            row = (int(values[idname]), typ, setname)
            # regional extensions stay opaque: their type depends on the enclosing set
            {'MESSAGE-ID-AND-TYPE': msgs, 'PARTII-EXT-ID-AND-TYPE': parts}.get(cls, []).append(row)
    msgs = [m for m in msgs if re.search(r'(?<![\w-])' + re.escape(m[1]) + r'\s*::=\s*(?!NULL)',
                                         text)]
    with open(outdir + '/j2735-gen.cnf', 'w') as f:
        f.write('#.PDU\n')
        for t in sorted({r[1] for r in msgs + parts}):
            f.write(t + '\n')
        f.write('#.REGISTER\n')
        for pid, typ, _ in parts:
            f.write('%s N j2735.partii %d\n' % (typ, pid))
        f.write('#.END\n')
    with open(outdir + '/j2735-gen-tables.c', 'w') as f:
        f.write('/* generated at build time from the user\'s SAE J2735 schema */\n')
        f.write('static const struct j2735_msg_pdu j2735_msg_pdus[] = {\n')
        for mid, typ, _ in sorted(msgs):
            f.write('\t{ %d, "%s", dissect_%s_PDU },\n' % (mid, typ, typ.replace('-', '_')))
        f.write('\t{ 0, NULL, NULL }\n};\n')


if __name__ == '__main__':
    main()

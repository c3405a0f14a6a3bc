#!/usr/bin/python3
"""Rewrites the user's SAE J2735 ASN.1 (2016 single file, 2020 or 2024 module set, or a later
set of the same shape) into a form asn1c 0.9.28 compiles, and writes the C tables of the
two-stage decode (message ids, BSM/CCM part II ids, regional extensions) that the removed
information objects held.

asn1c 0.9.28 cannot parse information-object classes, so: class definitions and object
sets are dropped (their contents go into the tables), the class fields become plain
types (the id type, and OCTET STRING for the open type: same UPER bits), parameterised
types lose their parameters, the anonymous `SEQUENCE OF SEQUENCE { item CHOICE ... }`
elements get names. What the schema says (modules, imports, classes and sets, names kept
across editions, which module keeps a name several define) is read by ../j2735_schema.py,
shared with the plugin's preprocessing; asn1c's one namespace gets the renamed names
written in, where they are defined and imported. Everything is written into the build tree;
the schema itself is only read.

usage: j2735_for_asn1c.py OUT_ASN_DIR OUT_TABLES_C SCHEMA_FILE...
       j2735_for_asn1c.py --explain OUT_ASN_DIR < asn1c's messages
The second form names the user's file and line an asn1c message about OUT_ASN_DIR is about.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import j2735_schema as schema  # noqa: E402  (asn1/j2735_schema.py: what the schema says)

CLASS_KINDS = {"MESSAGE-ID-AND-TYPE": "messages", "PARTII-EXT-ID-AND-TYPE": "partii",
               "REG-EXT-ID-AND-TYPE": "regional"}
SchemaError = schema.SchemaError


def unqualified(name):
    return name.split(".")[-1]


def sub_name(old, new, text):
    return re.sub(r"(?<![\w.-])%s(?![\w-])" % re.escape(old), new, text)


def apply_renames(mod, mine):
    """The module's assignments [(line, text)] with its renamed names (j2735_schema.scopes)
    written in; dotted Module.Name references are left to asn1c."""
    mod.imports = [([mine.get(s, s) for s in syms], frm, oid) for syms, frm, oid in mod.imports]
    out = []
    for line, a in mod.assignments():
        for old, new in mine.items():
            if old[0].isupper():
                a = sub_name(old, new, a)
            else:  # values: never a member name that happens to be spelt the same
                a = re.sub(r"^%s(?![\w-])" % re.escape(old), new, a)
        out.append((line, a))
    return out


def main(out_dir, out_tables, files):
    modules = schema.read_modules(files)
    renames = schema.renamed(modules)
    scopes = schema.scopes(modules, renames)

    classes = {}     # (module, class name) -> id type
    sets = {}        # object set name -> (class, [(type, value ref)])
    values = {}      # value reference -> int
    uses = []        # (owner, object set): regional: enclosing type; part II: content type
    bit_names = {}   # BIT STRING type -> {bit: name}
    placeholders = set()  # types defined as NULL, held for a later edition
    assigned = {}    # module -> [(schema line, assignment)], renamed names written in
    for mod in modules:
        scope = scopes[mod.name]
        ref = lambda r: schema.resolve(renames, scope, r)
        # A class is module-local: its id type may have been renamed here.
        for cls, idtype in mod.classes.items():
            classes[(mod.name, cls)] = ref(idtype)
        for name, (cls, rows) in mod.objsets.items():
            sets[name] = (unqualified(cls), [(ref(t), ref(v)) for t, v in rows])
        placeholders |= {scope.get(p, p) for p in mod.placeholders()}
        assigned[mod.name] = apply_renames(mod, scope)
        for line, a in assigned[mod.name]:
            lhs, rhs = a.split("::=", 1)
            lhs_words = lhs.split()
            m = re.match(r"\s*BIT\s+STRING\s*\{([^}]*)\}", rhs)
            if len(lhs_words) == 1 and m:
                bits = re.findall(r"([\w-]+)\s*\(\s*(\d+)\s*\)", m.group(1))
                bit_names[lhs_words[0]] = {int(b): n for n, b in bits}
            m = re.match(r"\s*(\d+)\s*$", rhs)
            if len(lhs_words) == 2 and m:
                values[lhs_words[0]] = int(m.group(1))
            for t, s in re.findall(r"([\w.-]+)\s*\{\{\s*([\w.-]+)\s*\}\}", rhs):
                uses.append((lhs_words[0], unqualified(t), unqualified(s)))

    def class_id_type(mod, cls):
        cls = unqualified(cls)
        if (mod.name, cls) in classes:
            return classes[(mod.name, cls)]
        for (_, c), t in classes.items():
            if c == cls:
                return t
        raise SchemaError("%s: module %s uses class %s, defined nowhere" %
                          (mod.path, mod.name, cls))

    def rewrite(mod, a):
        # Class fields: the id becomes its type, the open type an OCTET STRING.
        a = re.sub(r"([\w.-]+)\.&id\s*\([^)]*\)", lambda m: class_id_type(mod, m.group(1)), a)
        a = re.sub(r"([\w.-]+)\.&Type\s*\([^)]*\)", "OCTET STRING", a)
        a = re.sub(r"\{\{\s*[\w.-]+\s*\}\}", "", a)                      # uses
        a = re.sub(r"^(\s*[\w-]+)\s*\{[^{}]*:[^{}]*\}\s*::=", r"\1 ::=", a)  # definitions
        # SIZE(13, ..., 14): PER encodes the root alone, extension additions as an
        # extension; asn1c 0.9.28 only reads the form without additions.
        a = re.sub(r"SIZE\s*\(\s*(\d+)\s*,\s*\.\.\.\s*,[^()]*\)", r"SIZE (\1, ...)", a)
        return a

    def name_item_elements(assignments):
        out = []
        for line, a in assignments:
            m = re.match(r"([\w-]+)(\s*::=\s*SEQUENCE\s*\((?:[^()]|\([^()]*\))*\)\s*OF\s*)SEQUENCE(\s*\{.*)", a,
                         re.S)
            if m and re.search(r"\bitem\s+CHOICE\b", m.group(3)):
                elem = m.group(1) + "-Item"
                out += [(line, m.group(1) + m.group(2) + elem),
                        (line, elem + " ::= SEQUENCE" + m.group(3))]
            else:
                out.append((line, a))
        return out

    class_names = {c for _, c in classes}
    emitted = {m.name for m in modules if assigned[m.name]}
    os.makedirs(out_dir, exist_ok=True)
    origins = []  # (output file, output line, schema file, schema line)
    for mod in modules:
        if mod.name not in emitted:
            continue
        assignments = name_item_elements([(l, rewrite(mod, a)) for l, a in assigned[mod.name]])
        lines = ["%s %s DEFINITIONS%s::= BEGIN" % (mod.name, mod.oid, mod.tagging)]
        imports = []
        for syms, frm, oid in mod.imports:
            syms = [s for s in syms if s not in class_names and s not in sets]
            if syms and frm in emitted:
                imports.append("  %s FROM %s %s" % (", ".join(syms), frm, oid))
        if imports:
            lines.append("IMPORTS\n" + "\n".join(imports) + ";")
        name = mod.name + ".asn"
        n = sum(l.count("\n") + 1 for l in lines) + len(lines)  # blocks, blank lines
        for line, a in assignments:
            n += 1
            origins.append((name, n, mod.path, line))
            n += a.count("\n") + 1
        lines += [a for _, a in assignments]
        lines.append("END")
        with open(os.path.join(out_dir, name), "w") as f:
            f.write("\n\n".join(lines) + "\n")
    schema.write_origins(os.path.join(out_dir, schema.ORIGINS), origins)
    write_tables(out_tables, sets, values, uses, bit_names, placeholders)


def c_name(asn_name):
    return asn_name.replace("-", "_")


def write_tables(path, sets, values, uses, bit_names, placeholders):
    rows = {"messages": [], "partii": [], "regional": []}
    for set_name, (cls, entries) in sorted(sets.items()):
        if cls not in CLASS_KINDS:
            continue
        kind = CLASS_KINDS[cls]
        if kind == "regional":    # found by the type that holds the extension
            owners = sorted({enc for enc, _, s in uses if s == set_name})
        elif kind == "partii":    # found by the content type (PartIIcontent, CCMPartIIcontent)
            owners = sorted({t for _, t, s in uses if s == set_name})
        else:
            owners = [""]
        for t, v in entries:
            if v not in values:
                raise SchemaError("object set %s: %s has no value" % (set_name, v))
            for owner in owners:
                rows[kind].append((owner, values[v], t))
    types = {r[2] for k in rows for r in rows[k]} - placeholders
    with open(path, "w") as f:
        f.write("/* Generated by j2735_for_asn1c.py from the J2735 schema's information\n"
                " * object sets: which type an open type holds, by id (NULL: a placeholder\n"
                " * the edition defines as NULL). */\n"
                "#include \"j2735dec_tables.h\"\n")
        for t in sorted(types):
            f.write("#include \"%s.h\"\n" % t)
        for kind in ("messages", "partii", "regional"):
            f.write("\nconst struct j2735dec_open_type j2735dec_%s[] = {\n" % kind)
            for owner, v, t in sorted(rows[kind], key=lambda r: (r[0], r[1])):
                td = "&asn_DEF_%s" % c_name(t) if t in types else "NULL"
                f.write("\t{\"%s\", %d, \"%s\", %s},\n" % (owner, v, t, td))
            f.write("\t{NULL, 0, NULL, NULL},\n};\n")
        f.write("\nconst struct j2735dec_bit_names j2735dec_bit_names[] = {\n")
        for t, bits in sorted(bit_names.items()):
            names = ", ".join('"%s"' % bits[i] if i in bits else "NULL"
                              for i in range(max(bits) + 1))
            f.write("\t{\"%s\", %d, (const char *const[]){%s}},\n" % (t, max(bits) + 1, names))
        f.write("\t{NULL, 0, NULL},\n};\n")


def explain(out_dir, messages):
    """'FILE:LINE: MESSAGE' for asn1c's complaint, FILE:LINE in the user's schema."""
    text = " ".join(messages.split())
    return "%s: %s" % (schema.locate(os.path.join(out_dir, schema.ORIGINS), text) or "?", text)


if __name__ == "__main__":
    try:
        if sys.argv[1] == "--explain":
            print(explain(sys.argv[2], sys.stdin.read()))
        else:
            main(sys.argv[1], sys.argv[2], sys.argv[3:])
    except (SchemaError, OSError, KeyError, ValueError, IndexError) as e:
        sys.stderr.write("%s: %s\n" % (os.path.basename(sys.argv[0]), e))
        sys.exit(1)

#!/usr/bin/python3
"""Rewrites the user's SAE J2735 ASN.1 (2016 single file or 2020 modules) into a form
asn1c 0.9.28 compiles, and writes the C tables of the two-stage decode (message ids,
BSM part II ids, regional extensions) that the removed information objects held.

asn1c 0.9.28 cannot parse information-object classes, so: class definitions and object
sets are dropped (their contents go into the tables), the class fields become plain
types (the id type, and OCTET STRING for the open type: same UPER bits), parameterised
types lose their parameters, AddGrpB names that clash with other modules are renamed and
the anonymous `SEQUENCE OF SEQUENCE { item CHOICE ... }` elements get names.
Everything is written into the build tree; the schema itself is only read.

usage: j2735_for_asn1c.py OUT_ASN_DIR OUT_TABLES_C SCHEMA_FILE...
"""
import os
import re
import sys

# AddGrpB defines these again with other ranges; C has one namespace.
ADDGRPB_CLASHES = ("Angle", "Elevation", "MsgCount", "TimeMark")
CLASS_KINDS = {"MESSAGE-ID-AND-TYPE": "messages", "PARTII-EXT-ID-AND-TYPE": "partii",
               "REG-EXT-ID-AND-TYPE": "regional"}


def read_schema(path):
    raw = open(path, "rb").read()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return strip_comments(text).encode("ascii", "replace").decode("ascii")


def strip_comments(text):
    """Removes -- ... (-- or end of line) and /* ... */ comments (X.680 12.6)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("--", i):
            j = i + 2
            while j < n and text[j] != "\n" and not text.startswith("--", j):
                j += 1
            i = j + 2 if text.startswith("--", j) else j
            out.append(" ")
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


MODULE_RE = re.compile(r"([A-Z][\w-]*)\s*(\{[^}]*\})?\s*DEFINITIONS([^:]*)::=\s*BEGIN(.*?)\bEND\b",
                       re.S)
IMPORTS_RE = re.compile(r"\bIMPORTS\b(.*?);", re.S)
FROM_RE = re.compile(r"(.*?)\bFROM\s+([A-Z][\w-]*)(\s*\{[^}]*\})?", re.S)


class Module:
    def __init__(self, m):
        self.name, self.oid, self.tagging = m.group(1), m.group(2) or "", m.group(3)
        body = m.group(4)
        self.imports = []  # [(symbols, module, oid)]
        im = IMPORTS_RE.search(body)
        if im:
            for f in FROM_RE.finditer(im.group(1)):
                syms = [s.strip() for s in f.group(1).split(",") if s.strip()]
                self.imports.append((syms, f.group(2), f.group(3) or ""))
            body = body[:im.start()] + body[im.end():]
        body = re.sub(r"\bEXPORTS\b.*?;", "", body, flags=re.S)
        self.assignments = split_assignments(body)


def split_assignments(body):
    """Every assignment starts on a line holding '::='; member lines never hold one."""
    out, cur = [], None
    for line in body.split("\n"):
        if "::=" in line:
            if cur is not None:
                out.append(cur)
            cur = line
        elif cur is not None:
            cur += "\n" + line
    if cur is not None:
        out.append(cur)
    return [a.strip() for a in out if a.strip()]


def unqualified(name):
    return name.split(".")[-1]


def main():
    out_dir, out_tables, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    modules = []
    for f in files:
        modules += [Module(m) for m in MODULE_RE.finditer(read_schema(f))]

    classes = {}     # class name -> id type
    sets = {}        # object set name -> (class, [(type, value ref)])
    values = {}      # value reference -> int
    uses = []        # (enclosing type, object set) for regional extensions / part II
    bit_names = {}   # BIT STRING type -> {bit: name}
    for mod in modules:
        kept = []
        for a in mod.assignments:
            lhs, rhs = a.split("::=", 1)
            lhs_words = lhs.split()
            m = re.match(r"\s*CLASS\s*\{.*?&id\s+([\w.-]+)", rhs, re.S)
            if m:
                classes[lhs_words[0]] = unqualified(m.group(1))
                continue
            if len(lhs_words) == 2 and unqualified(lhs_words[1]) in CLASS_KINDS:
                entries = re.findall(r"\{\s*([\w.-]+)\s+IDENTIFIED\s+BY\s+([\w.-]+)\s*\}", rhs)
                sets[lhs_words[0]] = (unqualified(lhs_words[1]),
                                      [(unqualified(t), unqualified(v)) for t, v in entries])
                continue
            m = re.match(r"\s*BIT\s+STRING\s*\{([^}]*)\}", rhs)
            if len(lhs_words) == 1 and m:
                bits = re.findall(r"([\w-]+)\s*\(\s*(\d+)\s*\)", m.group(1))
                bit_names[lhs_words[0]] = {int(b): n for n, b in bits}
            m = re.match(r"\s*(\d+)\s*$", rhs)
            if len(lhs_words) == 2 and m:
                values[lhs_words[0]] = int(m.group(1))
            for s in re.findall(r"\{\{\s*([\w.-]+)\s*\}\}", rhs):
                uses.append((lhs_words[0], unqualified(s)))
            kept.append(a)
        mod.assignments = kept

    def rewrite(a):
        # Class fields: the id becomes its type, the open type an OCTET STRING.
        a = re.sub(r"([\w.-]+)\.&id\s*\([^)]*\)",
                   lambda m: classes[unqualified(m.group(1))], a)
        a = re.sub(r"([\w.-]+)\.&Type\s*\([^)]*\)", "OCTET STRING", a)
        a = re.sub(r"\{\{\s*[\w.-]+\s*\}\}", "", a)                      # uses
        a = re.sub(r"^(\s*[\w-]+)\s*\{[^{}]*:[^{}]*\}\s*::=", r"\1 ::=", a)  # definitions
        return a

    def name_item_elements(mod):
        out = []
        for a in mod.assignments:
            m = re.match(r"([\w-]+)(\s*::=\s*SEQUENCE\s*\((?:[^()]|\([^()]*\))*\)\s*OF\s*)SEQUENCE(\s*\{.*)", a,
                         re.S)
            if m and re.search(r"\bitem\s+CHOICE\b", m.group(3)):
                elem = m.group(1) + "-Item"
                out += [m.group(1) + m.group(2) + elem, elem + " ::= SEQUENCE" + m.group(3)]
            else:
                out.append(a)
        mod.assignments = out

    def rename_addgrpb(mod, text):
        if mod.name != "AddGrpB":
            return text
        for n in ADDGRPB_CLASHES:
            text = re.sub(r"(?<![\w.-])%s(?![\w-])" % n, n + "-addGrpB", text)
        return text

    emitted = {m.name for m in modules if m.assignments}
    os.makedirs(out_dir, exist_ok=True)
    for mod in modules:
        if mod.name not in emitted:
            continue
        mod.assignments = [rewrite(a) for a in mod.assignments]
        name_item_elements(mod)
        lines = ["%s %s DEFINITIONS%s::= BEGIN" % (mod.name, mod.oid, mod.tagging)]
        imports = []
        for syms, frm, oid in mod.imports:
            syms = [s for s in syms if s not in classes and s not in sets]
            if syms and frm in emitted:
                imports.append("  %s FROM %s %s" % (", ".join(syms), frm, oid))
        if imports:
            lines.append("IMPORTS\n" + "\n".join(imports) + ";")
        lines += mod.assignments
        lines.append("END")
        text = rename_addgrpb(mod, "\n\n".join(lines) + "\n")
        with open(os.path.join(out_dir, mod.name + ".asn"), "w") as f:
            f.write(text)
    write_tables(out_tables, sets, values, uses, bit_names)


def c_name(asn_name):
    return asn_name.replace("-", "_")


def write_tables(path, sets, values, uses, bit_names):
    rows = {"messages": [], "partii": [], "regional": []}
    for set_name, (cls, entries) in sorted(sets.items()):
        kind = CLASS_KINDS[cls]
        owners = [t for t, s in uses if s == set_name] if kind == "regional" else [""]
        for t, v in entries:
            for owner in owners:
                rows[kind].append((owner, values[v], t))
    with open(path, "w") as f:
        f.write("/* Generated by j2735_for_asn1c.py from the J2735 schema's information\n"
                " * object sets: which type an open type holds, by id. */\n"
                "#include \"j2735dec_tables.h\"\n")
        for t in sorted({r[2] for k in rows for r in rows[k]}):
            f.write("#include \"%s.h\"\n" % t)
        for kind in ("messages", "partii", "regional"):
            f.write("\nconst struct j2735dec_open_type j2735dec_%s[] = {\n" % kind)
            for owner, v, t in sorted(rows[kind], key=lambda r: (r[0], r[1])):
                f.write("\t{\"%s\", %d, \"%s\", &asn_DEF_%s},\n" % (owner, v, t, c_name(t)))
            f.write("\t{NULL, 0, NULL, NULL},\n};\n")
        f.write("\nconst struct j2735dec_bit_names j2735dec_bit_names[] = {\n")
        for t, bits in sorted(bit_names.items()):
            names = ", ".join('"%s"' % bits[i] if i in bits else "NULL"
                              for i in range(max(bits) + 1))
            f.write("\t{\"%s\", %d, (const char *const[]){%s}},\n" % (t, max(bits) + 1, names))
        f.write("\t{NULL, 0, NULL},\n};\n")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Rewrites the user's SAE J2735 ASN.1 (2016 single file, 2020 or 2024 module set, or a later
set of the same shape) into a form asn1c 0.9.28 compiles, and writes the C tables of the
two-stage decode (message ids, BSM/CCM part II ids, regional extensions) that the removed
information objects held.

asn1c 0.9.28 cannot parse information-object classes, so: class definitions and object
sets are dropped (their contents go into the tables), the class fields become plain
types (the id type, and OCTET STRING for the open type: same UPER bits), parameterised
types lose their parameters, the anonymous `SEQUENCE OF SEQUENCE { item CHOICE ... }`
elements get names, members a later edition renamed keep their earlier names
(stable-member-names.txt). asn1c (and C) have one namespace for all modules, so a name
defined by several modules (or differing only in case: asn1c writes one file per type)
keeps its plain name in one module (J2735 Common first, then the other J2735 modules,
AddGrp* last) and becomes Module-Name in the others, where it is defined and imported.
Everything is written into the build tree; the schema itself is only read.

usage: j2735_for_asn1c.py OUT_ASN_DIR OUT_TABLES_C SCHEMA_FILE...
       j2735_for_asn1c.py --explain OUT_ASN_DIR < asn1c's messages
The second form names the user's file and line an asn1c message about OUT_ASN_DIR is about.
"""
import json
import os
import re
import sys

CLASS_KINDS = {"MESSAGE-ID-AND-TYPE": "messages", "PARTII-EXT-ID-AND-TYPE": "partii",
               "REG-EXT-ID-AND-TYPE": "regional"}
ORIGINS = "origins.json"  # output line -> schema file and line, for --explain
STABLE_NAMES = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "stable-member-names.txt")


class SchemaError(Exception):
    pass


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
    """Removes -- ... (-- or end of line) and /* ... */ comments (X.680 12.6), keeping the
    line breaks so that positions still tell the schema's line."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
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
    def __init__(self, m, path, text):
        self.name, self.oid, self.tagging = m.group(1), m.group(2) or "", m.group(3)
        self.path = path
        body, body_line = m.group(4), text.count("\n", 0, m.start(4)) + 1
        self.imports = []  # [(symbols, module, oid)]
        im = IMPORTS_RE.search(body)
        if im:
            # X.680 2021 selects successor module versions (2024 set): not for asn1c.
            text_im = re.sub(r"\bWITH\s+(SUCCESSORS|DESCENDANTS)\b", " ", im.group(1))
            for f in FROM_RE.finditer(text_im):
                syms = [s.strip() for s in f.group(1).split(",") if s.strip()]
                self.imports.append((syms, f.group(2), f.group(3) or ""))
            body = body[:im.start()] + "\n" * body.count("\n", im.start(), im.end()) + \
                body[im.end():]
        body = re.sub(r"\bEXPORTS\b.*?;", lambda e: "\n" * e.group(0).count("\n"), body,
                      flags=re.S)
        self.assignments = split_assignments(body, body_line)  # [(line, text)]
        self.j2735 = self.name in ("DSRC", "Common") or re.search(r"\b2735\b", self.oid)


def split_assignments(body, first_line):
    """Every assignment starts on a line holding '::='; member lines never hold one."""
    out, cur = [], None
    for n, line in enumerate(body.split("\n"), first_line):
        if "::=" in line:
            if cur is not None:
                out.append(cur)
            cur = [n, line]
        elif cur is not None:
            cur[1] += "\n" + line
    if cur is not None:
        out.append(cur)
    return [(n, a.strip()) for n, a in out if a.strip()]


def defined_name(a):
    return a.split("::=", 1)[0].split()[0]


def unqualified(name):
    return name.split(".")[-1]


def is_class_or_set(a):
    lhs, rhs = a.split("::=", 1)
    words = lhs.split()
    return re.match(r"\s*CLASS\b", rhs) or (len(words) == 2 and unqualified(words[1]) in CLASS_KINDS)


def sub_name(old, new, text):
    return re.sub(r"(?<![\w.-])%s(?![\w-])" % re.escape(old), new, text)


def clash_renames(modules):
    """{module name: {old: new}}: names defined twice (or types differing only in case) keep
    their name in the first module by rank, and become Module-Name elsewhere."""
    defs = {}
    for mod in modules:
        for _, a in mod.assignments:
            if not is_class_or_set(a):
                name = defined_name(a)
                key = name.lower() if name[0].isupper() else name
                defs.setdefault(key, []).append((mod, name))
    # Common first, then J2735's own modules, its regional addition groups, the others.
    rank = lambda d: (d[0].name not in ("DSRC", "Common"), not d[0].j2735,
                      d[0].name.startswith("AddGrp"), d[0].name, d[1])
    renames = {m.name: {} for m in modules}
    for key, ds in defs.items():
        for mod, name in sorted(ds, key=rank)[1:]:
            new = mod.name + "-" + name
            if name[0].islower():  # a value reference starts with a lower-case letter
                new = new[0].lower() + new[1:]
            renames[mod.name][name] = new
    # Importers of a renamed name use the new one.
    for mod in modules:
        for syms, frm, _ in mod.imports:
            for s in syms:
                if s in renames.get(frm, {}):
                    renames[mod.name][s] = renames[frm][s]
    return renames


def apply_renames(mod, renames):
    mine = renames[mod.name]
    if not mine:
        return
    mod.imports = [([mine.get(s, s) for s in syms], frm, oid) for syms, frm, oid in mod.imports]
    out = []
    for line, a in mod.assignments:
        for old, new in mine.items():
            if old[0].isupper():
                a = sub_name(old, new, a)
            else:  # values: never a member name that happens to be spelt the same
                a = re.sub(r"^%s(?![\w-])" % re.escape(old), new, a)
                a = re.sub(r"(IDENTIFIED\s+BY\s+)%s(?![\w-])" % re.escape(old), r"\g<1>" + new, a)
        out.append((line, a))
    mod.assignments = out


def stable_member_names():
    """{type: {member: kept name}} from stable-member-names.txt."""
    out = {}
    for line in open(STABLE_NAMES):
        words = line.split("#")[0].split()
        if words:
            out.setdefault(words[0], {})[words[1]] = words[2]
    return out


def keep_member_names(mod, stable):
    """A member renamed by a later edition keeps its earlier name (a JSON key): the
    identifier is not encoded, so the bits stay the same."""
    out = []
    for line, a in mod.assignments:
        for old, new in stable.get(defined_name(a), {}).items():
            a = re.sub(r"(?<![\w-])%s(?=\s+[A-Z])" % re.escape(old), new, a)
        out.append((line, a))
    mod.assignments = out


def main(out_dir, out_tables, files):
    modules = []
    for f in files:
        text = read_schema(f)
        modules += [Module(m, f, text) for m in MODULE_RE.finditer(text)]
    if not modules:
        raise SchemaError("%s: no ASN.1 module (Name DEFINITIONS ::= BEGIN ... END)" %
                          ", ".join(files))
    renames = clash_renames(modules)
    stable = stable_member_names()
    for mod in modules:
        apply_renames(mod, renames)
        keep_member_names(mod, stable)

    classes = {}     # class name -> id type
    sets = {}        # object set name -> (class, [(type, value ref)])
    values = {}      # value reference -> int
    uses = []        # (owner, object set): regional: enclosing type; part II: content type
    bit_names = {}   # BIT STRING type -> {bit: name}
    placeholders = set()  # types defined as NULL, held for a later edition
    for mod in modules:
        kept = []
        for line, a in mod.assignments:
            lhs, rhs = a.split("::=", 1)
            lhs_words = lhs.split()
            m = re.match(r"\s*CLASS\s*\{.*?&id\s+([\w.-]+)", rhs, re.S)
            if m:
                # The class is module-local: its id type may have been renamed here.
                classes[(mod.name, lhs_words[0])] = unqualified(m.group(1))
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
            if len(lhs_words) == 1 and re.fullmatch(r"\s*NULL\s*", rhs):
                placeholders.add(lhs_words[0])
            for t, s in re.findall(r"([\w.-]+)\s*\{\{\s*([\w.-]+)\s*\}\}", rhs):
                uses.append((lhs_words[0], unqualified(t), unqualified(s)))
            kept.append((line, a))
        mod.assignments = kept

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
    emitted = {m.name for m in modules if m.assignments}
    os.makedirs(out_dir, exist_ok=True)
    origins = {}
    for mod in modules:
        if mod.name not in emitted:
            continue
        assignments = name_item_elements([(l, rewrite(mod, a)) for l, a in mod.assignments])
        lines = ["%s %s DEFINITIONS%s::= BEGIN" % (mod.name, mod.oid, mod.tagging)]
        imports = []
        for syms, frm, oid in mod.imports:
            syms = [s for s in syms if s not in class_names and s not in sets]
            if syms and frm in emitted:
                imports.append("  %s FROM %s %s" % (", ".join(syms), frm, oid))
        if imports:
            lines.append("IMPORTS\n" + "\n".join(imports) + ";")
        origin = []
        n = sum(l.count("\n") + 1 for l in lines) + len(lines)  # blocks, blank lines
        for line, a in assignments:
            n += 1
            origin.append((n, line))
            n += a.count("\n") + 1
        lines += [a for _, a in assignments]
        lines.append("END")
        name = mod.name + ".asn"
        origins[name] = {"file": mod.path, "lines": origin}
        with open(os.path.join(out_dir, name), "w") as f:
            f.write("\n\n".join(lines) + "\n")
    with open(os.path.join(out_dir, ORIGINS), "w") as f:
        json.dump(origins, f)
    write_tables(out_tables, sets, values, uses, bit_names, placeholders)


def c_name(asn_name):
    return asn_name.replace("-", "_")


def write_tables(path, sets, values, uses, bit_names, placeholders):
    rows = {"messages": [], "partii": [], "regional": []}
    for set_name, (cls, entries) in sorted(sets.items()):
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
    """'FILE:LINE: MESSAGE' for asn1c's first complaint, FILE:LINE in the user's schema."""
    text = " ".join(messages.split())
    origins = json.load(open(os.path.join(out_dir, ORIGINS)))
    m = re.search(r"line (\d+)", text)
    f = re.search(r"of module ([\w-]+)", text)
    f = f.group(1) + ".asn" if f else None
    if not f or f not in origins:
        f = next((os.path.basename(x) for x in re.findall(r"([^\s\"()]+\.asn)\b", text)
                  if os.path.basename(x) in origins), None)
    where = "?"
    if f and m:
        line, src = int(m.group(1)), origins[f]
        starts = [o for o in src["lines"] if o[0] <= line]
        src_line = starts[-1][1] + line - starts[-1][0] if starts else 1
        where = "%s:%d" % (src["file"], src_line)
    elif f:
        where = origins[f]["file"]
    return "%s: %s" % (where, text)


if __name__ == "__main__":
    try:
        if sys.argv[1] == "--explain":
            print(explain(sys.argv[2], sys.stdin.read()))
        else:
            main(sys.argv[1], sys.argv[2], sys.argv[3:])
    except (SchemaError, OSError, KeyError, ValueError, IndexError) as e:
        sys.stderr.write("%s: %s\n" % (os.path.basename(sys.argv[0]), e))
        sys.exit(1)

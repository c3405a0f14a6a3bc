#!/usr/bin/env python3
"""man(3) pages of libv2x, one per function the version script exports, written from the
public headers: the comment above a declaration (with the declarations and types of the
same paragraph, which it documents together) is its DESCRIPTION.
  man3.py --map lib/libv2x.map --version 0.1.0 --out DIR lib/include/v2x/*.h"""
import argparse
import os
import re
import sys

DECL = re.compile(r"^V2X_API\b[^;]*?\b(\w+)\s*\(", re.S)


def exported(map_path):
    """The names of the version script's global: lists, in order."""
    with open(map_path) as f:
        return re.findall(r"^\s*([A-Za-z_]\w*);", re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S),
                          re.M)


def paragraphs(header):
    """(comments, code) of each paragraph (lines between blank lines) of a header that
    declares V2X_API functions: its comments starting a line, as lists of lines without
    the comment marks, and its other lines."""
    with open(header) as f:
        for para in re.split(r"\n\s*\n", f.read()):
            if "V2X_API" not in para:
                continue
            comments, code = [], []
            for m in re.finditer(r"^/\*(.*?)\*/[ \t]*\n?|^[^\n]*\n?", para, re.S | re.M):
                if m[1] is not None:
                    comments.append([re.sub(r"^ ?\* ?", "", l).rstrip()
                                     for l in m[1].strip("\n").split("\n")])
                elif m[0].strip() and not m[0].startswith("#"):  # no #endif, #include
                    code.append(m[0].rstrip("\n"))
            yield comments, "\n".join(code)


def escape(text):
    """Roff-safe text: backslashes and hyphens literal, no line read as a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def synopsis(code):
    """The paragraph's code, each declaration on its own lines without V2X_API, continued
    lines indented under its opening parenthesis."""
    out = []
    for stmt in re.findall(r"V2X_API[^;]*;|[^\n]+", code):
        if not stmt.startswith("V2X_API"):
            out.append(stmt.expandtabs(8))
            continue
        decl = " ".join(stmt[len("V2X_API"):].split())
        head, args = decl.split("(", 1)
        line, indent = head + "(", " " * (len(head) + 1)
        for arg in re.split(r"(?<=,) ", args):
            if len(line) + len(arg) > 78 and not line.endswith("("):
                out.append(line.rstrip())
                line = indent
            line += arg + " "
        out.append(line.rstrip())
    return "\n".join(out)


def description(comments):
    """The comments as roff paragraphs; lines indented by two spaces or more (examples)
    kept as they are."""
    out = []
    for comment in comments:
        text = "\n".join(comment).strip("\n")
        for para in re.split(r"\n\s*\n", text):
            lines = para.split("\n")
            if all(l.startswith("  ") for l in lines):
                out.append(".PP\n.RS\n.nf\n" + escape("\n".join(lines)) + "\n.fi\n.RE")
            else:
                out.append(".PP\n" + escape(" ".join(l.strip() for l in lines)))
    return "\n".join(out)


def page(names, header, comments, code, others, version):
    """The page of the functions names (declared in one paragraph)."""
    summary = " ".join(" ".join(comments[0]).split()) if comments else ""
    # NAME is one short line (what apropos lists): the first sentence up to its first
    # colon or parenthesis, at most ~70 characters, cut at a word
    summary = re.split(r"(?<=\.) ", summary)[0].rstrip(".")
    summary = re.split(r":| \(", summary)[0].strip()
    if len(summary) > 70:
        summary = summary[:70].rsplit(" ", 1)[0] + " ..."
    see = ",\n".join(f".BR {o} (3)" for o in others)
    return f""".\\" Written by docs/man3.py from <v2x/{header}>: edit the header, not this.
.TH {names[0]} 3 "" "libv2x {version}" "libv2x Manual"
.nh
.ad l
.SH NAME
{", ".join(names)} \\- {escape(summary)}
.SH SYNOPSIS
.nf
.B #include <v2x/{header}>
.PP
{escape(synopsis(code))}
.fi
.SH DESCRIPTION
{description(comments)}
.SH SEE ALSO
{see}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", required=True, help="the version script (lib/libv2x.map)")
    ap.add_argument("--version", required=True, help="the library's version")
    ap.add_argument("--out", required=True, help="the folder to write NAME.3 into")
    ap.add_argument("headers", nargs="+")
    a = ap.parse_args()
    names = exported(a.map)
    found = {}  # name: (header, the exported names of its paragraph, comments, code)
    by_header = {}
    for h in sorted(a.headers):
        header = os.path.basename(h)
        for comments, code in paragraphs(h):
            declared = [DECL.match(m)[1] for m in re.findall(r"V2X_API[^;]*;", code)]
            declared = [n for n in declared if n in names]
            for name in declared:
                found[name] = (header, declared, comments, code)
            by_header.setdefault(header, []).extend(declared)
    missing = [n for n in names if n not in found]
    if missing:
        sys.exit(f"man3.py: no V2X_API declaration in the headers of {', '.join(missing)}")
    os.makedirs(a.out, exist_ok=True)
    for old in os.listdir(a.out):
        if old.endswith(".3"):
            os.unlink(os.path.join(a.out, old))
    for name in names:
        header, declared, comments, code = found[name]
        others = [o for o in by_header[header] if o != name]
        with open(os.path.join(a.out, name + ".3"), "w") as f:
            f.write(page([name] + [d for d in declared if d != name], header, comments, code,
                         others, a.version))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Cross-check: every sample capture read by v2xcap and by tshark with this build's plugins
must agree, frame by frame, on
- the frame's class: bad FCS flagged, WSMP header read, J2735 message (its messageId) and
  the octets after its MessageFrame (j2735.trailing, dump's "+N octets");
- the WSMP header: version, TPID, PSID, ports, LPP, extension elements (ids, and the
  values libv2x decodes, else the octets), WSM length;
- with WSMP or without it (1609.2 over UDP): the 1609.2 content type and its PSID;
- with a schema: BSM id/msgCnt/lat/long/speed and the MAP/SPaT (first) intersection id.
v2xcap's side is `v2xcap dump` (read by tests/dump/check_dump.py's line parser) and, for
the J2735 values, `v2xcap decode`.

usage: cross_check_tshark.py [--user-psids LIST] [--needs-protocol NAME] [--decode-as SPEC]
                             V2XCAP RUN_TSHARK PLUGIN_DIR CAPTURE...
--user-psids: the user says these PSIDs carry J2735 (v2xcap --j2735-psid, the J2735
plugin's extra_psids); then at least one J2735 message must be found.
--needs-protocol: SKIP unless tshark has this dissector (c2p: Wireshark >= 4.6).
--decode-as: tshark's -d (udp.port==N,ieee1609dot3), where v2xcap needs no option.
Exit 0 agree, 1 a disagreement, 77 skip (tshark or its plugins missing).
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "dump"))
sys.dont_write_bytecode = True
from check_dump import layers  # noqa: E402  (the one reader of `v2xcap dump` lines)

BSM, MAP, SPAT = 20, 18, 19
J2735_FIELDS = ["j2735.BSMcoreData.id", "j2735.BSMcoreData.msgCnt", "j2735.BSMcoreData.lat",
                "j2735.BSMcoreData.long", "j2735.BSMcoreData.speed",
                "j2735.IntersectionReferenceID.id"]
# The WSMP plugin's field of each header element libv2x decodes (lib/wsmp.c).
ELEMENT_FIELDS = {4: "ieee1609dot3.tx_power", 15: "ieee1609dot3.channel",
                  16: "ieee1609dot3.data_rate", 23: "ieee1609dot3.channel_load",
                  25: "ieee1609dot3.time_confidence"}
HEADER_FIELDS = ["frame.number", "frame.protocols", "ieee1609dot3.bad_fcs",
                 "ieee1609dot3.version", "ieee1609dot3.tpid", "ieee1609dot3.psid",
                 "ieee1609dot3.lpp", "ieee1609dot3.src_port", "ieee1609dot3.dst_port",
                 "ieee1609dot3.length", "ieee1609dot3.ext.id", "ieee1609dot3.ext.value",
                 *ELEMENT_FIELDS.values(), "ieee1609dot2.content", "ieee1609dot2.psid",
                 "j2735.msgid", "j2735.trailing"]
# headerInfo's PSID: Wireshark 4.6 names it apart from the certificates' PSIDs (hiPsid);
# before, one name (psid) covered all, headerInfo's first. main() puts the name this tshark
# has in HEADER_FIELDS.
DOT2_PSID = "ieee1609dot2.psid"
DOT2_PSID_4_6 = "ieee1609dot2.hiPsid"
# Ieee1609Dot2Content CHOICE index -> the name v2xcap prints
DOT2_CONTENT = {0: "unsecuredData", 1: "signedData", 2: "encryptedData",
                3: "signedCertificateRequest"}
SEP = ";"


def num(text):
    return int(text, 0) if text else None


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


def tshark_rows(run_tshark, plugins, capture, j2735_values, extra):
    fields = HEADER_FIELDS + (J2735_FIELDS if j2735_values else [])
    argv = [run_tshark, plugins, *extra, "-r", capture, "-T", "fields", "-E",
            "occurrence=a", "-E", "aggregator=" + SEP]
    for f in fields:
        argv += ["-e", f]
    p = run(argv)
    if p.returncode != 0:  # a bad file: the frames before the error are compared
        print("NOTE: tshark exit %d on %s: %s" % (p.returncode, capture,
                                                 p.stderr.strip()[-120:]))
    rows = {}
    for line in p.stdout.splitlines():
        cols = dict(zip(fields, (c.split(SEP) if c else [] for c in line.split("\t"))))
        rows[int(cols["frame.number"][0])] = cols
    return rows


def first(cols, field):
    return cols.get(field, [None])[0] if cols.get(field) else None


def tshark_header(cols):
    """What the plugins say about one frame, in the shape header() gives v2xcap's line."""
    if cols["ieee1609dot3.bad_fcs"]:
        return {"class": "bad FCS"}
    msgid = num(first(cols, "j2735.msgid"))
    trailing = first(cols, "j2735.trailing")
    msgid = {"msgid": msgid, "trailing": len(trailing.replace(":", "")) // 2 if trailing else None}
    # the first of each: the outer envelope's content, its headerInfo's PSID (a signer's
    # certificate, after it, names PSIDs too)
    dot2 = num(first(cols, "ieee1609dot2.content"))
    dot2 = {"1609.2": DOT2_CONTENT.get(dot2, dot2),
            "1609.2 psid": num(first(cols, DOT2_PSID_4_6) or first(cols, DOT2_PSID))}
    if not cols["ieee1609dot3.length"]:
        return {"class": "no WSMP header", **msgid, **dot2}
    ids = [int(i) for i in cols["ieee1609dot3.ext.id"]]
    values = {f: [int(v) for v in cols[f]] for f in ELEMENT_FIELDS.values()}
    octets = [v.replace(":", "").lower() for v in cols["ieee1609dot3.ext.value"]]
    src, dst = num(first(cols, "ieee1609dot3.src_port")), num(first(cols, "ieee1609dot3.dst_port"))
    return {"class": "WSMP", "version": num(first(cols, "ieee1609dot3.version")),
            "tpid": num(first(cols, "ieee1609dot3.tpid")) or 0,
            "psid": num(first(cols, "ieee1609dot3.psid")),
            "lpp": num(first(cols, "ieee1609dot3.lpp")),
            "ports": (src, dst) if src is not None else None,
            "element ids": ids, "element values": values, "element octets": octets,
            "length": num(first(cols, "ieee1609dot3.length")), **msgid, **dot2}


def header(line):
    """What `v2xcap dump` says about one frame."""
    g = layers(line)
    if "radiotap flags: bad FCS" in g.get("malformed", ""):
        return {"class": "bad FCS"}
    dot2 = {"1609.2": g.get("dot2"), "1609.2 psid": g.get("dot2_psid")}
    msgid = {"msgid": g.get("msgid"), "trailing": g.get("trailing_octets")}
    if "wsmp_version" not in g:
        return {"class": "no WSMP header", **msgid, **dot2}
    els = g["elements"]
    values = {f: [v for i, v in els.items() if ELEMENT_FIELDS.get(i) == f and isinstance(v, int)]
              for f in ELEMENT_FIELDS.values()}
    return {"class": "WSMP", "version": g["wsmp_version"], "tpid": g["tpid"],
            "psid": g["psid"], "lpp": g.get("lpp"), "ports": g.get("ports"),
            "element ids": list(els), "element values": values,
            "element octets": [v for v in els.values() if isinstance(v, str)],
            "length": g["wsm_length"], **msgid, **dot2}


def v2xcap_headers(v2xcap, capture, extra):
    """The header of every frame, and the frames v2xcap found malformed (their J2735
    values, if any, are not compared: `decode` prints no message for them)."""
    p = run([v2xcap, *extra, "dump", capture])
    if p.returncode not in (0, 1):
        raise SystemExit("FAIL: v2xcap dump %s died: %s" % (capture, p.stderr))
    lines = [line for line in p.stdout.splitlines() if line[:1].isdigit()]
    return ({layers(line)["frame"]: header(line) for line in lines},
            {layers(line)["frame"] for line in lines if "malformed" in layers(line)})


def j2735_values_tshark(cols):
    msgid = num(first(cols, "j2735.msgid"))
    if msgid is None:
        return None
    vals = [first(cols, f) or "" for f in J2735_FIELDS]
    vals[0] = vals[0].replace(":", "").lower()
    inter = vals.pop()
    return (msgid, *vals, inter if msgid in (MAP, SPAT) else "")


def v2xcap_values(v2xcap, capture, extra):
    p = run([v2xcap, *extra, "decode", capture])
    if p.returncode not in (0, 1):
        raise SystemExit("FAIL: v2xcap decode %s died: %s" % (capture, p.stderr))
    rows = {}
    for line in p.stdout.splitlines():
        m = json.loads(line)
        j = m["j2735"]
        v = j.get("value", {})
        core = v.get("coreData", {}) if j["messageId"] == BSM else {}
        inter = ""
        if j["messageId"] in (MAP, SPAT) and v.get("intersections"):
            inter = str(v["intersections"][0]["id"]["id"])
        rows[m["frame"]] = (j["messageId"], core.get("id", ""),
                            *(str(core[k]) if k in core else ""
                              for k in ("msgCnt", "lat", "long", "speed")), inter)
    return rows


def main():
    args, user_psids, needs, decode_as = sys.argv[1:], None, None, None
    while args[0] in ("--user-psids", "--needs-protocol", "--decode-as"):
        if args[0] == "--user-psids":
            user_psids = args[1]
        elif args[0] == "--decode-as":
            decode_as = args[1]
        else:
            needs = args[1]
        args = args[2:]
    v2xcap, run_tshark, plugins, captures = args[0], args[1], args[2], args[3:]
    ours_extra = ["--j2735-psid", user_psids] if user_psids else []
    theirs_extra = ["-o", "j2735.extra_psids:" + user_psids] if user_psids else []
    theirs_extra += ["-d", decode_as] if decode_as else []
    fields = run([run_tshark, plugins, "-G", "fields"])
    if fields.returncode != 0:
        print("SKIP: tshark does not run: %s" % fields.stderr.strip()[-200:])
        sys.exit(77)
    known = {line.split("\t")[2] for line in fields.stdout.splitlines() if line.count("\t") >= 2}
    if DOT2_PSID_4_6 in known:
        HEADER_FIELDS[HEADER_FIELDS.index(DOT2_PSID)] = DOT2_PSID_4_6
    if "ieee1609dot3.tpid" not in known:
        print("SKIP: tshark has no WSMP plugin")
        sys.exit(77)
    if needs:
        protos = run([run_tshark, plugins, "-G", "protocols"]).stdout.splitlines()
        if needs not in {line.split("\t")[2] for line in protos if line.count("\t") >= 2}:
            print("SKIP: this tshark has no %s dissector (Wireshark >= 4.6 has)" % needs)
            sys.exit(77)
    j2735_values = all(f in known for f in J2735_FIELDS)
    if not j2735_values:
        print("NOTE: the J2735 plugin has no schema fields: J2735 values not compared")
    failed = frames = values = found = 0
    for cap in captures:
        theirs = tshark_rows(run_tshark, plugins, cap, j2735_values, theirs_extra)
        ours, malformed = v2xcap_headers(v2xcap, cap, ours_extra)
        found += sum(1 for h in ours.values() if h.get("msgid") is not None)
        for n in sorted(set(ours) | set(theirs)):
            frames += 1
            # a frame v2xcap did not read (a link type it refuses) has no WSMP for it
            a = ours.get(n, {"class": "no WSMP header", "msgid": None, "trailing": None,
                             "1609.2": None, "1609.2 psid": None})
            b = tshark_header(theirs[n]) if n in theirs else None
            diff = [k for k in (a or b or {}) if (a or {}).get(k) != (b or {}).get(k)]
            if diff:
                failed += 1
                print("FAIL: %s frame %d: %s: v2xcap %s, tshark %s" % (
                    cap, n, ", ".join(diff), {k: (a or {}).get(k) for k in diff},
                    {k: (b or {}).get(k) for k in diff}))
        if not j2735_values:
            continue
        mine = v2xcap_values(v2xcap, cap, ours_extra)
        for n in sorted(set(mine) | {k for k, c in theirs.items()
                                     if c["j2735.msgid"] and k not in malformed}):
            values += 1
            a = mine.get(n)
            b = j2735_values_tshark(theirs[n]) if n in theirs else None
            if a != b:
                failed += 1
                print("FAIL: %s frame %d J2735 values: v2xcap %s, tshark %s" % (cap, n, a, b))
    print("%d captures, %d frames, %d J2735 messages, %d disagreements" % (
        len(captures), frames, values, failed))
    if user_psids and not found:
        print("FAIL: PSIDs %s named by the user, yet no J2735 message found" % user_psids)
        failed += 1
    sys.exit(1 if failed or not frames else 0)


if __name__ == "__main__":
    main()

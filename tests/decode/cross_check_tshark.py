#!/usr/bin/python3
"""Cross-check: for every sample capture, the J2735 Wireshark plugin (tshark -T fields)
and `v2xcap decode` agree on which frames hold a J2735 message, the messageId, BSM
id/msgCnt/lat/long/speed and the MAP/SPaT (first) intersection id.

usage: cross_check_tshark.py V2XCAP RUN_TSHARK PLUGIN_DIR CAPTURE...
Exit 0 agree, 1 a disagreement, 77 skip (tshark or the plugin's schema fields missing).
"""
import json
import subprocess
import sys

TSHARK_FIELDS = ["frame.number", "j2735.msgid", "j2735.BSMcoreData.id",
                 "j2735.BSMcoreData.msgCnt", "j2735.BSMcoreData.lat",
                 "j2735.BSMcoreData.long", "j2735.BSMcoreData.speed",
                 "j2735.IntersectionReferenceID.id"]
BSM, MAP, SPAT = 20, 18, 19


def tshark_rows(run_tshark, plugins, capture):
    argv = [run_tshark, plugins, "-r", capture, "-T", "fields", "-E", "occurrence=f"]
    for f in TSHARK_FIELDS:
        argv += ["-e", f]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        raise SystemExit("FAIL: tshark on %s: %s" % (capture, p.stderr))
    rows = {}
    for line in p.stdout.splitlines():
        cols = line.split("\t")
        if len(cols) == len(TSHARK_FIELDS) and cols[1]:
            frame, msgid, tid, cnt, lat, lon, speed, inter = cols
            msgid = int(msgid)
            rows[int(frame)] = (msgid, tid.replace(":", "").lower(), cnt, lat, lon, speed,
                                inter if msgid in (MAP, SPAT) else "")
    return rows


def v2xcap_rows(v2xcap, capture):
    p = subprocess.run([v2xcap, "decode", capture], capture_output=True, text=True,
                       timeout=120)
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
    v2xcap, run_tshark, plugins, captures = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    fields = subprocess.run([run_tshark, plugins, "-G", "fields"], capture_output=True,
                            text=True).stdout
    known = {line.split("\t")[2] for line in fields.splitlines() if line.count("\t") >= 2}
    missing = [f for f in TSHARK_FIELDS if f not in known]
    if missing:
        print("SKIP: the J2735 plugin has no %s (built without a schema?)" % missing)
        sys.exit(77)
    failed, messages = 0, 0
    for cap in captures:
        ours, theirs = v2xcap_rows(v2xcap, cap), tshark_rows(run_tshark, plugins, cap)
        for frame in sorted(set(ours) | set(theirs)):
            messages += 1
            a, b = ours.get(frame), theirs.get(frame)
            if a != b:
                failed += 1
                print("FAIL: %s frame %d: v2xcap %s, tshark %s" % (cap, frame, a, b))
    print("%d captures, %d messages, %d disagreements" % (len(captures), messages, failed))
    sys.exit(1 if failed or not messages else 0)


if __name__ == "__main__":
    main()

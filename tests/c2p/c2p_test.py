#!/usr/bin/python3
"""C2P on Wireshark >= 4.6: tshark (through tests/run-tshark, with this build's plugins and
no preference or Decode As) over a capture of captures/c2p (--capture: c2p-dsrc, DSRC RX
and TX records; c2p-cv2x, C-V2X RX and TX records), whose Commsignia C2P records
Wireshark's own C2P dissector hands to its 802.11 dissector. Every value asserted comes
from the capture's expect.json (the framing mkcap was asked for, the vectors' XER).
One subcommand per behaviour; exit 0 pass, 1 fail, 77 skip (a tshark without C2P, i.e.
before 4.6; no J2735 plugin or schema)."""
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "wsmp"))
import wsmp_test  # noqa: E402  (its tshark runner and the WSMP checks of an expect.json frame)
import tshark_driver  # noqa: E402  (tests/tshark_driver.py, on the path wsmp_test sets)
from wsmp_test import Skip, check, one  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "dump"))
import check_dump  # noqa: E402  (the one reader of `v2xcap dump` lines)

UNIX_2004 = 1072915200  # C2P timestamps count seconds from 2004-01-01 00:00 UTC
# expect.json c2p key -> Wireshark 4.6's C2P field, per record type (1 DSRC RX, 2 DSRC TX,
# 7 C-V2X RX, 8 C-V2X TX); a field of another type must be absent from the record
RECORD_FIELDS = {
    1: {"primary_channel": "c2p.primary_channel", "datarate": "c2p.datarate",
        "rssi_dbm": "c2p.rssi_antenna1"},
    2: {"primary_channel": "c2p.primary_channel", "datarate": "c2p.datarate",
        "tx_power_dbm": "c2p.tx_power"},
    7: {"socket_index": "c2p.cv2x_socket_index", "ethertype": "c2p.cv2x_ethertype",
        "rssi_dbm": "c2p.cv2x_rssi", "datarate": "c2p.datarate"},
    8: {"tx_power_dbm": "c2p.tx_power"},
}
ALL_FIELDS = sorted({f for fields in RECORD_FIELDS.values() for f in fields.values()})



def protocols(env):
    """Filter names (the third column; 4.6 adds columns after it)."""
    return [l.split("\t")[2] for l in env.tshark("-G", "protocols").splitlines()
            if l.count("\t") >= 2]


def needs_c2p(env):
    if "c2p" not in protocols(env):
        version = env.tshark("--version").splitlines()[0].rstrip(".")
        raise Skip("%s has no C2P dissector (Wireshark 4.6 added it)" % version)


def frames(env):
    with open(os.path.join(env.a.captures, "c2p", env.a.capture + ".expect.json")) as f:
        return json.load(f)["frames"]


def capture(env):
    return env.capture("c2p/%s.pcap" % env.a.capture)


def shown(field, value):
    """A value as tshark -T fields prints the field (the EtherType in hex)."""
    return "0x%04x" % value if field == "c2p.cv2x_ethertype" else str(value)


def rows(env, names):
    out = env.fields(capture(env), names)
    exp = frames(env)
    check(len(out) == len(exp), "%d frames read, expected %d" % (len(out), len(exp)))
    return zip(out, exp)


def t_records(env):
    """C2P's own fields, as Wireshark's C2P dissector shows them."""
    needs_c2p(env)
    names = ["c2p.version", "c2p.type", "c2p.tst.sec", "c2p.tst.msec", "udp.dstport"]
    for row, e in rows(env, names + ALL_FIELDS):
        rec, label = e["c2p"], "frame %d" % e["frame"]
        check(one(row, "udp.dstport") == str(e["udp_port"]), label + " UDP port")
        check(one(row, "c2p.version") == "1", label + " version")
        check(one(row, "c2p.type") == str(rec["type"]), label + " record type")
        check(one(row, "c2p.tst.sec") == str(e["time_us"] // 1000000 - UNIX_2004),
              label + " timestamp seconds")
        check(one(row, "c2p.tst.msec") == str(e["time_us"] % 1000000 // 1000),
              label + " timestamp milliseconds")
        fields = RECORD_FIELDS[rec["type"]]
        check(set(fields) == set(rec) - {"type"}, "%s: expect keys %s" % (label, sorted(rec)))
        for key, field in fields.items():
            check(one(row, field) == shown(field, rec[key]),
                  "%s %s: %s, expected %s" % (label, field, row[field], rec[key]))
        for field in set(ALL_FIELDS) - set(fields.values()):
            check(not row[field], "%s: %s in a record of type %d" % (label, field, rec["type"]))
    print("C2P type, timestamp and the %s record fields of %d records as built"
          % (env.a.capture, len(frames(env))))


def t_wsmp(env):
    """Our WSMP plugin (not the built-in wsmp) decodes the 802.11 frames C2P hands on."""
    needs_c2p(env)
    for row, e in rows(env, wsmp_test.WSMP_FIELDS + ["wlan.ta"]):
        label = "frame %d" % e["frame"]
        stack = one(row, "frame.protocols").split(":")
        check(stack[stack.index("udp"):][:5] == ["udp", "c2p", "wlan", "llc", "ieee1609dot3"],
              "%s protocols %s" % (label, stack))
        check(one(row, "wlan.ta") == e["src"], label + " transmitter")
        wsmp_test.check_frame(row, e, label)
    print("WSMP version, PSID, length, extension elements and 1609.2 presence of %d frames"
          % len(frames(env)))


def needs_j2735(env):
    needs_c2p(env)
    if "j2735" not in protocols(env):
        raise Skip("the J2735 plugin is not built")


def t_j2735_msgid(env):
    """Needs no schema: the MessageFrame's messageId of every frame."""
    needs_j2735(env)
    for row, e in rows(env, ["j2735.msgid"]):
        check(one(row, "j2735.msgid") == str(e["msgid"]), "frame %d msgid" % e["frame"])
    print("J2735 messageId of %d frames" % len(frames(env)))


# expect.json j2735 key -> the plugin's field; ("count", field): how many times it occurs
J2735_FIELDS = {
    "BasicSafetyMessage": {
        "msgCnt": "j2735.BSMcoreData.msgCnt", "id": "j2735.BSMcoreData.id",
        "secMark": "j2735.BSMcoreData.secMark", "lat": "j2735.BSMcoreData.lat",
        "long": "j2735.BSMcoreData.long", "elev": "j2735.BSMcoreData.elev",
        "speed": "j2735.BSMcoreData.speed", "heading": "j2735.BSMcoreData.heading"},
    "SPAT": {
        "intersection_id": "j2735.IntersectionReferenceID.id",
        "revision": "j2735.IntersectionState.revision",
        "timeStamp": "j2735.IntersectionState.timeStamp",
        "movements": ("count", "j2735.MovementState.signalGroup")},
    "MapData": {
        "msgIssueRevision": "j2735.MapData.msgIssueRevision",
        "intersection_id": "j2735.IntersectionReferenceID.id",
        "revision": "j2735.IntersectionGeometry.revision",
        "lanes": ("count", "j2735.GenericLane.laneID")},
}


def t_j2735_fields(env):
    """With the schema: BSM TemporaryID, msgCnt, position...; SPaT and MAP key fields."""
    if not env.a.edition:
        raise Skip("no SAE J2735 schema: configure with -DJ2735_ASN1_DIR=<dir>")
    needs_j2735(env)
    names = sorted({f if isinstance(f, str) else f[1]
                    for fields in J2735_FIELDS.values() for f in fields.values()})
    checked = 0
    for row, e in rows(env, names):
        want = e["j2735"]
        for key, field in J2735_FIELDS[want["type"]].items():
            label = "frame %d %s %s" % (e["frame"], want["type"], key)
            if isinstance(field, tuple):
                got = str(len(row[field[1]]))
            else:
                got = row[field][0] if row[field] else None
            check(got is not None and got.lower() == str(want[key]).lower(),
                  "%s: %s, expected %s" % (label, got, want[key]))
            checked += 1
    print("%d J2735 values of %d frames equal to the vectors' XER" % (checked, len(frames(env))))


def t_not_malformed(env):
    needs_c2p(env)
    out = env.tshark("-r", capture(env), "-q", "-z", "expert")
    check("Malformed" not in out, "Malformed expert infos:\n" + out)
    print("no Malformed expert info")


RATE = re.compile(r" (\d+)\.(\d)Mb/s")


def t_v2xcap_radio(env):
    """v2xcap dump reads the same radio values from each record as Wireshark's C2P
    dissector: channel, data rate, RSSI (none where the record type has none)."""
    needs_c2p(env)
    names = ["c2p.primary_channel", "c2p.datarate", "c2p.rssi_antenna1", "c2p.cv2x_rssi"]
    dump = subprocess.run([env.a.v2xcap, "dump", capture(env)], capture_output=True,
                          text=True, timeout=60)
    check(dump.returncode == 0, "v2xcap dump exit %d: %s" % (dump.returncode, dump.stderr))
    lines = dump.stdout.splitlines()
    got = env.fields(capture(env), names)
    check(len(lines) == len(got), "%d dump lines, %d tshark frames" % (len(lines), len(got)))
    for n, (line, row) in enumerate(zip(lines, got), 1):
        ours = check_dump.layers(line)
        rec = next(seg for seg in line.split(" | ") if seg.startswith("c2p"))
        m = RATE.search(rec)
        channel = row["c2p.primary_channel"]
        rate = row["c2p.datarate"]
        rssi = row["c2p.rssi_antenna1"] or row["c2p.cv2x_rssi"]
        want = {"encap": "c2p",
                "freq_mhz": 5000 + 5 * int(channel[0]) if channel and channel[0] != "0"
                else None,
                "rate": int(rate[0]) if rate and rate[0] != "0" else None,
                "rssi_dbm": int(rssi[0]) if rssi and rssi[0] != "127" else None}
        have = {"encap": ours.get("encap"), "freq_mhz": ours.get("freq_mhz"),
                "rate": int(m[1]) * 2 + int(m[2]) // 5 if m else None,
                "rssi_dbm": ours.get("rssi_dbm")}
        check(have == want, "frame %d: v2xcap %s, Wireshark %s" % (n, have, want))
    print("channel, data rate and RSSI of %d C2P records: v2xcap dump = Wireshark" % len(got))


TESTS = {"records": t_records, "v2xcap_radio": t_v2xcap_radio, "wsmp": t_wsmp, "j2735_msgid": t_j2735_msgid,
         "j2735_fields": t_j2735_fields, "not_malformed": t_not_malformed}


def main():
    ap = tshark_driver.arg_parser()
    ap.add_argument("--mkcap", required=True)
    ap.add_argument("--v2xcap", required=True)
    ap.add_argument("--edition", default="")
    ap.add_argument("--capture", default="c2p-dsrc", choices=["c2p-dsrc", "c2p-cv2x"])
    ap.add_argument("test", choices=sorted(TESTS))
    a = ap.parse_args()
    return wsmp_test.run_case(TESTS[a.test], wsmp_test.Env(a))


if __name__ == "__main__":
    sys.exit(main())

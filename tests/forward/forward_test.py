#!/usr/bin/python3
"""What units forward over UDP around a V2X message, found with no configuration: C-V2X
PC5 non-IP frames (captures/pc5: the V2X message family octet 1 of 3GPP TS 24.587 9.3, or
the EtherType 0x88DC, then WSMP) and USDOT RSU text records (captures/rsu: over UDP 1516,
and a file of records). Both `v2xcap decode` and tshark with this build's plugins; every
value asserted comes from the capture's expect.json (the framing mkcap was asked for, the
vectors' XER). One subcommand per behaviour; exit 0 pass, 1 fail, 77 skip."""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "wsmp"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "c2p"))
import wsmp_test  # noqa: E402  (its tshark runner and the WSMP checks of an expect.json frame)
import tshark_driver  # noqa: E402
from c2p_test import J2735_FIELDS  # noqa: E402  (expect.json key -> the J2735 plugin's field)
from wsmp_test import Fail, Skip, check, one  # noqa: E402

PC5 = {"pc5/pc5-family-udp.pcap": ("family", "1"),
       "pc5/pc5-ethertype-udp.pcap": ("ethertype", "0x88dc")}
RSU_UDP = "rsu/rsu-imf-udp.pcap"
RSU_FILE = "rsu/rsu-imf-records.txt"
CAPTURES = sorted(PC5) + [RSU_UDP]
# The records file is built from the same mkcap options as the RSU capture
RSU_FILE_ARGS = ["--format", "rsu"]



def frames(env, name):
    base = name.rsplit(".", 1)[0]
    with open(os.path.join(env.a.captures, base + ".expect.json")) as f:
        return json.load(f)["frames"]


def rows(env, name, names):
    out = env.fields(env.capture(name), names)
    exp = frames(env, name)
    check(len(out) == len(exp), "%s: %d frames read, expected %d" % (name, len(out), len(exp)))
    return zip(out, exp)


def stack_after_udp(row):
    stack = one(row, "frame.protocols").split(":")
    return stack[stack.index("udp") + 1:]


def t_pc5_wsmp(env):
    """The PC5 prefix (family octet or EtherType) in the tree, WSMP and 1609.2 after it."""
    names = wsmp_test.WSMP_FIELDS + ["v2x_pc5.family", "v2x_pc5.ethertype", "j2735.msgid"]
    n = 0
    for name, (field, value) in PC5.items():
        for row, e in rows(env, name, names):
            label = "%s frame %d" % (name, e["frame"])
            check(stack_after_udp(row)[:2] == ["v2x_pc5", "ieee1609dot3"],
                  "%s protocols %s" % (label, one(row, "frame.protocols")))
            check(one(row, "v2x_pc5." + field) == value, "%s %s" % (label, field))
            wsmp_test.check_frame(row, e, label)
            check(one(row, "j2735.msgid") == str(e["msgid"]), label + " msgid")
            n += 1
    print("PC5 prefix, WSMP version/PSID/length, 1609.2, messageId of %d frames" % n)


def t_rsu_record(env):
    """The record's Type, PSID (its value) and TxChannel; the payload's messageId."""
    names = ["frame.protocols", "usdot_rsu.type", "usdot_rsu.psid", "usdot_rsu.txchannel",
             "usdot_rsu.signature", "j2735.msgid", "ieee1609dot2.content"]
    n = 0
    for row, e in rows(env, RSU_UDP, names):
        label, rec = "frame %d" % e["frame"], e["rsu"]
        check(stack_after_udp(row)[0] == "usdot_rsu", label + " protocols")
        check(one(row, "usdot_rsu.type") == rec["type"], label + " Type")
        check(one(row, "usdot_rsu.psid") == wsmp_test.psid_hex(e["psid"]), label + " PSID")
        check(one(row, "usdot_rsu.txchannel") == str(rec["tx_channel"]), label + " TxChannel")
        shown = "True" if rec["signature"] else "False"  # the record's text
        check(one(row, "usdot_rsu.signature") == wsmp_test.BOOLEAN_SHOWN.get(shown, shown),
              label + " Signature")
        check(one(row, "j2735.msgid") == str(e["msgid"]), label + " msgid")
        check(bool(row["ieee1609dot2.content"]) == (e["dot2"] != "none"), label + " 1609.2")
        n += 1
    print("RSU record Type, PSID, TxChannel, Signature and the messageId of %d frames" % n)


def t_j2735_fields(env):
    """With the schema: BSM, SPaT and MAP key fields equal to the vectors' XER."""
    if not env.a.edition:
        raise Skip("no SAE J2735 schema: configure with -DJ2735_ASN1_DIR=<dir>")
    names = sorted({f if isinstance(f, str) else f[1]
                    for fields in J2735_FIELDS.values() for f in fields.values()})
    checked = 0
    for name in CAPTURES:
        for row, e in rows(env, name, names):
            want = e.get("j2735", {})
            for key, field in J2735_FIELDS.get(want.get("type"), {}).items():
                got = str(len(row[field[1]])) if isinstance(field, tuple) else \
                    (row[field][0] if row[field] else None)
                check(got is not None and got.lower() == str(want[key]).lower(),
                      "%s frame %d %s: %s, expected %s" % (name, e["frame"], key, got, want[key]))
                checked += 1
    check(checked > 20, "only %d values checked" % checked)
    print("%d J2735 values equal to the vectors' XER" % checked)


def t_not_malformed(env):
    for name in CAPTURES:
        out = env.tshark("-r", env.capture(name), "-q", "-z", "expert")
        check("Malformed" not in out, "%s: Malformed expert infos:\n%s" % (name, out))
    print("no Malformed expert info in %d captures" % len(CAPTURES))


def t_heuristics_take_nothing_else(env):
    """The other sample captures (UDP J2735, 1609.2, C2P, TZSP, radiotap ...) stay theirs."""
    others = [c for c in wsmp_test.good_captures(env)] + ["j2735-udp.pcap", "dot2-udp.pcap",
                                                          "tzsp-80211.pcap"]
    rows_ = env.fields(wsmp_test.merged(env, others, "others.pcapng"), ["frame.protocols"])
    taken = [one(r, "frame.protocols") for r in rows_
             if {"v2x_pc5", "usdot_rsu"} & set(one(r, "frame.protocols").split(":"))]
    check(not taken, "taken by the PC5/RSU heuristics: %s" % taken[:3])
    print("none of %d frames of other captures taken" % len(rows_))


def t_pc5_decode_as(env):
    """With the heuristic off, Decode As (udp.port, v2x_pc5) opens the same frames."""
    name = "pc5/pc5-family-udp.pcap"
    port = str(frames(env, name)[0]["udp_port"])
    base = env.fields(env.capture(name), ["frame.protocols"], "--disable-heuristic",
                      "v2x_pc5_udp")
    check(all("v2x_pc5" not in one(r, "frame.protocols") for r in base),
          "heuristic still on")
    got = env.fields(env.capture(name), ["frame.protocols", "v2x_pc5.family"],
                     "--disable-heuristic", "v2x_pc5_udp", "-d", "udp.port==%s,v2x_pc5" % port)
    check(all(one(r, "v2x_pc5.family") == "1" for r in got), "Decode As: %s" % got)
    print("Decode As udp.port==%s,v2x_pc5: %d frames" % (port, len(got)))


# --- v2xcap ----------------------------------------------------------------------------

def v2xcap_decode(env, path):
    p = subprocess.run([env.a.v2xcap, "decode", path], capture_output=True, text=True)
    check(p.returncode == 0, "v2xcap decode %s: exit %d %s" % (path, p.returncode, p.stderr))
    return [json.loads(l) for l in p.stdout.splitlines()]


def get(obj, *path):
    for k in path:
        obj = obj[k] if isinstance(obj, dict) and k in obj else \
            obj[k] if isinstance(obj, list) and isinstance(k, int) and k < len(obj) else None
    return obj


# expect.json j2735 key -> the path in v2xcap decode's "value" (J2735's own names)
DECODE_PATHS = {
    "BasicSafetyMessage": {k: ("coreData", k) for k in
                           ("msgCnt", "secMark", "lat", "long", "elev", "speed", "heading")},
    "SPAT": {"intersection_id": ("intersections", 0, "id", "id"),
             "revision": ("intersections", 0, "revision"),
             "timeStamp": ("intersections", 0, "timeStamp")},
    "MapData": {"intersection_id": ("intersections", 0, "id", "id"),
                "revision": ("intersections", 0, "revision")},
    "TravelerInformation": {"msgCnt": ("msgCnt",)},
}


def check_decoded(d, e, label):
    """One decode line against its expect.json frame; returns the values checked."""
    n = 0
    check(get(d, "link", "encapsulation") == e["encap"], label + " encapsulation")
    check(get(d, "j2735", "messageId") == e["msgid"], label + " messageId")
    if e.get("wsmp_version"):
        check(get(d, "wsmp", "psid") == e["psid"], label + " WSMP PSID")
        check(get(d, "wsmp", "length") == e["wsm_length"], label + " WSM length")
        n += 2
    if "rsu" in e:
        rec = get(d, "link", "rsu_record") or {}
        check(rec.get("type") == e["rsu"]["type"], label + " RSU Type")
        check(rec.get("psid") == e["psid"], label + " RSU PSID")
        check(rec.get("tx_channel") == e["rsu"]["tx_channel"], label + " RSU TxChannel")
        check(get(d, "link", "channel_mhz") == 5000 + 5 * e["rsu"]["tx_channel"],
              label + " channel")
        n += 4
    want = e.get("j2735", {})
    for key, path in DECODE_PATHS.get(want.get("type"), {}).items():
        got = get(d, "j2735", "value", *path)
        check(got == want[key], "%s %s: %r, expected %r" % (label, key, got, want[key]))
        n += 1
    if want.get("type") == "BasicSafetyMessage":
        got = get(d, "j2735", "value", "coreData", "id")
        check(str(got).upper() == want["id"], "%s id: %r" % (label, got))
        n += 1
    return n + 2


def needs_decoder(env):
    out = subprocess.run([env.a.v2xcap, "--version"], capture_output=True, text=True).stdout
    if "decoder: edition" not in out:
        raise Skip("v2xcap built without a J2735 schema (-DJ2735_ASN1_DIR)")


def t_v2xcap_decode(env):
    """v2xcap decode finds each encapsulation and decodes the message to the XER values."""
    needs_decoder(env)
    n = 0
    for name in CAPTURES:
        out, exp = v2xcap_decode(env, env.capture(name)), frames(env, name)
        check(len(out) == len(exp), "%s: %d lines, expected %d" % (name, len(out), len(exp)))
        for d, e in zip(out, exp):
            n += check_decoded(d, e, "%s frame %d" % (name, e["frame"]))
    print("%d values of %d captures" % (n, len(CAPTURES)))


def rsu_file_args(env):
    """The RSU capture's mkcap options, as a records file"""
    with open(os.path.join(env.a.captures, "captures.list")) as f:
        for line in f:
            parts = line.split()
            if parts and parts[0] == RSU_UDP:
                return [p.replace("$VECTORS", env.a.vectors) for p in parts[1:]
                        if p not in ("--link", "rsu")]
    raise Fail(RSU_UDP + " not in captures.list")


def t_rsu_file(env):
    """A file of records: rebuilt byte for byte by mkcap; v2xcap reads it as a capture
    (each record a frame) with the values of the same records over UDP; convert writes
    exported PDUs that tshark with the plugins and v2xcap read back."""
    needs_decoder(env)
    path = os.path.join(env.a.captures, RSU_FILE)
    rebuilt = os.path.join(env.tmp, "records.txt")
    subprocess.run([env.a.mkcap, "-o", rebuilt] + RSU_FILE_ARGS + rsu_file_args(env),
                   check=True)
    with open(path, "rb") as a, open(rebuilt, "rb") as b:
        check(a.read() == b.read(), RSU_FILE + " differs from what mkcap builds")
    exp = frames(env, RSU_UDP)
    out = v2xcap_decode(env, path)
    check(len(out) == len(exp), "%d records, expected %d" % (len(out), len(exp)))
    for d, e in zip(out, exp):
        e = dict(e, encap=None)  # a file's record: no UDP
        check_decoded(d, e, "record %d" % e["frame"])
    pcapng = os.path.join(env.tmp, "records.pcapng")
    p = subprocess.run([env.a.v2xcap, "convert", path, "-o", pcapng], capture_output=True,
                       text=True)
    check(p.returncode == 0, "convert: %s" % p.stderr)
    for d, e in zip(v2xcap_decode(env, pcapng), exp):
        check_decoded(d, dict(e, encap=None), "converted record %d" % e["frame"])
    got = env.fields(pcapng, ["usdot_rsu.type", "j2735.msgid"])
    check([(one(r, "usdot_rsu.type"), one(r, "j2735.msgid")) for r in got] ==
          [(e["rsu"]["type"], str(e["msgid"])) for e in exp], "tshark on convert: %s" % got)
    # a store-and-repeat record's DeliveryStart (MM/DD/YYYY, HH:MM, UTC) times its frame
    timed = os.path.join(env.tmp, "timed.txt")
    with open(path, "rb") as a, open(timed, "wb") as b:
        b.write(a.read().replace(b"DeliveryStart=\n", b"DeliveryStart=11/21/2026, 12:30\n", 1))
    times = [d["time"] for d in v2xcap_decode(env, timed)]
    check(times[:2] == [1795264200.0, 0.0], "DeliveryStart times: %s" % times)
    print("%d records: file, v2xcap decode, convert, tshark; DeliveryStart as time" % len(exp))


TESTS = {"pc5_wsmp": t_pc5_wsmp, "rsu_record": t_rsu_record, "j2735_fields": t_j2735_fields,
         "not_malformed": t_not_malformed, "heuristics": t_heuristics_take_nothing_else,
         "pc5_decode_as": t_pc5_decode_as, "v2xcap_decode": t_v2xcap_decode,
         "rsu_file": t_rsu_file}
TSHARK_TESTS = {"pc5_wsmp", "rsu_record", "j2735_fields", "not_malformed", "heuristics",
                "pc5_decode_as", "rsu_file"}


def main():
    ap = tshark_driver.arg_parser()
    ap.add_argument("--mkcap", required=True)
    ap.add_argument("--v2xcap", required=True)
    ap.add_argument("--edition", default="")
    ap.add_argument("test", choices=sorted(TESTS))
    a = ap.parse_args()
    def case(env):
        if a.test in TSHARK_TESTS and not shutil.which("tshark"):
            raise Skip("tshark not installed")
        TESTS[a.test](env)
    return wsmp_test.run_case(case, wsmp_test.Env(a))


if __name__ == "__main__":
    sys.exit(main())

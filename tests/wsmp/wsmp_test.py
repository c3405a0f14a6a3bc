#!/usr/bin/python3
"""Dissector tests of the WSMP plugin: tshark (through tests/run-tshark, as an
unprivileged user with this build's plugins) over the sample captures, the real
ieee1609-examples frames and the WSA test payload. One subcommand per behaviour;
exit 0 pass, 1 fail, 77 skip."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tshark_driver  # noqa: E402  (tests/tshark_driver.py: the shared options)
import wsa_encode  # noqa: E402  (the WSA's known field values)

SKIP = 77
TSHARK_TIMEOUT = 300  # a guard against hangs, not a timing assertion


class Fail(Exception):
    pass


class Skip(Exception):
    """A test that cannot run here (what it needs is missing): exit SKIP."""


def run_case(case, env):
    """Runs case(env) as ctest expects of a driver: 0, 1 with FAIL: on Fail, SKIP with
    SKIP: on Skip; the test's temporary folder removed either way."""
    try:
        case(env)
    except Skip as e:
        print("SKIP:", e)
        return SKIP
    except Fail as e:
        print("FAIL:", e)
        return 1
    finally:
        shutil.rmtree(env.tmp, ignore_errors=True)
    return 0


def check(cond, what):
    if not cond:
        raise Fail(what)


# tshark 4.0 prints FT_BOOLEAN fields as 1/0 in -T fields, 4.4 and 4.6 as True/False.
BOOLEAN_SHOWN = {"True": "1", "False": "0"}


def protocol_filter_names(out):
    """The filter names of `tshark -G protocols`: the third column (4.4 added columns
    after it)."""
    return [l.split("\t")[2] for l in out.splitlines() if l.count("\t") >= 2]


class Env:
    def __init__(self, a):
        self.a = a
        self.tmp = tempfile.mkdtemp(prefix="wsmp-test.")
        os.chmod(self.tmp, 0o755)

    def tshark(self, *args, ok_codes=(0,)):
        cmd = [self.a.run_tshark, self.a.plugins] + [str(x) for x in args]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TSHARK_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Fail("tshark hung: " + " ".join(cmd))
        if p.returncode not in ok_codes:
            raise Fail("tshark exit %d: %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
        return p.stdout

    def has_field(self, name):
        return "\t%s\t" % name in self.tshark("-G", "fields")

    def fields(self, capture, names, *extra):
        """One dict per frame: field name -> list of values (tshark -T fields)."""
        args = ["-r", capture, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|",
                "-e", "frame.number"]
        for n in names:
            args += ["-e", n]
        out = self.tshark(*(args + list(extra)))
        rows = []
        for line in out.splitlines():
            number, _, rest = line.partition("\t")
            if not number.isdigit():
                continue  # text other plugins print at the end (tap summaries)
            cols = rest.split("\t")
            rows.append({n: [BOOLEAN_SHOWN.get(v, v) for v in c.split("|") if v != ""]
                         for n, c in zip(names, cols + [""] * len(names))})
        return rows

    def capture(self, name):
        path = os.path.join(self.a.captures, name)
        return path if os.path.exists(path) else self.build_listed(name)

    def build_listed(self, name):
        """Builds a capture of captures.list with mkcap when it is not (yet) committed."""
        with open(os.path.join(self.a.captures, "captures.list")) as f:
            for line in f:
                parts = line.split()
                if parts and parts[0] == name:
                    out = os.path.join(self.tmp, os.path.basename(name))
                    subst = {"$PAYLOADS": os.path.join(self.a.captures, "payloads"),
                             "$VECTORS": self.a.vectors}
                    args = []
                    for p in parts[1:]:
                        for k, v in subst.items():
                            p = p.replace(k, v)
                        args.append(p)
                    subprocess.run([self.a.mkcap, "-o", out] + args, check=True)
                    return out
        raise Fail("%s is neither in captures/ nor in captures.list" % name)

    def text2pcap(self, name, packets):
        """One frame per WSMP hex string: Linux cooked (SLL) with protocol 0x88DC, which,
        unlike Ethernet, adds no padding after short frames."""
        txt = os.path.join(self.tmp, name + ".txt")
        out = os.path.join(self.tmp, name + ".pcap")
        with open(txt, "w") as f:
            for wsmp in packets:
                frame = "0000" "0001" "0006" "020000000001" "0000" "88dc" + wsmp
                f.write("000000 " + " ".join(frame[i:i + 2] for i in range(0, len(frame), 2))
                        + "\n")
        subprocess.run(["text2pcap", "-q", "-l", "113", txt, out], check=True)
        return out


def one(row, name):
    vals = row.get(name, [])
    check(len(vals) == 1, "%s: expected one value, got %r" % (name, vals))
    return vals[0]


def psid_hex(v):
    return "0x%08x" % v


# --- registration -------------------------------------------------------------------

def t_plugin_listed(env):
    out = env.tshark("-G", "plugins")
    check(any(l.split("\t")[0].strip() == "wsmp.so" and "dissector" in l
              for l in out.splitlines()), "wsmp.so not in tshark -G plugins:\n" + out)


def t_protocol_registered(env):
    rows = [l.split("\t") for l in env.tshark("-G", "protocols").splitlines()]
    ours = [r for r in rows if r[2:3] == ["ieee1609dot3"]]  # the filter name column
    stock = [r for r in rows if r[2:3] == ["wsmp"]]
    check(len(ours) == 1, "ieee1609dot3 not registered")
    check(len(stock) == 1, "the built-in wsmp should still be registered")
    check(ours[0][0] != stock[0][0] and ours[0][1] != stock[0][1],
          "names clash with the built-in: %r %r" % (ours, stock))


def t_psid_table_decode_as(env):
    out = env.tshark("-G", "dissector-tables")
    row = [l.split("\t") for l in out.splitlines() if l.startswith("ieee1609dot3.psid\t")]
    check(row, "no ieee1609dot3.psid table")
    check(row[0][2] == "FT_UINT32" and "Decode As supported" in row[0],
          "table row: %r" % row[0])


# --- the sample captures -----------------------------------------------------------

WSMP_FIELDS = ["frame.protocols", "ieee1609dot3.version", "ieee1609dot3.psid",
               "ieee1609dot3.length", "ieee1609dot3.tpid", "ieee1609dot3.ext.id",
               "ieee1609dot3.tx_power", "ieee1609dot3.channel", "ieee1609dot3.data_rate",
               "ieee1609dot3.channel_load", "ieee1609dot3.ext.value",
               "ieee1609dot3.wave_element_id"]
ELEMENT_FIELD = {"4": "ieee1609dot3.tx_power", "15": "ieee1609dot3.channel",
                 "16": "ieee1609dot3.data_rate", "23": "ieee1609dot3.channel_load"}


def check_frame(row, exp, label):
    check(one(row, "ieee1609dot3.version") == str(exp["wsmp_version"]), label + " version")
    if exp.get("psid") is not None:
        check(one(row, "ieee1609dot3.psid") == psid_hex(exp["psid"]), label + " psid")
    length = exp.get("wsm_length_field", exp.get("wsm_length"))
    if length is not None:
        check(one(row, "ieee1609dot3.length") == str(length), label + " length")
    if exp["wsmp_version"] == 3 and exp.get("psid") is not None:
        check(one(row, "ieee1609dot3.tpid") == str(exp.get("tpid", 0)), label + " tpid")
    if exp["wsmp_version"] == 2:
        check(one(row, "ieee1609dot3.wave_element_id") == "128", label + " WAVE element id")
    elements = exp.get("wave_elements") or {}
    check(sorted(row["ieee1609dot3.ext.id"], key=int) == sorted(elements, key=int),
          "%s element ids %r, expected %r" % (label, row["ieee1609dot3.ext.id"],
                                              list(elements)))
    for eid, value in elements.items():
        if eid in ELEMENT_FIELD:
            got = one(row, ELEMENT_FIELD[eid])
            check(got == str(value), "%s element %s = %s, expected %s" % (label, eid, got,
                                                                         value))
        else:
            check(str(value).lower() in row["ieee1609dot3.ext.value"],
                  "%s unknown element %s value %r" % (label, eid,
                                                       row["ieee1609dot3.ext.value"]))
    protocols = one(row, "frame.protocols").split(":")
    dot2 = exp.get("dot2")
    has_dot2 = dot2 not in (None, "none")
    check(("ieee1609dot2" in protocols) == has_dot2,
          "%s 1609.2 presence: %s, expected %s" % (label, protocols, dot2))


def expect_of(env, name):
    with open(os.path.join(env.a.captures, name + ".expect.json")) as f:
        return json.load(f)


def wsmp_expects(env):
    """(capture, expect) for every sample capture whose frames carry WSMP."""
    out = []
    for f in sorted(os.listdir(env.a.captures)):
        if f.endswith(".expect.json"):
            exp = expect_of(env, f[:-len(".expect.json")])
            if any(fr.get("wsmp_version") for fr in exp.get("frames", [])):
                out.append((exp["capture"], exp))
    return out


def merged(env, captures, name):
    """The captures concatenated into one pcapng (one tshark run instead of one each)."""
    path = os.path.join(env.tmp, name)
    subprocess.run(["mergecap", "-a", "-w", path] + [env.capture(c) for c in captures],
                   check=True)
    return path


def t_captures_match_expect(env):
    expects = wsmp_expects(env)
    check(expects, "no sample captures with WSMP in " + env.a.captures)
    rows = env.fields(merged(env, [c for c, _ in expects], "expects.pcapng"), WSMP_FIELDS)
    frames = [(cap, fr) for cap, exp in expects for fr in exp["frames"]]
    check(len(rows) == len(frames), "%d frames, expected %d" % (len(rows), len(frames)))
    for row, (cap, fr) in zip(rows, frames):
        check_frame(row, fr, "%s frame %d" % (cap, fr["frame"]))
    print("%d frames of %d captures checked" % (len(frames), len(expects)))


def good_captures(env):
    return [c for c, _ in wsmp_expects(env)]


def t_good_captures_not_malformed(env):
    out = env.tshark("-r", merged(env, good_captures(env), "good.pcapng"), "-q", "-z", "expert")
    check("Malformed" not in out, "Malformed expert infos in the good captures:\n" + out)


# --- the real frames of ieee1609-examples ----------------------------------------

def vector_json(env, name):
    path = os.path.join(env.a.vectors, "ieee1609-examples", name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def t_gdot_vector(env):
    v = vector_json(env, "gdot.json")
    if v is None:
        return SKIP
    nn = v["subtype"]["nullNetworking"]
    ext = {e["extensionId"]: list(e["value"].values())[0] for e in nn["nExtensions"]}
    psid = v["transport"]["bcMode"]["addrInfo"]["extension"]["content"]
    cap = env.capture("gdot-radiotap.pcap")
    # Decode As data on our own PSID table, so the payload is shown as bytes
    row = env.fields(cap, WSMP_FIELDS + ["data.data", "_ws.col.Info"],
                     "-d", "ieee1609dot3.psid==0x%x,data" % psid)[0]
    check(one(row, "ieee1609dot3.version") == str(nn["version"]), "version")
    check(one(row, "ieee1609dot3.channel") == str(ext[15]) == "180", "channel")
    check(one(row, "ieee1609dot3.data_rate") == str(ext[16]) == "12", "data rate")
    check(one(row, "ieee1609dot3.tx_power") == str(ext[4]), "tx power")
    check(one(row, "ieee1609dot3.psid") == psid_hex(psid), "psid")
    body = v["body"].lower()
    check(one(row, "data.data") == body, "payload differs from the vector's body")
    check(one(row, "ieee1609dot3.length") == str(len(body) // 2), "length")
    check("ieee1609dot2" not in one(row, "frame.protocols"), "gdot has no 1609.2 layer")
    info = one(row, "_ws.col.Info")
    check(info.startswith("WSMP v3 PSID 0x82 (Intersection safety and awareness) ch 180 "
                          "6 Mb/s 176 B"), "COL_INFO: " + info)


def t_udp2_vector_signed_bsm(env):
    v = vector_json(env, "udp2.json")
    if v is None:
        return SKIP
    psid = v["transport"]["bcMode"]["addrInfo"]["content"]
    # The HeaderInfo PSID of Wireshark's own 1609.2 dissector: ieee1609dot2.psid up to 4.4,
    # ieee1609dot2.hiPsid in 4.6 (where ieee1609dot2.psid is a PsidSsp field).
    dot2_psid = next(n for n in ("ieee1609dot2.hiPsid", "ieee1609dot2.psid")
                     if env.has_field(n))
    row = env.fields(env.capture("udp2-radiotap.pcap"),
                     WSMP_FIELDS + [dot2_psid, "ieee1609dot2.signedData_element"])[0]
    check(psid == 0x20 and one(row, "ieee1609dot3.psid") == psid_hex(psid), "psid")
    check(one(row, "ieee1609dot3.version") == "3", "version")
    check(one(row, "ieee1609dot3.length") == str(len(v["body"]) // 2), "length")
    check("ieee1609dot2" in one(row, "frame.protocols").split(":"), "1609.2 not reached")
    check(one(row, "ieee1609dot2.signedData_element") == "1", "not signedData")
    check(one(row, dot2_psid) == str(psid), "1609.2 PSID")


def t_v2_header(env):
    row = env.fields(env.capture("bsm-wsmp-v2.pcap"), WSMP_FIELDS)[0]
    check(one(row, "ieee1609dot3.version") == "2", "version")
    check(one(row, "ieee1609dot3.psid") == psid_hex(0x20), "psid")
    check(one(row, "ieee1609dot3.wave_element_id") == "128", "WAVE element id")
    check(one(row, "ieee1609dot3.channel") == "172", "channel")
    check(one(row, "ieee1609dot3.data_rate") == "12", "data rate")
    check(one(row, "ieee1609dot3.length") == "177", "length")


# --- TPIDs, built here as raw WSMP on Ethernet -----------------------------------------

def t_tpids(env):
    # N-header 0x03, TPID, then PSID 0x7f / ports 4660,1001 / LPP 0x82 (p-encoded 80 02);
    # odd TPIDs add one T-header extension (id 99, 1 octet 0x2a); length 2, payload abcd.
    # PSID 0x7f (testing) has no dissector; raw_j2735 off keeps the payload as data.
    fields = {0: "7f", 1: "7f", 2: "123403e9", 3: "123403e9", 4: "8002", 5: "8002"}
    cap = env.text2pcap("tpids", ["03%02x" % tpid + body + ("0163012a" if tpid % 2 else "")
                                  + "02abcd" for tpid, body in fields.items()])
    rows = env.fields(cap, WSMP_FIELDS + ["ieee1609dot3.src_port", "ieee1609dot3.dst_port",
                                         "ieee1609dot3.lpp", "data.data"],
                      "-o", "ieee1609dot3.raw_j2735:FALSE")
    check(len(rows) == len(fields), "frames: %d" % len(rows))
    for tpid, row in zip(fields, rows):
        label = "TPID %d" % tpid
        check(one(row, "ieee1609dot3.tpid") == str(tpid), label)
        if tpid in (0, 1):
            check(one(row, "ieee1609dot3.psid") == psid_hex(0x7f), label + " psid")
        if tpid in (2, 3):
            check(one(row, "ieee1609dot3.src_port") == "4660", label + " source port")
            check(one(row, "ieee1609dot3.dst_port") == "1001", label + " destination port")
        if tpid in (4, 5):
            check(one(row, "ieee1609dot3.lpp") == psid_hex(0x82), label + " LPP")
        check(row["ieee1609dot3.ext.id"] == (["99"] if tpid % 2 else []), label + " ext")
        check(one(row, "ieee1609dot3.length") == "2", label + " length")
        check(one(row, "data.data") == "abcd", label + " payload")


def t_raw_j2735_preference(env):
    path = os.path.join(env.a.vectors, "asn1_codec", "j2735.MessageFrame.Bsm.hex")
    protocols = protocol_filter_names(env.tshark("-G", "protocols"))
    if not os.path.exists(path) or "j2735" not in protocols:
        return SKIP  # needs the BSM vector and the J2735 plugin
    with open(path) as f:
        bsm = "".join(f.read().split())
    # PSID 0x7f (testing): no PSID table entry, no 1609.2 header; 2-octet WSM length
    cap = env.text2pcap("raw", ["03007f%04x" % (0x8000 | (len(bsm) // 2)) + bsm])
    on = one(env.fields(cap, ["frame.protocols"])[0], "frame.protocols").split(":")
    check("j2735" in on, "default (on): payload not given to J2735: %r" % on)
    off = one(env.fields(cap, ["frame.protocols"], "-o", "ieee1609dot3.raw_j2735:FALSE")[0],
              "frame.protocols").split(":")
    check("data" in off and "j2735" not in off, "off: %r" % off)


def t_j2735_rule(env):
    """libv2x's rule in the plugin: PSID 0 carrying 00 01 02 03 04 (messageId 1, not
    defined) is data; J2735 once extra_psids names PSID 0; by content past any PSID."""
    protocols = protocol_filter_names(env.tshark("-G", "protocols"))
    if "j2735" not in protocols:
        return SKIP  # needs the J2735 plugin
    cap = env.text2pcap("rule", ["030000050001020304", "03047f05001402abcd"])
    rows = env.fields(cap, ["frame.protocols", "j2735.msgid"])
    check("j2735" not in one(rows[0], "frame.protocols"), "PSID 0 payload taken as J2735")
    check(rows[1]["j2735.msgid"] == ["20"], "TPID 4, BSM by content: %r" % rows[1])
    rows = env.fields(cap, ["j2735.msgid"], "-o", "j2735.extra_psids:0")
    check(rows[0]["j2735.msgid"] == ["1"], "extra_psids 0: %r" % rows[0])


# --- expert infos on bad input ---------------------------------------------------------

def frames_matching(env, cap, display_filter):
    return len(env.fields(cap, [], "-Y", display_filter))


def t_bad_captures_expert_infos(env):
    cases = [("bad/psid-5-octets.pcap", "ieee1609dot3.psid.bad"),
             ("bad/unknown-wave-element.pcap", "ieee1609dot3.ext.unknown"),
             ("bad/wsm-length-lies.pcap", "ieee1609dot3.length.beyond")]
    experts = [e for _, e in cases]
    rows = env.fields(merged(env, [c for c, _ in cases], "bad.pcapng"),
                      experts + WSMP_FIELDS)
    check(len(rows) == len(cases), "frames: %d" % len(rows))
    for (cap, expert), row in zip(cases, rows):
        check(row[expert] == ["1"], "%s: no %s" % (cap, expert))
    # an unknown element is shown and decoding goes on: the channel and PSID follow it
    row = rows[1]
    check(one(row, "ieee1609dot3.channel") == "172", "channel after an unknown element")
    check(one(row, "ieee1609dot3.psid") == psid_hex(0x20), "psid after an unknown element")


def t_bad_version_and_truncated_header(env):
    cases = [("05002002abcd", "ieee1609dot3.version.bad"),
             ("0b030f01", "ieee1609dot3.truncated"),           # elements cut short
             ("0300c0", "ieee1609dot3.psid.bad"),              # 3-octet PSID, 1 there
             ("0300f000000020", "ieee1609dot3.psid.bad"),      # 5-octet p-encoding
             ("030020", "ieee1609dot3.truncated"),             # no WSM length
             ("03092002abcd", "ieee1609dot3.tpid.bad"),
             ("0b010f02b4b4002002abcd", "ieee1609dot3.ext.bad_length"),
             ("03002005abcd", "ieee1609dot3.length.beyond")]
    experts = sorted(set(e for _, e in cases))
    rows = env.fields(env.text2pcap("bad", [h for h, _ in cases]), experts)
    check(len(rows) == len(cases), "frames: %d" % len(rows))
    for (hexbytes, expert), row in zip(cases, rows):
        check(row[expert] == ["1"], "%s: no %s in %r" % (hexbytes, expert, row))


# --- WSA --------------------------------------------------------------------------------

WSA_FIELDS = ["ieee1609dot3.wsa.version", "ieee1609dot3.wsa.id",
              "ieee1609dot3.wsa.content_count", "ieee1609dot3.wsa.repeat_rate",
              "ieee1609dot3.wsa.latitude", "ieee1609dot3.wsa.longitude",
              "ieee1609dot3.wsa.elevation", "ieee1609dot3.wsa.advertiser_id",
              "ieee1609dot3.wsa.psid", "ieee1609dot3.wsa.channel_index",
              "ieee1609dot3.wsa.service_port", "ieee1609dot3.wsa.mac_address",
              "ieee1609dot3.wsa.rcpi_threshold", "ieee1609dot3.wsa.operating_class",
              "ieee1609dot3.wsa.channel", "ieee1609dot3.wsa.power",
              "ieee1609dot3.wsa.adaptable", "ieee1609dot3.wsa.data_rate",
              "ieee1609dot3.wsa.channel_access", "ieee1609dot3.wsa.router_lifetime",
              "ieee1609dot3.wsa.ip_prefix", "ieee1609dot3.wsa.ip_prefix_length",
              "ieee1609dot3.wsa.default_gateway", "ieee1609dot3.wsa.primary_dns",
              "ieee1609dot3.wsa.ipv6_address", "frame.protocols", "ieee1609dot3.psid"]


def t_wsa(env):
    w = wsa_encode.WSA
    s2 = w["services"][1]
    c = w["channels"][0]
    r = w["routing"]
    expected = {
        "ieee1609dot3.wsa.version": [w["version"]], "ieee1609dot3.wsa.id": [w["id"]],
        "ieee1609dot3.wsa.content_count": [w["content_count"]],
        "ieee1609dot3.wsa.repeat_rate": [w["repeat_rate"]],
        "ieee1609dot3.wsa.latitude": [w["latitude"]],
        "ieee1609dot3.wsa.longitude": [w["longitude"]],
        "ieee1609dot3.wsa.elevation": [w["elevation"]],
        "ieee1609dot3.wsa.advertiser_id": [w["advertiser_id"]],
        "ieee1609dot3.wsa.psid": [psid_hex(s["psid"]) for s in w["services"]],
        "ieee1609dot3.wsa.channel_index": [s["channel_index"] for s in w["services"]],
        "ieee1609dot3.wsa.service_port": [s2["service_port"]],
        "ieee1609dot3.wsa.mac_address": [s2["mac"]],
        "ieee1609dot3.wsa.rcpi_threshold": [s2["rcpi_threshold"]],
        "ieee1609dot3.wsa.operating_class": [c["operating_class"]],
        "ieee1609dot3.wsa.channel": [c["channel"]], "ieee1609dot3.wsa.power": [c["power"]],
        "ieee1609dot3.wsa.adaptable": ["1" if c["adaptable"] else "0"],
        "ieee1609dot3.wsa.data_rate": [c["data_rate"]],
        "ieee1609dot3.wsa.channel_access": [c["channel_access"]],
        "ieee1609dot3.wsa.router_lifetime": [r["lifetime"]],
        "ieee1609dot3.wsa.ip_prefix": [r["prefix"]],
        "ieee1609dot3.wsa.ip_prefix_length": [r["prefix_length"]],
        "ieee1609dot3.wsa.default_gateway": [r["gateway"]],
        "ieee1609dot3.wsa.primary_dns": [r["dns"]],
        "ieee1609dot3.wsa.ipv6_address": [r["secondary_dns"]],
        "ieee1609dot3.psid": [psid_hex(0x87)],
    }
    caps = [("wsa-radiotap.pcap", False), ("wsa-radiotap-unsecured.pcap", True)]
    both = merged(env, [c for c, _ in caps], "wsa.pcapng")
    rows = env.fields(both, WSA_FIELDS + ["_ws.col.Info"])
    check(len(rows) == len(caps), "frames: %d" % len(rows))
    for (cap, dot2), row in zip(caps, rows):
        for name, values in expected.items():
            check(row[name] == [str(v) for v in values],
                  "%s: %s = %r, expected %r" % (cap, name, row[name], values))
        protocols = one(row, "frame.protocols").split(":")
        check(("ieee1609dot2" in protocols) == dot2, cap + " 1609.2 presence")
        check("ieee1609dot3.wsa" in protocols, cap + " WSA not reached")
        check(one(row, "_ws.col.Info").endswith(
            "WSA v3 id 5 count 7, 2 service(s), 1 channel(s), routing advertisement"),
            cap + " COL_INFO " + one(row, "_ws.col.Info"))
    out = env.tshark("-r", both, "-q", "-z", "expert")
    check("Malformed" not in out and "Undecoded" not in out, "expert infos:\n" + out)


# ieee1609dot3.wsa.edca.<name>, named as the keys of wsa_encode's EDCA records
EDCA_FIELDS = ["res", "aci", "acm", "aifsn", "ecw_max", "ecw_min", "txop_limit"]
CHANNEL_INFO_FIELDS = ["operating_class", "channel", "power", "adaptable", "data_rate",
                       "channel_access"]


def channel_info_octets(c):
    b = wsa_encode.Bits()
    wsa_encode.channel_info(b, c)
    return b.padded()


def t_wsa_edca(env):
    w = wsa_encode.WSA_EDCA
    m5, lte = w["ext_channels"][0]["channel"], w["ext_channels"][1]["lte_v2x"]
    c = w["channels"][0]
    edca = c["edca"]
    lte_octets = wsa_encode.lte_v2x(lte)
    expected = {"ieee1609dot3.wsa.edca." + f: [r[f] for r in edca] for f in EDCA_FIELDS}
    # tree order: the M5 channel info of the header extension 84, then the channel infos
    expected.update({"ieee1609dot3.wsa." + f: [m5[f], c[f]] for f in CHANNEL_INFO_FIELDS})
    expected.update({
        "ieee1609dot3.wsa.ext_channel.med_id": [e["med_id"] for e in w["ext_channels"]],
        "ieee1609dot3.wsa.ext_channel.length": [len(channel_info_octets(m5)),
                                                len(lte_octets)],
        "ieee1609dot3.wsa.ext_channel.lte_v2x": [lte_octets.hex()],
        "ieee1609dot3.wsa.ext_channel.value": [],
        "ieee1609dot3.wsa.ext.value": [],
        "ieee1609dot3.wsa.ext.id": [17, 84, 21, 12, 21],
        "ieee1609dot3.wsa.version": [w["version"]], "ieee1609dot3.wsa.id": [w["id"]],
        "ieee1609dot3.wsa.content_count": [w["content_count"]],
        "ieee1609dot3.wsa.repeat_rate": [w["repeat_rate"]],
        "ieee1609dot3.wsa.psid": [psid_hex(s["psid"]) for s in w["services"]],
        "ieee1609dot3.wsa.channel_index": [s["channel_index"] for s in w["services"]],
    })
    cap = env.capture("wsa-edca-radiotap.pcap")
    rows = env.fields(cap, sorted(expected) + ["_ws.col.Info"])
    check(len(rows) == 1, "frames: %d" % len(rows))
    row = rows[0]
    for name, values in expected.items():
        check(row[name] == [str(v) for v in values],
              "%s = %r, expected %r" % (name, row[name], values))
    info = one(row, "_ws.col.Info")
    check(info.endswith("WSA v3 id 9 count 2, 1 service(s), 1 channel(s)"), "COL_INFO " + info)
    # the units a user reads: one subtree per AC in record order, CW = 2^ECW - 1, TXOP
    # limit in 32 us units shown in microseconds
    tree = env.tshark("-r", cap, "-V", "-O", "ieee1609dot3.wsa")
    pos = 0
    for ac, r in zip(["AC_BE", "AC_BK", "AC_VI", "AC_VO"], edca):
        lines = ["%s (" % ac, "ECWmax: %d (CW %d)" % (r["ecw_max"], 2 ** r["ecw_max"] - 1),
                 "ECWmin: %d (CW %d)" % (r["ecw_min"], 2 ** r["ecw_min"] - 1),
                 "TXOP limit: %d \u00b5s (%d)" % (32 * r["txop_limit"], r["txop_limit"])]
        for text in lines:
            found = tree.find(text, pos)
            check(found >= 0, "%s record: no %r in order in:\n%s" % (ac, text, tree))
            pos = found
    for text in ("Extended channel info 1: M5 (IEEE 802.11 OCB)",
                 "Extended channel info 2: C-V2X"):
        check(text in tree, "no %r in:\n%s" % (text, tree))
    out = env.tshark("-r", cap, "-q", "-z", "expert")
    check("Malformed" not in out and "Error" not in out and "Undecoded" not in out,
          "expert infos:\n" + out)


def t_wsa_open_type_bounds(env):
    # WSMP v3 with PSID 0x87 (p-encoded 80 07) around each WSA
    edca = "06a400002995000b5343005e7232002f"  # the 4 records, 16 octets
    cases = [
        # a channel info whose EDCA element says 2 octets: reads stop at the open type
        "320001" "11ac978c01" "01" "0c02" + edca,
        # header extension 84 with medIds 0 and 1 (NULL) and unassigned 7 (2 octets)
        "3800" "01" "540b" "03" "000100" "010100" "0702abcd",
    ]
    cap = env.text2pcap("wsa-bounds", ["03008007%02x" % (len(h) // 2) + h for h in cases])
    rows = env.fields(cap, ["ieee1609dot3.wsa." + f for f in (
        "truncated", "edca.aifsn", "edca.txop_limit", "ext_channel.med_id",
        "ext_channel.value", "ext_channel.unknown")])
    check(len(rows) == len(cases), "frames: %d" % len(rows))
    cut, media = rows
    check(cut["ieee1609dot3.wsa.truncated"] == ["1"], "EDCA past its open type: %r" % cut)
    check(cut["ieee1609dot3.wsa.edca.aifsn"] == ["6"], "the AC_BE bits inside: %r" % cut)
    check(cut["ieee1609dot3.wsa.edca.txop_limit"] == [], "read past the open type: %r" % cut)
    check(media["ieee1609dot3.wsa.truncated"] == [], "media: %r" % media)
    check(media["ieee1609dot3.wsa.ext_channel.med_id"] == ["0", "1", "7"], "media: %r" % media)
    check(media["ieee1609dot3.wsa.ext_channel.value"] == ["abcd"], "media: %r" % media)
    check(media["ieee1609dot3.wsa.ext_channel.unknown"] == ["1"], "media: %r" % media)


# --- switching back --------------------------------------------------------------------

def t_builtin_switch_back(env):
    cap = env.capture("udp2-radiotap.pcap")
    row = env.fields(cap, ["frame.protocols"], "-d", "ethertype==0x88dc,wsmp")[0]
    protocols = one(row, "frame.protocols").split(":")
    check("wsmp" in protocols and "ieee1609dot3" not in protocols, repr(protocols))


TESTS = {
    "plugin_listed": t_plugin_listed,
    "protocol_registered": t_protocol_registered,
    "psid_table_decode_as": t_psid_table_decode_as,
    "captures_match_expect": t_captures_match_expect,
    "good_captures_not_malformed": t_good_captures_not_malformed,
    "gdot_vector": t_gdot_vector,
    "udp2_vector_signed_bsm": t_udp2_vector_signed_bsm,
    "v2_header": t_v2_header,
    "tpids": t_tpids,
    "raw_j2735_preference": t_raw_j2735_preference,
    "j2735_rule": t_j2735_rule,
    "bad_captures_expert_infos": t_bad_captures_expert_infos,
    "bad_version_and_truncated_header": t_bad_version_and_truncated_header,
    "wsa": t_wsa,
    "wsa_edca": t_wsa_edca,
    "wsa_open_type_bounds": t_wsa_open_type_bounds,
    "builtin_switch_back": t_builtin_switch_back,
}


def main():
    ap = tshark_driver.arg_parser()
    ap.add_argument("--mkcap", required=True)
    ap.add_argument("test", choices=sorted(TESTS))
    a = ap.parse_args()
    env = Env(a)
    try:
        rc = TESTS[a.test](env)
    except Fail as e:
        print("FAIL:", e)
        return 1
    finally:
        subprocess.run(["rm", "-rf", env.tmp])
    if rc == SKIP:
        print("SKIP: input not available")
        return SKIP
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""`v2xcap stats` end to end: statistics on captures/ checked against the per-frame
expectations next to each capture (captures/*.expect.json, built from tests/vectors),
output shapes, options, several files, bad input. Usage: cli_test.py CASE (one ctest test
per case). Env: V2XCAP, GENCAP (bench capture generator), MKCAP (sample-capture
builder), V2X_VECTORS_DIR (the vectors gencap takes its payloads from), CAPTURES
(captures/ folder). A missing prerequisite is a SKIP; a tool that fails is a FAIL with its
exit code and message."""
import collections
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

V2XCAP = os.environ["V2XCAP"]
GENCAP = os.environ.get("GENCAP", "")
VECTORS = os.environ.get("V2X_VECTORS_DIR", "")
MKCAP = os.environ["MKCAP"]
CAPTURES = os.environ["CAPTURES"]
SKIP = 77
# Sanitizer reports get exit codes of their own, so they can never pass as 0 or 1.
ENV = dict(os.environ, ASAN_OPTIONS="exitcode=66:detect_leaks=1",
           UBSAN_OPTIONS="exitcode=67:print_stacktrace=1")


class Skip(Exception):
    pass


def run(*args, stdin=None):
    p = subprocess.run([V2XCAP, "stats", *args], input=stdin, capture_output=True,
                       env=ENV, timeout=60)
    out = p.stdout.decode("utf-8")
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode >= 0, f"killed by signal {-p.returncode}: {err}"
    assert "runtime error" not in err and "Sanitizer" not in err, err
    return p.returncode, out, err


def run_json(*args):
    rc, out, err = run("--format", "json", *args)
    assert rc == 0, f"exit {rc}: {err}"
    return json.loads(out)


def capture(name):
    path = os.path.join(CAPTURES, name)
    if not os.path.exists(path):
        raise Skip(f"{path} not built")
    return path


def expect(name):
    with open(capture(name.rsplit(".", 1)[0] + ".expect.json")) as f:
        return json.load(f)["frames"]


def check_eq(what, got, want):
    assert got == want, f"{what}: got {got!r}, expected {want!r}"


def by_key(groups):
    return {g["key"]: g for g in groups}


def gencap(path, frames, senders=4, seed=1):
    if not GENCAP or not os.access(GENCAP, os.X_OK):
        raise Skip("gencap not built")
    if not os.path.exists(os.path.join(VECTORS, "PROVENANCE.md")):
        raise Skip(f"vectors not found at {VECTORS!r} (V2X_VECTORS_DIR)")
    p = subprocess.run([GENCAP, "--frames", str(frames), "--senders", str(senders),
                        "--seed", str(seed), "--vectors", VECTORS, path],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"gencap exit {p.returncode}: {p.stderr.strip()}"
    with open(path, "rb") as f:
        return f.read()


def pcap_records(data):
    """(offset, length) of each record of a classic little-endian pcap."""
    off, recs = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack_from("<I", data, off + 8)[0]
        recs.append((off, 16 + incl))
        off += 16 + incl
    return recs


# Statistics on the sample captures, expected values computed from the expectations

def stats_counts_per_type_psid_sender_on_mixed():
    frames = expect("mixed.pcap")
    s = run_json(capture("mixed.pcap"))
    check_eq("frames", s["frames"], len(frames))
    check_eq("wsmp", s["wsmp"], len(frames))
    for dim, field in (("by_type", "msgid"), ("by_psid", "psid"),
                       ("by_sender", "src"), ("by_channel", "freq_mhz")):
        want = collections.Counter(f[field] for f in frames)
        got = {(g["key"] if dim == "by_sender" else g["value"]): g["frames"] for g in s[dim]}
        check_eq(dim, got, dict(want))
    shares = sum(g["share"] for g in s["by_type"])
    assert abs(shares - 1.0) < 1e-5, shares
    span = (frames[-1]["time_us"] - frames[0]["time_us"]) / 1e6
    check_eq("span", round(s["span_s"], 6), span)
    bsm = by_key(s["by_type"])["BSM"]
    check_eq("BSM rate", round(bsm["rate_per_s"], 6), round(3 / span, 6))


def stats_signed_and_unsigned_counts_on_mixed():
    frames = expect("mixed.pcap")
    s = run_json(capture("mixed.pcap"))
    for g in s["by_type"]:
        mine = [f for f in frames if f["msgid"] == g["value"]]
        check_eq(f"{g['key']} signed", g["signed"],
                 sum(f["dot2"] == "signedData" for f in mine))
        check_eq(f"{g['key']} unsigned", g["unsigned"],
                 sum(f["dot2"] in ("unsecuredData", "none") for f in mine))
        check_eq(f"{g['key']} encrypted", g["encrypted"], 0)
        check_eq(f"{g['key']} errors", g["errors"], 0)


def stats_rssi_and_bytes_min_max_on_mixed():
    frames = expect("mixed.pcap")
    s = run_json(capture("mixed.pcap"))
    for dim, field in (("by_type", "msgid"), ("by_sender", "src")):
        for g in s[dim]:
            mine = [f for f in frames if f[field] == (g["key"] if dim == "by_sender"
                                                       else g["value"])]
            rssi = [f["rssi_dbm"] for f in mine]
            check_eq(f"{g['key']} rssi", (g["rssi_dbm"]["min"], g["rssi_dbm"]["max"]),
                     (min(rssi), max(rssi)))
            size = [f["wsm_length"] for f in mine]
            check_eq(f"{g['key']} bytes", (g["bytes"]["min"], g["bytes"]["max"]),
                     (min(size), max(size)))
            check_eq(f"{g['key']} mean rssi", round(g["rssi_dbm"]["mean"], 3),
                     round(sum(rssi) / len(rssi), 3))


def stats_bytes_of_messages_without_wsmp():
    # An RSU record's payload (its hex, halved) counts as a WSM's payload would: the
    # message's octets, whatever carried them.
    path = capture("rsu/rsu-imf-records.txt")
    want = {}
    with open(path) as f:
        for line in f.read().split("\n"):
            if line.startswith("Type="):
                kind = line[5:].upper()
            if line.startswith("Payload="):
                want[kind] = (len(line.strip()) - len("Payload=")) // 2
    s = run_json(path)
    for g in s["by_type"]:
        check_eq(f"{g['key']} bytes", (g["bytes"]["min"], g["bytes"]["max"]),
                 (want[g["key"]], want[g["key"]]))
    check_eq("types", sorted(g["key"] for g in s["by_type"]), sorted(want))


def bsm_expectations(frames):
    """Per TemporaryID: messages, msgCnt sequence."""
    per = collections.OrderedDict()
    for f in frames:
        if f.get("msgid") == 20 and "j2735" in f:
            per.setdefault(f["j2735"]["id"], []).append(f)
    return per


def stats_bsm_senders_counts_and_duplicates_on_mixed():
    frames = expect("mixed.pcap")
    s = run_json(capture("mixed.pcap"))
    want = bsm_expectations(frames)
    got = {b["temporary_id"]: b for b in s["bsm_senders"]}
    check_eq("TemporaryIDs", sorted(got), sorted(want))
    for tid, fs in want.items():
        check_eq(f"{tid} messages", got[tid]["messages"], len(fs))
        cnts = [f["j2735"]["msgCnt"] for f in fs]
        dups = sum(a == b for a, b in zip(cnts, cnts[1:]))
        check_eq(f"{tid} duplicates", got[tid]["duplicates"], dups)


def stats_msgcnt_gaps_on_the_gap_capture():
    frames = expect("bsm-msgcnt-gaps.pcap")
    s = run_json(capture("bsm-msgcnt-gaps.pcap"))
    (tid, fs), = bsm_expectations(frames).items()
    cnts = [f["j2735"]["msgCnt"] for f in fs]
    lost = sum((b - a - 1) % 128 for a, b in zip(cnts, cnts[1:]) if a != b)
    check_eq("lost computed from the expectation", lost, 3)  # 123, 124 and 2
    b, = s["bsm_senders"]
    check_eq("id", b["temporary_id"], tid)
    check_eq("messages", b["messages"], len(fs))
    check_eq("msgcnt_lost", b["msgcnt_lost"], lost)
    check_eq("loss_ratio", round(b["loss_ratio"], 6), round(lost / (lost + len(fs)), 6))
    gaps_ms = [(b2["time_us"] - a["time_us"]) / 1000 for a, b2 in zip(fs, fs[1:])]
    check_eq("iat max", b["iat_ms"]["max"], max(gaps_ms))
    check_eq("iat p50", b["iat_ms"]["p50"], sorted(gaps_ms)[len(gaps_ms) // 2])
    span = (fs[-1]["time_us"] - fs[0]["time_us"]) / 1e6
    check_eq("rate", round(b["rate_hz"], 6), round((len(fs) - 1) / span, 6))


def stats_bsm_128_senders_match_the_vectors():
    frames = expect("bsm-128.pcap")
    s = run_json(capture("bsm-128.pcap"))
    want = bsm_expectations(frames)
    got = {b["temporary_id"]: b["messages"] for b in s["bsm_senders"]}
    check_eq("per TemporaryID", got, {k: len(v) for k, v in want.items()})
    check_eq("BSM frames", by_key(s["by_type"])["BSM"]["frames"], len(frames))


def stats_every_sample_capture_is_counted():
    names = sorted(n for n in os.listdir(CAPTURES) if n.endswith((".pcap", ".pcapng")))
    if not names:
        raise Skip("no sample captures")
    for n in names:
        frames = expect(n)
        rc, out, err = run("--format", "json", capture(n))
        check_eq(f"{n} exit", rc, 0)
        s = json.loads(out)
        check_eq(f"{n} frames", s["frames"], len(frames))
        # a frame whose FCS the receiver flagged bad is counted apart (not_wsmp.bad_fcs)
        # in UDP without WSMP, a MessageFrame is taken by the content rule (encap)
        want = collections.Counter(f["msgid"] for f in frames
                                   if "msgid" in f and not f.get("bad_fcs") and
                                   ("psid" in f or f.get("encap") in ("udp_j2735", "udp_dot2")))
        got = {g["value"]: g["frames"] for g in s["by_type"] if g["key"] != "no-J2735"}
        check_eq(f"{n} per type", got, dict(want))
        encaps = collections.Counter(f.get("encap", "none") for f in frames)
        check_eq(f"{n} per encapsulation", {k: v for k, v in s["encapsulation"].items() if v},
                 dict(encaps))


def stats_by_encap_over_several_captures():
    """Frames, captured octets and malformed frames per encapsulation, several files
    (Ethernet, radiotap, UDP with 1609.2 / a bare MessageFrame, C2P, TZSP, a WSM whose
    length lies) in one run: JSON, CSV and table give the same numbers, the ones the
    expectations and the files' records give."""
    names = ["dot2-udp.pcap", "c2p/c2p-dsrc.pcap", "tzsp-80211.pcap", "j2735-udp.pcap",
             "mixed.pcap", "bad/wsm-length-lies.pcap"]
    want = collections.defaultdict(lambda: [0, 0, 0])
    for n in names:
        with open(capture(n), "rb") as f:
            data = f.read()
        check_eq(f"{n} is a little-endian pcap", data[:4], b"\xd4\xc3\xb2\xa1")
        for fr, (off, size) in zip(expect(n), pcap_records(data)):
            w = want[fr.get("encap", "none")]
            w[0] += 1
            w[1] += size - 16
            # malformed: the WSM length field says more than the frame holds
            w[2] += fr.get("wsm_length_field", 0) > fr.get("wsm_length", 0)
    check_eq("encapsulations in the set", sorted(want),
             ["c2p", "none", "tzsp", "udp", "udp_dot2", "udp_j2735"])
    check_eq("one malformed frame", sum(w[2] for w in want.values()), 1)
    paths = [capture(n) for n in names]
    s = run_json(*paths)
    got = {g["key"]: [g["frames"], g["bytes"], g["errors"]] for g in s["by_encap"]}
    check_eq("by_encap", got, dict(want))
    check_eq("sorted by frames", [g["frames"] for g in s["by_encap"]],
             sorted((g["frames"] for g in s["by_encap"]), reverse=True))
    check_eq("by_encap keys", list(s["by_encap"][0]), ["key", "frames", "bytes", "errors"])
    check_eq("frames as in encapsulation", {g["key"]: g["frames"] for g in s["by_encap"]},
             {k: v for k, v in s["encapsulation"].items() if v})
    rows = [[g["key"], str(g["frames"]), str(g["bytes"]), str(g["errors"])]
            for g in s["by_encap"]]
    rc, out, err = run("--format", "csv", "--by", "encap", *paths)
    lines = out.splitlines()
    check_eq("csv header", lines[0], "encap,frames,bytes,errors")
    check_eq("csv rows", [r.split(",") for r in lines[1:]], rows)
    rc, out, err = run("--by", "encap", *paths)
    check_eq("table exit", rc, 0)
    lines = out.splitlines()
    head = lines.index(next(x for x in lines if x.startswith("encap ")))
    table = lines[head:lines.index("", head)]
    check_eq("table rows", [x.split() for x in table[1:]], rows)
    check_eq("one width", len({len(x) for x in table}), 1)


# Output shapes

GROUP_COLUMNS = ("frames,share,rate_per_s,bytes_min,bytes_mean,bytes_max,rssi_min_dbm,"
                 "rssi_mean_dbm,rssi_max_dbm,signed,unsigned,encrypted,errors,trailing")


def stats_csv_shape_per_view():
    path = capture("mixed.pcap")
    for view, first in (("type", "type"), ("psid", "psid"), ("channel", "channel_mhz"),
                        ("sender", "sender")):
        rc, out, err = run("--format", "csv", "--by", view, path)
        check_eq("exit", rc, 0)
        lines = out.splitlines()
        check_eq(f"{view} header", lines[0], f"{first},{GROUP_COLUMNS}")
        for line in lines[1:]:
            check_eq(f"{view} cells", len(line.split(",")), 15)
    rc, out, err = run("--format", "csv", "--by", "psid", path)
    rows = {r.split(",")[0]: r.split(",") for r in out.splitlines()[1:]}
    check_eq("PSID 0x20 frames", rows["0x20"][1], "3")
    check_eq("PSID 0x82 frames", rows["0x82"][1], "2")
    rc, out, err = run("--format", "csv", "--by", "bsm", capture("bsm-msgcnt-gaps.pcap"))
    header, row = out.splitlines()
    check_eq("bsm header", header,
             "temporary_id,messages,rate_hz,rate_ratio_to_10hz,iat_p50_ms,iat_p95_ms,"
             "iat_max_ms,msgcnt_lost,loss_ratio,duplicates,age_min_ms,age_mean_ms,"
             "age_max_ms,clock")
    # Ratios as in JSON (the same key, the same number): 3 lost of 12 sent
    check_eq("bsm row", row.split(",")[:9],
             ["BEA10000", "9", "10.00", "1.0000", "100.0", "100.0", "100.0", "3", "0.2500"])


def stats_each_view_counts_what_json_counts():
    """A table or CSV counts only its own view's dimension (the others are skipped for
    speed); what it shows must still equal the JSON's by_<view> groups, which count all:
    frames, bytes and errors per key, on a capture of many kinds of frames."""
    path = capture("mixed.pcap")
    full = run_json(path)
    for view, key in (("type", "type"), ("psid", "psid"), ("channel", "channel_mhz"),
                      ("sender", "sender")):
        rc, out, err = run("--format", "csv", "--by", view, path)
        check_eq("exit", rc, 0)
        lines = out.splitlines()
        cols = lines[0].split(",")
        got = sorted((r[0], r[cols.index("frames")], r[cols.index("errors")])
                     for r in (line.split(",") for line in lines[1:]))
        want = sorted((str(g["key"]), str(g["frames"]), str(g["errors"]))
                      for g in full[f"by_{view}"])
        check_eq(f"{view} rows", got, want)


def stats_json_shape_is_stable():
    s = run_json(capture("mixed.pcap"))
    check_eq("top-level keys", list(s), [
        "frames", "bytes", "sliced", "malformed", "wsmp", "filtered_out", "filter", "first_time", "last_time",
        "span_s", "priority", "priority_overflow", "not_wsmp", "encapsulation", "by_type", "overflow_type", "by_psid", "overflow_psid",
        "by_channel", "overflow_channel", "by_sender", "overflow_sender", "by_encap",
        "bsm_senders", "bsm_overflow", "bsm_unreadable"])
    check_eq("not_wsmp keys", list(s["not_wsmp"]),
             ["link_error", "not_data", "protected", "other_ethertype", "bad_wsmp", "bad_fcs"])
    check_eq("encapsulation keys", list(s["encapsulation"]),
             ["none", "udp", "udp_wsmp", "udp_dot2", "udp_j2735", "c2p", "tzsp", "udp_pc5",
              "udp_ethertype", "udp_rsu"])
    for g in s["by_type"] + s["by_sender"]:
        check_eq("group keys", list(g), [
            "key", "value", "frames", "share", "rate_per_s", "bytes", "rssi_dbm", "signed",
            "unsigned", "encrypted", "errors", "trailing"])
        check_eq("min/mean/max", list(g["bytes"]), ["min", "mean", "max"])
    check_eq("bsm sender keys", list(s["bsm_senders"][0]), [
        "temporary_id", "messages", "rate_hz", "rate_ratio_to_10hz", "iat_ms",
        "msgcnt_lost", "loss_ratio", "duplicates", "age_ms", "unsynchronised"])
    check_eq("sender key", by_key(s["by_sender"])["02:00:00:00:0a:01"]["value"],
             0x02000000_0a01)


def stats_table_is_aligned():
    rc, out, err = run(capture("mixed.pcap"))
    check_eq("exit", rc, 0)
    lines = out.splitlines()
    head = lines.index(next(x for x in lines if x.startswith("type ")))
    table = lines[head:lines.index("", head)]
    check_eq("table rows", len(table), 1 + 5)
    check_eq("one width", len({len(x) for x in table}), 1)
    assert any(x.startswith("BSM ") for x in table), table


# Options

def stats_filter_by_type_and_psid():
    path = capture("mixed.pcap")
    s = run_json("--filter", "bsm", path)
    check_eq("filter", s["filter"], {"type": 20})
    check_eq("wsmp", s["wsmp"], 3)
    check_eq("filtered out", s["filtered_out"], 4)
    check_eq("types", [g["key"] for g in s["by_type"]], ["BSM"])
    s = run_json("--filter=psid=82", path)
    check_eq("filter", s["filter"], {"psid": 0x82})
    check_eq("types", sorted(g["key"] for g in s["by_type"]), ["MAP", "SPAT"])
    s = run_json("--filter", "19", path)
    check_eq("by id", [g["key"] for g in s["by_type"]], ["SPAT"])


def stats_interval_time_series():
    frames = expect("bsm-msgcnt-gaps.pcap")
    path = capture("bsm-msgcnt-gaps.pcap")
    rc, out, err = run("--interval", "200ms", "--format", "json", path)
    check_eq("exit", rc, 0)
    s = json.loads(out)
    check_eq("interval", s["interval_s"], 0.2)
    want = collections.Counter((f["time_us"] // 200000) * 0.2 for f in frames)
    got = {round(iv["start"], 6): iv["by_type"].get("BSM", 0) for iv in s["series"]}
    check_eq("per interval", got, {round(k, 6): v for k, v in want.items()})
    check_eq("totals", [iv["frames"] for iv in s["series"]],
             [iv["by_type"].get("BSM", 0) for iv in s["series"]])
    rc, out, err = run("--interval", "1s", "--format", "csv", capture("mixed.pcap"))
    check_eq("csv", out.splitlines(), [
        "start,type,frames", "1700000000.000000,all,7", "1700000000.000000,BSM,3",
        "1700000000.000000,SPAT,1", "1700000000.000000,MAP,1", "1700000000.000000,TIM,1",
        "1700000000.000000,PSM,1"])


def stats_by_option_selects_the_table():
    rc, out, err = run("--by", "sender", capture("mixed.pcap"))
    check_eq("exit", rc, 0)
    assert "02:00:00:00:0a:01" in out and "\nsender " in out, out
    rc, out, err = run("--by", "channel", capture("mixed.pcap"))
    assert "\nchannel_mhz " in out and "\n5860 " in out, out


def wsmp_pcap(path, payloads):
    """A radiotap pcap (mkcap), one OCB QoS data frame (EPD, WSMP v3, PSID 0x20) per
    payload, a second apart."""
    subprocess.run([MKCAP, "-o", path, "--interval", "1000", "--llc", "epd", "--psid", "20"]
                   + [p.hex() for p in payloads], check=True)


def stats_decode_counts_messages_that_do_not_decode():
    version = subprocess.run([V2XCAP, "--version"], capture_output=True, text=True).stdout
    if "decoder: none" in version:
        raise Skip("v2xcap built without a J2735 schema")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "short-bsm.pcap")
        # a MessageFrame header that reads (BSM, 8 octets) around a BSM that cannot decode
        wsmp_pcap(path, [bytes([0x00, 0x14, 0x08]) + bytes(8)])
        check_eq("headers only", by_key(run_json(path)["by_type"])["BSM"]["errors"], 0)
        check_eq("--decode", by_key(run_json("--decode", path)["by_type"])["BSM"]["errors"], 1)
    s = run_json("--decode", capture("mixed.pcap"))
    check_eq("real messages decode", [g["errors"] for g in s["by_type"]], [0] * 5)


def stats_names_2024_messages_with_the_editions_note():
    """SDSM (41) and the RGA placeholder (43) are counted under their names; a build whose
    schema lacks them says so per type (JSON "note", a line under the table)."""
    version = subprocess.run([V2XCAP, "--version"], capture_output=True, text=True).stdout
    edition = version.split("edition ")[1].split()[0] if "edition " in version else None
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "rga.pcap")
        wsmp_pcap(path, [bytes.fromhex("002B0100")])  # MessageFrame 43, NULL value
        s = run_json(path, capture("sdsm-radiotap.pcap"))
        rc, table, _ = run(path, capture("sdsm-radiotap.pcap"))
    types = by_key(s["by_type"])
    check_eq("counted by name", {k: g["frames"] for k, g in types.items()},
             {"SDSM": 1, "RGA": 1})
    notes = {k: g.get("note") for k, g in types.items()}
    if edition is None:
        want = {"SDSM": None, "RGA": None}  # no schema: nothing claimed of an edition
    elif edition in ("2016", "2020"):
        want = {"SDSM": "not in this edition", "RGA": "not in this edition"}
    else:
        want = {"SDSM": None, "RGA": "placeholder in this edition"}
    check_eq("notes", notes, want)
    for k, note in want.items():
        if note:
            assert f"{k}: {note} (J2735 schema {edition})" in table, table


# Several files, stdin

def stats_several_files_form_one_timeline():
    with tempfile.TemporaryDirectory() as d:
        whole = gencap(os.path.join(d, "all.pcap"), 300, senders=5)
        recs = pcap_records(whole)
        cut = recs[150][0]
        for name, body in (("b.pcap", whole[cut:]), ("a.pcap", whole[24:cut])):
            with open(os.path.join(d, name), "wb") as f:
                f.write(whole[:24] + body)
        one = run_json(os.path.join(d, "all.pcap"))
        # given in the wrong order: still one timeline, same statistics
        two = run_json(os.path.join(d, "b.pcap"), os.path.join(d, "a.pcap"))
        check_eq("same statistics", two, one)
        check_eq("frames", one["frames"], 300)


def stats_reads_stdin_dash():
    path = capture("mixed.pcap")
    with open(path, "rb") as f:
        data = f.read()
    p = subprocess.run([V2XCAP, "stats", "--format", "json", "-"], input=data,
                       capture_output=True, env=ENV, timeout=60)
    check_eq("exit", p.returncode, 0)
    check_eq("same as the file", json.loads(p.stdout), run_json(path))


# Errors

def stats_usage_errors_exit_2():
    for args in ([], ["--format", "xml", "x.pcap"], ["--by", "colour", "x.pcap"],
                 ["--filter", "NOPE", "x.pcap"], ["--interval", "fast", "x.pcap"],
                 ["--interval", "0s", "x.pcap"], ["--bogus", "x.pcap"], ["--format"]):
        rc, out, err = run(*args)
        check_eq(f"exit for {args}", rc, 2)
        assert "usage: v2xcap stats" in err, err
    rc, out, err = run("--help")
    check_eq("help exit", rc, 0)
    assert "--interval" in out


def stats_bad_files_named_rest_analysed_exit_1():
    good = capture("mixed.pcap")
    for bad, why in (("bad/garbage.pcap", ""), ("bad/truncated.pcap", "frame 1"),
                     ("bad/linktype-228.pcap", "link type 228")):
        path = capture(bad)
        rc, out, err = run("--format", "json", path, good)
        check_eq(f"{bad} exit", rc, 1)
        assert path in err and why in err, err
        check_eq(f"{bad}: the good file is still analysed",
                 json.loads(out)["by_type"][0]["frames"] >= 3, True)
    with tempfile.TemporaryDirectory() as d:
        nothing = os.path.join(d, "none.pcap")
        rc, out, err = run(nothing)
        check_eq("missing file exit", rc, 1)
        assert nothing in err, err


def stats_lying_frame_named_counted_rest_analysed_exit_0():
    with tempfile.TemporaryDirectory() as d:
        data = bytearray(gencap(os.path.join(d, "g.pcap"), 5, senders=2))
        off, _ = pcap_records(bytes(data))[1]
        struct.pack_into("<H", data, off + 16 + 2, 0xFFF0)  # radiotap it_len beyond it
        path = os.path.join(d, "lie.pcap")
        with open(path, "wb") as f:
            f.write(data)
        rc, out, err = run("--format", "json", path)
        check_eq("exit (a malformed frame is counted, not a failure)", rc, 0)
        assert f"{path}: frame 2:" in err, err
        s = json.loads(out)
        check_eq("frames", s["frames"], 5)
        check_eq("malformed", s["malformed"], 1)
        rc, _, _ = run("--strict", "--format", "json", path)
        check_eq("exit with --strict", rc, 1)
        check_eq("not WSMP (link error)", s["not_wsmp"]["link_error"], 1)
        check_eq("the other four", s["wsmp"], 4)


def batches(items, n):
    for i in range(0, len(items), n):
        yield items[i:i + n]


def stats_truncation_at_every_offset():
    # Many files per run (each error names its file), so the test stays fast under ASan.
    with tempfile.TemporaryDirectory() as d:
        data = gencap(os.path.join(d, "g.pcap"), 3, senders=2)
        ends = {off + n for off, n in pcap_records(data)} | {24}
        cuts = {}
        for cut in range(len(data)):
            cuts[cut] = os.path.join(d, f"cut-{cut:05d}.pcap")
            with open(cuts[cut], "wb") as f:
                f.write(data[:cut])
        for batch in batches(sorted(cuts), 16):
            rc, out, err = run("--format", "csv", *(cuts[c] for c in batch))
            bad = [c for c in batch if c not in ends]
            check_eq(f"exit for cuts {batch[0]}..{batch[-1]}", rc, 1 if bad else 0)
            check_eq(f"files named for cuts {batch[0]}..{batch[-1]}",
                     [c for c in batch if cuts[c] + ":" in err], bad)


def stats_random_corruption_never_crashes():
    rng = random.Random(5)
    with tempfile.TemporaryDirectory() as d:
        data = gencap(os.path.join(d, "g.pcap"), 40, senders=3)
        paths = []
        for i in range(150):
            b = bytearray(data)
            for _ in range(rng.randint(1, 12)):
                b[rng.randrange(24, len(b))] = rng.randrange(256)
            paths.append(os.path.join(d, f"c{i:03d}.pcap"))
            with open(paths[-1], "wb") as f:
                f.write(b)
        for batch in batches(paths, 15):
            rc, out, err = run("--format", "json", *batch)
            assert rc in (0, 1), f"exit {rc}: {err}"
            json.loads(out)


def main():
    name = sys.argv[1]
    try:
        globals()[name]()
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    except AssertionError as e:
        print(f"FAIL: {name}: {e}")
        return 1
    except (OSError, subprocess.SubprocessError, ValueError) as e:  # a tool or file failed
        print(f"FAIL: {name}: {type(e).__name__}: {e}")
        return 1
    print(f"ok: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

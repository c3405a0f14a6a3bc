#!/usr/bin/env python3
"""`v2xcap` on jpo-ode's sample WYDOT logs (tests/vectors/jpo-ode, see PROVENANCE.md)
against the ODE's JSON decodes of the same files: every record, its time, the OBU's
position/speed/heading from the record header, and the J2735 values. Usage: CASE."""
import atexit
import datetime
import gzip
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

V2XCAP = os.environ["V2XCAP"]
VEC = os.path.join(os.environ["V2X_VECTORS_DIR"], "jpo-ode")
SKIP = 77


def ode(name):
    with open(os.path.join(VEC, name)) as f:
        return [json.loads(line) for line in f if line.strip()]


def decode(name):
    out = subprocess.run([V2XCAP, "decode", os.path.join(VEC, name)], check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def ode_ms(text):
    """Epoch milliseconds of an ODE time ("...T16:01:00.098Z", or "...T16:01:00Z" when the
    milliseconds are 0)."""
    base, _, frac = text.rstrip("Z").partition(".")
    d = datetime.datetime.strptime(base, "%Y-%m-%dT%H:%M:%S").replace(
        tzinfo=datetime.timezone.utc)
    return int(d.timestamp()) * 1000 + int((frac + "000")[:3])


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def by_time(ours, theirs):
    check(len(ours) == len(theirs), "%d records, the ODE has %d" % (len(ours), len(theirs)))
    ode_by_t = {ode_ms(o["metadata"]["recordGeneratedAt"]): o for o in theirs}
    check(len(ode_by_t) == len(theirs), "ODE record times are unique")
    pairs = []
    for r in ours:
        t = round(r["time"] * 1000)
        check(t in ode_by_t, "no ODE record at %s" % t)
        pairs.append((r, ode_by_t[t]))
    return pairs


def check_location(r, o):
    """The record header's location, J2735 units, against the ODE's degrees/m/(m/s)."""
    loc = o["metadata"]["receivedMessageDetails"]["locationData"]
    link = r["link"]
    check(abs(link["latitude"] / 1e7 - float(loc["latitude"])) < 1e-9, "latitude")
    check(abs(link["longitude"] / 1e7 - float(loc["longitude"])) < 1e-9, "longitude")
    check(abs(link["elevation"] / 10 - float(loc["elevation"])) < 1e-6, "elevation")
    check(abs(link["speed"] * 0.02 - float(loc["speed"])) < 1e-6, "speed")
    check(abs(link["heading"] * 0.0125 - float(loc["heading"])) < 1e-6, "heading")
    check(o["metadata"]["securityResultCode"] == "success" and
          link["security_result_code"] == 0, "security result code")


def bsm_log(name):
    pairs = by_time(decode(name), ode("bsmTx.json"))
    for r, o in pairs:
        check(r["link"]["wydot_record"] == "bsmLogRec", "record kind")
        check(o["metadata"]["bsmSource"] == "EV" and r["link"]["wydot_source"] == 0,
              "direction EV")
        check_location(r, o)
        core = r["j2735"]["value"]["coreData"]
        theirs = o["payload"]["data"]["coreData"]
        check(r["j2735"]["messageId"] == 20, "BSM")
        check(core["msgCnt"] == theirs["msgCnt"], "msgCnt")
        check(core["id"].upper() == theirs["id"].upper(), "id")
        check(core["secMark"] == theirs["secMark"], "secMark")
        check(abs(core["lat"] / 1e7 - theirs["position"]["latitude"]) < 1e-9, "lat")
        check(abs(core["long"] / 1e7 - theirs["position"]["longitude"]) < 1e-9, "long")
        check(abs(core["speed"] * 0.02 - theirs["speed"]) < 1e-6, "speed")
        check(abs(core["heading"] * 0.0125 - theirs["heading"]) < 1e-6, "heading")
    return len(pairs)


def wydot_bsm_log_matches_ode():
    return bsm_log("bsmTx.bin")


def wydot_bsm_log_gzip_matches_ode():
    return bsm_log("bsmTx.gz")


def dn_log(name):
    pairs = by_time(decode(name), ode("dnMsg.json"))
    for r, o in pairs:
        check(r["link"]["wydot_record"] == "dnMsgRec", "record kind")
        check_location(r, o)
        tim = r["j2735"]["value"]
        theirs = o["payload"]["data"]["MessageFrame"]["value"]["TravelerInformation"]
        check(r["j2735"]["messageId"] == 31, "TIM")
        check(tim["timeStamp"] == theirs["timeStamp"], "timeStamp")
        check(tim["packetID"].upper() == theirs["packetID"].upper(), "packetID")
        anchor = theirs["dataFrames"]["TravelerDataFrame"]["regions"]["GeographicalPath"]["anchor"]
        check(tim["dataFrames"][0]["regions"][0]["anchor"]["lat"] == anchor["lat"], "anchor")
    return len(pairs)


def wydot_dn_log_matches_ode():
    return dn_log("dnMsg.bin")


def wydot_dn_log_gzip_matches_ode():
    return dn_log("dnMsg.gz")


def wydot_driver_alert_log_every_record():
    """Driver alerts carry text, no J2735: `stats` counts every record, timed as the ODE."""
    out = subprocess.run([V2XCAP, "stats", "--format", "json",
                          os.path.join(VEC, "driverAlert.bin")],
                         check=True, capture_output=True, text=True).stdout
    s = json.loads(out)
    theirs = ode("driverAlert.json")
    times = sorted(ode_ms(o["metadata"]["recordGeneratedAt"]) for o in theirs)
    check(s["frames"] == len(theirs), "%d records, the ODE has %d" % (s["frames"], len(theirs)))
    check(round(s["first_time"] * 1000) == times[0] and round(s["last_time"] * 1000) == times[-1],
          "first/last record time")
    return s["frames"]


def wydot_rx_log_signed_tims_match_ode():
    """An RSU-received log (rxMsg, rxSource RSU, 1609.2-signed TIMs, gzip) against an
    extract of the ODE's JSON for it (PROVENANCE.md): per record time, the header's
    location, the TIM's msgCnt, timeStamp and packetID."""
    ours = decode("rxMsg_TIM_GeneratedBy_RSU.gz")
    theirs = ode("rxMsg_TIM_GeneratedBy_RSU.ode-extract.json")
    check(len(ours) == len(theirs), "%d records, the ODE has %d" % (len(ours), len(theirs)))

    def key_ours(r):
        link, tim = r["link"], r["j2735"]["value"]
        return (round(r["time"] * 1000), link["latitude"], link["longitude"], round(link["heading"] * 0.0125, 4),
                tim["msgCnt"], tim["timeStamp"], tim["packetID"].upper())

    def key_ode(o):
        loc = o["locationData"]
        return (ode_ms(o["recordGeneratedAt"]), round(float(loc["latitude"]) * 1e7),
                round(float(loc["longitude"]) * 1e7), round(float(loc["heading"]), 4),
                o["msgCnt"], o["timeStamp"], o["packetID"].upper())

    for r in ours:
        check(r["link"]["wydot_record"] == "receivedMsgRec" and r["link"]["wydot_source"] == 0,
              "rxMsg from an RSU")
        check(r["ieee1609dot2"]["content"] == "signedData" and r["j2735"]["messageId"] == 31,
              "signed TIM")
    check(all(o["rxSource"] == "RSU" and o["messageId"] == 31 for o in theirs), "ODE: RSU TIMs")
    a, b = sorted(map(key_ours, ours)), sorted(map(key_ode, theirs))
    for x, y in zip(a, b):
        check(x == y, "%s != ODE %s" % (x, y))
    return len(ours)


def wydot_newline_firmware_log_with_wsmp():
    """The later firmware's log (bsmTx_commsignia.gz): a newline after each record, the
    whole WSM in it. Every record read (the layout walked here independently), each a
    WSMP v3 PSID 0x20 WSM holding a signed BSM, at the header's time."""
    raw = gzip.open(os.path.join(VEC, "bsmTx_commsignia.gz")).read()
    times, at = [], 0
    while at < len(raw):
        sec, ms, length = struct.unpack_from("<IHxH", raw, at + 17)
        times.append(sec + ms / 1000)
        at += 26 + length
        check(at == len(raw) or raw[at] == 0x0A, "newline after a record")
        at += 1
    ours = decode("bsmTx_commsignia.gz")
    check(len(ours) == len(times), "%d records, the log has %d" % (len(ours), len(times)))
    for r, t in zip(ours, times):
        check(abs(r["time"] - t) < 1e-6, "time")
        check(r["wsmp"]["version"] == 3 and r["wsmp"]["psid"] == 0x20, "WSMP")
        check(r["ieee1609dot2"]["content"] == "signedData" and r["j2735"]["messageId"] == 20,
              "signed BSM")
    return len(ours)


def tshark_fields(pcapng, fields):
    """One row per frame of the converted file, from tshark with this build's plugins."""
    plugins = os.environ.get("V2X_PLUGIN_BUILD_DIR")
    if not plugins or not os.path.isdir(plugins) or not shutil.which("tshark"):
        print("SKIP: no tshark or no plugins built")
        sys.exit(SKIP)
    cmd = [os.environ["V2X_RUN_TSHARK"], plugins, "-r", pcapng, "-T", "fields",
           "-E", "separator=|"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return [line.split("|") for line in out.splitlines()]


def convert(names):
    tmp = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, tmp, True)
    out = os.path.join(tmp, "out.pcapng")
    subprocess.run([V2XCAP, "convert", "-o", out] + [os.path.join(VEC, n) for n in names],
                   check=True)
    os.chmod(tmp, 0o755)
    os.chmod(out, 0o644)
    return out


def bsm_converted(name):
    """Every record a frame at the record's time, decoded by the plugins to the ODE's
    values, with the record header in the packet comment."""
    rows = tshark_fields(convert([name]), [
        "frame.time_epoch", "frame.comment", "frame.protocols", "j2735.BSMcoreData.msgCnt",
        "j2735.BSMcoreData.id", "j2735.BSMcoreData.secMark", "j2735.BSMcoreData.lat",
        "j2735.BSMcoreData.long", "j2735.BSMcoreData.speed", "j2735.BSMcoreData.heading"])
    theirs = {ode_ms(o["metadata"]["recordGeneratedAt"]): o for o in ode("bsmTx.json")}
    check(len(rows) == len(theirs), "%d frames, the ODE has %d records" % (len(rows), len(theirs)))
    for t, comment, protos, cnt, tid, sec, lat, lon, speed, heading in rows:
        o = theirs[round(float(t) * 1000)]
        core = o["payload"]["data"]["coreData"]
        loc = o["metadata"]["receivedMessageDetails"]["locationData"]
        check(protos.endswith("exported_pdu:j2735:ieee1609dot2"), "layers: " + protos)
        check(int(cnt) == core["msgCnt"] and int(sec) == core["secMark"], "msgCnt/secMark")
        check(tid.replace(":", "").upper() == core["id"].upper(), "id")
        check(abs(int(lat) / 1e7 - core["position"]["latitude"]) < 1e-9, "lat")
        check(abs(int(lon) / 1e7 - core["position"]["longitude"]) < 1e-9, "long")
        check(abs(int(speed) * 0.02 - core["speed"]) < 1e-6, "speed")
        check(abs(int(heading) * 0.0125 - core["heading"]) < 1e-6, "heading")
        check(comment.startswith("WYDOT bsmLogRec, direction 0, latitude %.7f, longitude %.7f"
                                 % (float(loc["latitude"]), float(loc["longitude"]))),
              "comment: " + comment)
    return len(rows)


def wydot_convert_bsm_log_tshark_fields_equal_ode():
    return bsm_converted("bsmTx.bin")


def wydot_convert_bsm_log_gzip_tshark_fields_equal_ode():
    return bsm_converted("bsmTx.gz")


def wydot_convert_merges_logs_every_record_in_time_order():
    """driverAlert (text) and dnMsg (a TIM) into one file: 50 + 1 frames by time."""
    rows = tshark_fields(convert(["driverAlert.bin", "dnMsg.gz"]), [
        "frame.time_epoch", "frame.protocols", "j2735.TravelerInformation.timeStamp",
        "j2735.TravelerInformation.packetID"])
    alerts, tims = ode("driverAlert.json"), ode("dnMsg.json")
    check(len(rows) == len(alerts) + len(tims), "%d frames" % len(rows))
    times = [float(r[0]) for r in rows]
    check(times == sorted(times), "time order")
    tim_rows = [r for r in rows if r[2]]
    check(len(tim_rows) == 1, "one TIM")
    theirs = tims[0]["payload"]["data"]["MessageFrame"]["value"]["TravelerInformation"]
    check(int(tim_rows[0][2]) == theirs["timeStamp"], "timeStamp")
    check(tim_rows[0][3].replace(":", "").upper() == theirs["packetID"].upper(), "packetID")
    check(round(float(tim_rows[0][0]) * 1000) == ode_ms(tims[0]["metadata"]["recordGeneratedAt"]),
          "time")
    texts = [r for r in rows if "data-text-lines" in r[1]]
    check(len(texts) == len(alerts), "every driver alert as text")
    return len(rows)


def wydot_convert_wsm_records_to_wsmp_plugin():
    """Records holding a whole WSM go to the WSMP plugin: every one a BSM in tshark."""
    rows = tshark_fields(convert(["bsmTx_commsignia.gz"]), [
        "frame.protocols", "wsmp.psid", "j2735.msgid"])
    check(len(rows) == len(decode("bsmTx_commsignia.gz")), "every record")
    for protos, psid, msgid in rows:
        check(protos == "exported_pdu:ieee1609dot3:ieee1609dot2:j2735", "layers: " + protos)
        check(msgid == "20", "BSM")
    return len(rows)


def wydot_convert_read_back_by_v2xcap():
    """v2xcap reads what convert wrote (exported PDUs of both kinds, copied pcap frames):
    the same messages, times and values as from the logs and captures themselves."""
    names = ["bsmTx.gz", "bsmTx_commsignia.gz", "dnMsg.bin"]
    out = convert(names)
    back = subprocess.run([V2XCAP, "decode", out], check=True, capture_output=True,
                          text=True).stdout.splitlines()
    direct = subprocess.run([V2XCAP, "decode"] + [os.path.join(VEC, n) for n in names],
                            check=True, capture_output=True, text=True).stdout.splitlines()
    check(len(back) == len(direct) == 16 + 33 + 1, "%d messages back" % len(back))
    for a, b in zip(map(json.loads, back), map(json.loads, direct)):
        check(abs(a["time"] - b["time"]) < 1e-6, "time")
        check(a["j2735"] == b["j2735"], "J2735 value")
        check(a.get("wsmp") == b.get("wsmp"), "WSMP")
    return len(back)


def wydot_convert_keeps_capture_frames_and_link_types():
    """Captures of three link types and a log into one pcapng: one interface per link
    type, every frame with its octets, in tshark."""
    caps = os.environ["CAPTURES"]
    names = [os.path.join(caps, n) for n in ("bsm-ether-unsecured.pcap",
                                             "bsm-radiotap-signed.pcap",
                                             "bsm-80211-epd.pcapng")]
    tmp = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, tmp, True)
    out = os.path.join(tmp, "out.pcapng")
    subprocess.run([V2XCAP, "convert", "-o", out] + names + [os.path.join(VEC, "dnMsg.bin")],
                   check=True)
    os.chmod(tmp, 0o755)
    os.chmod(out, 0o644)
    rows = tshark_fields(out, ["frame.interface_id", "frame.protocols", "j2735.msgid"])
    protos = sorted(r[1] for r in rows)
    check(protos == sorted(["eth:ethertype:ieee1609dot3:ieee1609dot2:j2735",
                            "radiotap:wlan_radio:wlan:llc:ieee1609dot3:ieee1609dot2:j2735",
                            "wlan:llc:ieee1609dot3:j2735",
                            "exported_pdu:j2735:ieee1609dot2"]), "frames: %s" % protos)
    check(sorted(r[0] for r in rows) == ["0", "1", "2", "3"], "one interface each")
    check(sorted(r[2] for r in rows) == ["20", "20", "20", "31"], "messages")
    return len(rows)


# The tests that compare decoded J2735 fields: they need the build's schema decoder (and
# the plugin's generated dissector), so a build without one SKIPs them.
NEEDS_SCHEMA = {"wydot_bsm_log_matches_ode", "wydot_bsm_log_gzip_matches_ode",
                "wydot_dn_log_matches_ode", "wydot_dn_log_gzip_matches_ode",
                "wydot_rx_log_signed_tims_match_ode",
                "wydot_convert_bsm_log_tshark_fields_equal_ode",
                "wydot_convert_bsm_log_gzip_tshark_fields_equal_ode",
                "wydot_convert_merges_logs_every_record_in_time_order"}


if __name__ == "__main__":
    if sys.argv[1] in NEEDS_SCHEMA and "decoder: none" in subprocess.run(
            [V2XCAP, "--version"], capture_output=True, text=True).stdout:
        print("SKIP: built without a J2735 schema (configure with -DJ2735_ASN1_DIR=<dir>)")
        sys.exit(SKIP)
    n = globals()[sys.argv[1]]()
    print("%s: %d records agree with the ODE's decode" % (sys.argv[1], n))

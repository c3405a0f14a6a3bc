#!/usr/bin/env python3
"""`v2xcap` on jpo-ode's sample WYDOT logs (tests/vectors/jpo-ode, see PROVENANCE.md)
against the ODE's JSON decodes of the same files: every record, its time, the OBU's
position/speed/heading from the record header, and the J2735 values. Usage: CASE."""
import datetime
import json
import os
import subprocess
import sys

V2XCAP = os.environ["V2XCAP"]
VEC = os.path.join(os.environ["V2X_VECTORS_DIR"], "jpo-ode")


def ode(name):
    with open(os.path.join(VEC, name)) as f:
        return [json.loads(line) for line in f if line.strip()]


def decode(name):
    out = subprocess.run([V2XCAP, "decode", os.path.join(VEC, name)], check=True,
                         capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def iso_ms(t):
    """The ODE's recordGeneratedAt form of a v2xcap time."""
    d = datetime.datetime.fromtimestamp(round(t, 3), datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % round((t % 1) * 1000)


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def by_time(ours, theirs):
    check(len(ours) == len(theirs), "%d records, the ODE has %d" % (len(ours), len(theirs)))
    ode_by_t = {o["metadata"]["recordGeneratedAt"]: o for o in theirs}
    check(len(ode_by_t) == len(theirs), "ODE record times are unique")
    pairs = []
    for r in ours:
        t = iso_ms(r["time"])
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
    times = sorted(o["metadata"]["recordGeneratedAt"] for o in theirs)
    check(s["frames"] == len(theirs), "%d records, the ODE has %d" % (s["frames"], len(theirs)))
    check(iso_ms(s["first_time"]) == times[0] and iso_ms(s["last_time"]) == times[-1],
          "first/last record time")
    return s["frames"]


if __name__ == "__main__":
    n = globals()[sys.argv[1]]()
    print("%s: %d records agree with the ODE's decode" % (sys.argv[1], n))

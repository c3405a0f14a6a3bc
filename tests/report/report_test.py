#!/usr/bin/env python3
"""`v2xcap report` / `export --geojson`: each check tripped by a capture built here to
break that one requirement (BSMs encoded below, wrapped by mkcap), and the real captures in
captures/ with every finding they give justified. Usage: report_test.py CASE (one ctest
test per case). Env: V2XCAP, MKCAP, CAPTURES."""
import json
import math
import os
import re
import resource
import subprocess
import sys
import tempfile

V2XCAP = os.environ["V2XCAP"]
MKCAP = os.environ["MKCAP"]
CAPTURES = os.environ["CAPTURES"]
SKIP = 77
START = 1700000000          # mkcap's default start: 2023-11-14 22:13:20 UTC
START_MS_OF_MINUTE = (START % 60) * 1000


class Skip(Exception):
    pass


class Bits:
    """An unaligned PER bit writer: just enough for a BSM MessageFrame."""
    def __init__(self):
        self.bits = []

    def put(self, value, width):
        self.bits += [(value >> (width - 1 - i)) & 1 for i in range(width)]

    def octets(self):
        b = self.bits + [0] * (-len(self.bits) % 8)
        return bytes(int("".join(map(str, b[i:i + 8])), 2) for i in range(0, len(b), 8))


def open_type(bits, payload):
    """An open type: its PER length determinant (one octet under 128, two with 10 first
    under 16384), then the octets."""
    assert len(payload) < 16384
    if len(payload) < 128:
        bits.put(len(payload), 8)
    else:
        bits.put(0x8000 | len(payload), 16)
    for o in payload:
        bits.put(o, 8)


def bsm(cnt, sec_mark, tid=0x0A0B0C0D, lat=411642143, lon=-1048434120, elev=18822,
        semi_major=20, speed=1000, heading=9000, width=190, length=480, events=None,
        alerts=None, ph=None, semi_minor=20, brakes_unavailable=False):
    """MessageFrame{messageId 20, BasicSafetyMessage} in UPER (J2735 BSMcoreData: every
    member constrained, no extension marker; part II only for event flags, a path history
    ph=[(latOffset, lonOffset, timeOffset), ...] (1/10 micro degree from the current
    position, 10 ms back) and for an emergency vehicle's alerts=(SirenInUse, LightbarInUse[,
    PrivilegedEventFlags, ResponseType]))."""
    part2 = []
    b = Bits()
    b.put(0, 1)                        # BasicSafetyMessage extension bit
    b.put(1 if events is not None or alerts is not None or ph else 0, 1)  # partII present
    b.put(0, 1)                        # regional absent
    b.put(cnt, 7)
    b.put(tid, 32)
    b.put(sec_mark, 16)
    b.put(lat + 900000000, 31)
    b.put(lon + 1799999999, 32)
    b.put(elev + 4096, 16)
    b.put(semi_major, 8); b.put(semi_minor, 8); b.put(0, 16)  # accuracy
    b.put(2, 3)                                               # transmission: forwardGears
    b.put(speed, 13); b.put(heading, 15); b.put(0 + 126, 8)   # angle 0
    b.put(0 + 2000, 12); b.put(0 + 2000, 12); b.put(0 + 127, 8); b.put(0 + 32767, 16)
    b.put(0b10000 if brakes_unavailable else 0, 5)            # wheelBrakes: bit 0 unavailable
    b.put(1, 2); b.put(1, 2); b.put(1, 2); b.put(1, 2); b.put(1, 2)  # the other brakes off
    b.put(width, 10); b.put(length, 12)
    if events is not None or ph:
        v = Bits()
        v.put(0, 1)                    # extension bit
        v.put(events is not None, 1); v.put(bool(ph), 1); v.put(0, 2)  # events?, pathHistory?
        if events is not None:
            v.put(0, 1)                # VehicleEventFlags SIZE(13, ...): in the root
            v.put(events, 13)
        if ph:                         # PathHistory: extension bit, no initialPosition, no
            v.put(0, 3)                # currGNSSstatus; crumbData SIZE(1..23)
            v.put(len(ph) - 1, 5)
            for dlat, dlon, t in ph:   # PathHistoryPoint: extension bit, no speed,
                v.put(0, 4)            # posAccuracy, heading; OffsetLL-B18 x2, VertOffset-B12
                v.put(dlat + 131072, 18); v.put(dlon + 131072, 18); v.put(2048, 12)
                v.put(t - 1, 16)       # TimeOffset (1..65535)
        part2.append((0, v.octets()))  # partII-Id 0: VehicleSafetyExtensions
    if alerts is not None:
        v = Bits()
        v.put(0, 1)                    # SpecialVehicleExtensions extension bit
        v.put(0b100, 3)                # vehicleAlerts only
        pe, resp = (alerts[2:] + (None, None))[:2]
        v.put(0, 1)                    # EmergencyDetails: extension bit, events?, responseType?
        v.put(pe is not None, 1); v.put(resp is not None, 1)
        v.put(0, 5)                    # SSPindex
        v.put(alerts[0], 2); v.put(alerts[1], 3); v.put(1, 2)  # siren, lights, single
        if pe is not None:             # PrivilegedEvents: extension bit, SSPindex, 16 flags
            v.put(0, 1); v.put(0, 5); v.put(pe, 16)
        if resp is not None:           # ResponseType: extension bit, a root value
            v.put(0, 1); v.put(resp, 3)
        part2.append((1, v.octets()))  # partII-Id 1: SpecialVehicleExtensions
    if part2:
        b.put(len(part2) - 1, 3)       # SEQUENCE (SIZE(1..8)) OF PartIIcontent
        for pid, octets in part2:
            b.put(pid, 6)
            open_type(b, octets)
    f = Bits()
    f.put(0, 1)                        # MessageFrame extension bit
    f.put(20, 15)
    open_type(f, b.octets())
    return f.octets().hex()


def sec_mark(i, interval_ms=100, age_ms=0, start=START):
    return ((start % 60) * 1000 + i * interval_ms - age_ms) % 60000


def mkcap(path, payloads, start=START, interval_ms=100, extra=()):
    subprocess.run([MKCAP, "-o", path, "--start", str(start), "--interval", str(interval_ms),
                    "--psid", "20", "--dot2", "unsecured", *extra, *payloads], check=True)
    return path


def report(*files, fmt="json", cmd="report"):
    args = [V2XCAP, cmd, *(["--format", fmt] if cmd == "report" else ["--geojson"]), *files]
    p = subprocess.run(args, capture_output=True, timeout=120)
    assert p.returncode == 0, f"{args}: exit {p.returncode}: {p.stderr.decode()}"
    return json.loads(p.stdout) if fmt != "html" else p.stdout.decode()


def findings(rep, req=None):
    return [f for f in rep["findings"] if req is None or f["requirement"] == req]


def frames(f):
    return [w["frame"] for w in f["frames"]]


def check_eq(what, got, want):
    assert got == want, f"{what}: got {got!r}, expected {want!r}"


def capture(name):
    path = os.path.join(CAPTURES, name)
    if not os.path.exists(path):
        raise Skip(f"{path} missing")
    return path


def clean_sender(tmp, n=30, **kw):
    """n BSMs 100 ms apart, msgCnt 120.. wrapping past 127, fresh secMark."""
    return [bsm((120 + i) % 128, sec_mark(i), **kw) for i in range(n)]


CORE_CHECKS = {"bsm.msgcnt-gap", "bsm.msgcnt-repeat", "bsm.age", "bsm.rate", "bsm.interval",
               "bsm.secmark", "bsm.accuracy", "bsm.elevation", "bsm.heading", "bsm.speed",
               "bsm.size"}


# ---- BSM: one capture per broken requirement, and one that breaks none of the core ----

def report_bsm_encoder_agrees_with_decode(tmp):
    """The BSMs this test builds decode (asn1c) to the values put in."""
    cap = mkcap(f"{tmp}/one.pcap", [bsm(5, 1234, semi_major=33, speed=777, heading=4321)])
    out = subprocess.run([V2XCAP, "decode", cap], capture_output=True, check=True).stdout
    core = json.loads(out)["j2735"]["value"]["coreData"]
    check_eq("core", (core["msgCnt"], core["id"], core["secMark"], core["speed"],
                      core["heading"], core["accuracy"]["semiMajor"], core["size"]),
             (5, "0a0b0c0d", 1234, 777, 4321, 33, {"width": 190, "length": 480}))


def report_bsm_clean_sender_quiet(tmp):
    """10 Hz, continuous msgCnt across the 127->0 wrap, fresh secMark, every core field
    available: no core finding. Part II is absent, so path history/prediction trip (their
    own test below); the envelope is unsecuredData, so security.unsigned is reported."""
    rep = report(mkcap(f"{tmp}/clean.pcap", clean_sender(tmp)))
    got = {f["requirement"] for f in findings(rep)}
    check_eq("core findings", got & CORE_CHECKS, set())
    s = rep["bsm_senders"][0]
    check_eq("sender", (s["id"], s["bsms"], s["msg_cnt_gaps"], s["wraps"], s["rate_hz"]),
             ("0a0b0c0d", 30, 0, 1, 10.0))
    check_eq("clock offset", rep["receiver_clock_offset_ms"], 0)


def report_bsm_path_history_and_prediction_absent(tmp):
    """BSMs without part II: J2945/1's path history and path prediction are missing in
    every one, and the findings name the frames."""
    rep = report(mkcap(f"{tmp}/noph.pcap", clean_sender(tmp, n=5)))
    for req in ("bsm.path-history", "bsm.path-prediction"):
        f = findings(rep, req)
        check_eq(req, (len(f), f[0]["count"], frames(f[0])), (1, 5, [1, 2, 3, 4, 5]))


def report_bsm_msgcnt_gaps_capture(tmp):
    """captures/bsm-msgcnt-gaps.pcap: msgCnt 120,121,122,125,126,127,0,1,3: two gaps
    (123-124 before frame 4, 2 before frame 9), 3 lost; 127->0 is a wrap, not a gap."""
    rep = report(capture("bsm-msgcnt-gaps.pcap"))
    f = findings(rep, "bsm.msgcnt-gap")
    check_eq("gap finding", (len(f), f[0]["count"], frames(f[0])), (1, 2, [4, 9]))
    assert "3 messages missing" in f[0]["text"], f[0]["text"]
    s = rep["bsm_senders"][0]
    check_eq("sender", (s["msg_cnt_gaps"], s["lost"], s["wraps"], s["repeats"]), (2, 3, 1, 0))


def report_bsm_msgcnt_repeat(tmp):
    """The count of frame 6 repeats frame 5's (msgCnt 0 1 2 3 4 4 5 6 7 8)."""
    p = [bsm(i if i < 5 else i - 1, sec_mark(i)) for i in range(10)]
    rep = report(mkcap(f"{tmp}/rep.pcap", p))
    f = findings(rep, "bsm.msgcnt-repeat")
    check_eq("repeat", (len(f), frames(f[0])), (1, [6]))
    check_eq("no gap", findings(rep, "bsm.msgcnt-gap"), [])


def report_bsm_stale_secmark(tmp):
    """Frames 11 and 21 carry a secMark 1 s older than their capture time; the others are
    fresh, so the estimated clock offset stays 0 and only those two are stale."""
    p = [bsm(i, sec_mark(i, age_ms=1000 if i in (10, 20) else 0)) for i in range(30)]
    rep = report(mkcap(f"{tmp}/stale.pcap", p))
    f = findings(rep, "bsm.age")
    check_eq("stale", (len(f), frames(f[0])), (1, [11, 21]))
    check_eq("clock offset", rep["receiver_clock_offset_ms"], 0)


def report_bsm_receiver_clock_offset_removed(tmp):
    """Every secMark 2.5 s behind the capture clock: a receiver clock offset, not stale
    messages."""
    p = [bsm(i, sec_mark(i, age_ms=2500)) for i in range(20)]
    rep = report(mkcap(f"{tmp}/offset.pcap", p))
    check_eq("clock offset", rep["receiver_clock_offset_ms"], 2500)
    check_eq("stale", findings(rep, "bsm.age"), [])


def report_bsm_secmark_unavailable(tmp):
    """secMark 65535 (unavailable) in frame 3."""
    p = [bsm(i, 65535 if i == 2 else sec_mark(i)) for i in range(5)]
    f = findings(report(mkcap(f"{tmp}/sm.pcap", p)), "bsm.secmark")
    check_eq("secmark", (len(f), frames(f[0])), (1, [3]))


def report_bsm_rate_below_nominal(tmp):
    """A sender at 5 Hz with continuous msgCnt: its own rate, not losses."""
    p = [bsm(i, sec_mark(i, interval_ms=200)) for i in range(20)]
    rep = report(mkcap(f"{tmp}/5hz.pcap", p, interval_ms=200))
    f = findings(rep, "bsm.rate")
    check_eq("rate", (len(f), rep["bsm_senders"][0]["rate_hz"]), (1, 5.0))
    check_eq("interval", findings(rep, "bsm.interval"), [])


def report_bsm_interval_beyond_congestion_control(tmp):
    """Two files, one sender: msgCnt 0..9 at 10 Hz, then msgCnt 10.. resumes 2 s later:
    an interval longer than 600 ms with no msgCnt gap. Frame 1 of the second file shows it."""
    a = mkcap(f"{tmp}/a.pcap", [bsm(i, sec_mark(i)) for i in range(10)])
    later = START + 3
    b = mkcap(f"{tmp}/b.pcap", [bsm(10 + i, sec_mark(i, start=later)) for i in range(10)],
              start=later)
    rep = report(a, b)
    f = findings(rep, "bsm.interval")
    check_eq("interval", (len(f), [(w["file"], w["frame"]) for w in f[0]["frames"]]),
             (1, [(b, 1)]))


def report_bsm_unavailable_fields(tmp):
    """Elevation, heading, speed, accuracy unavailable and size 0: one finding each."""
    p = [bsm(i, sec_mark(i), elev=-4096, heading=28800, speed=8191, semi_major=255, width=0)
         for i in range(3)]
    rep = report(mkcap(f"{tmp}/unav.pcap", p))
    for req in ("bsm.elevation", "bsm.heading", "bsm.speed", "bsm.accuracy", "bsm.size"):
        f = findings(rep, req)
        check_eq(req, (len(f), frames(f[0])), (1, [1, 2, 3]))


def report_bsm_brakes_and_accuracy(tmp):
    """Brake status unavailable (BrakeAppliedStatus bit 0) in frames 2 and 3; accuracy
    implausible: semiMajor 10 < semiMinor 30 in frame 4, semiMajor 0 in frame 5; frame 1
    and a semiMajor equal to its semiMinor (frame 6) are fine. Cross-checked against the
    decoder: `decode` shows wheelBrakes.unavailable true and the axes as written."""
    p = [bsm(0, sec_mark(0)),
         bsm(1, sec_mark(1), brakes_unavailable=True),
         bsm(2, sec_mark(2), brakes_unavailable=True),
         bsm(3, sec_mark(3), semi_major=10, semi_minor=30),
         bsm(4, sec_mark(4), semi_major=0, semi_minor=0),
         bsm(5, sec_mark(5), semi_major=30, semi_minor=30)]
    cap = mkcap(f"{tmp}/brakes.pcap", p)
    out = subprocess.run([V2XCAP, "decode", cap], capture_output=True, check=True).stdout
    core = [json.loads(line)["j2735"]["value"]["coreData"] for line in out.splitlines()]
    check_eq("decoded", [(c["brakes"]["wheelBrakes"]["unavailable"], c["accuracy"]["semiMajor"],
                          c["accuracy"]["semiMinor"]) for c in core],
             [(False, 20, 20), (True, 20, 20), (True, 20, 20), (False, 10, 30), (False, 0, 0),
              (False, 30, 30)])
    rep = report(cap)
    f = findings(rep, "bsm.brakes")
    check_eq("brakes", (len(f), frames(f[0]), f[0]["severity"]), (1, [2, 3], "info"))
    f = findings(rep, "bsm.accuracy-plausible")
    check_eq("accuracy", (len(f), frames(f[0]), f[0]["severity"]), (1, [4, 5], "warning"))
    check_eq("quiet", findings(report(mkcap(f"{tmp}/ok.pcap", [p[0], p[5]])),
                               "bsm.accuracy-plausible"), [])


# ---- octets after the MessageFrame ----

def report_trailing_octets_named_per_sender(tmp):
    """Senders whose MessageFrames are followed by octets, one finding per sender and type:
    jpo-ode's PSM receiver payload (14, on UDP 44940), and in mixed.pcap the jpo-ode decoder
    vectors' PSM (13) from 02:..:03 and MAP, SPaT (1 each) from the RSU 02:..:0a:01."""
    jpo, mixed = capture("jpo-ode-receivers.pcap"), capture("mixed.pcap")
    rep = report(jpo, mixed)
    got = sorted((f["sender"], f["text"], f["count"], [(w["file"], w["frame"]) for w in f["frames"]],
                  f["severity"]) for f in findings(rep, "j2735.trailing"))
    check_eq("findings", got, [
        ("02:00:00:00:00:01 udp 44940 PSM", "14 octets after the MessageFrame", 1, [(jpo, 3)],
         "warning"),
        ("02:00:00:00:00:03 PSM", "13 octets after the MessageFrame", 1, [(mixed, 6)], "warning"),
        ("02:00:00:00:0a:01 MAP", "1 octet after the MessageFrame", 1, [(mixed, 4)], "warning"),
        ("02:00:00:00:0a:01 SPAT", "1 octet after the MessageFrame", 1, [(mixed, 3)], "warning"),
    ])


# ---- BSM path history (J2945/1: points, spacing, distance, chords against the heard track) ----

M_PER_DEG = 6371000 * 3.141592653589793 / 180   # the report's flat earth
BASE_LAT, BASE_LON = 411642143, -1048434120


def on_arc(s, radius=200.0):
    """The position (1/10 micro degree) s metres along a right-hand arc that starts at BASE
    heading north."""
    phi = s / radius
    north, east = radius * math.sin(phi), radius * (1 - math.cos(phi))
    coslat = math.cos(math.radians(BASE_LAT / 1e7))
    return (BASE_LAT + round(north / M_PER_DEG * 1e7),
            BASE_LON + round(east / (M_PER_DEG * coslat) * 1e7))


def ph_of(pos, i, points):
    """Path history of BSM i: the heard positions of the BSMs `points` (newest first) as
    offsets (the current position minus the point's, as J2945/1 senders write them), their
    timeOffset from BSM i's secMark (100 ms a BSM)."""
    return [(pos[i][0] - pos[j][0], pos[i][1] - pos[j][1], (i - j) * 10) for j in points]


def drive(n=300, every=20, override=None):
    """A sender driving the arc at 10 m/s (1 m a BSM, 100 ms apart); each BSM's path
    history: the heard positions of every `every`th BSM before it, newest first, at most 15
    (the first BSM has none); override {i: points} gives BSM i other points."""
    pos = [on_arc(i * 1.0) for i in range(n)]
    out = []
    for i in range(n):
        pts = (override or {}).get(i) or [j for j in range(i - 1, -1, -1) if j % every == 0][:15]
        out.append(bsm(i % 128, sec_mark(i), lat=pos[i][0], lon=pos[i][1],
                       ph=ph_of(pos, i, pts) or None))
    return out


PH_CHECKS = ("bsm.path-history-points", "bsm.path-history-spacing",
             "bsm.path-history-distance", "bsm.path-history-chord")


def ph_findings(rep):
    return {f["requirement"]: f for f in findings(rep) if f["requirement"] in PH_CHECKS}


def report_bsm_path_history_encoder_agrees_with_decode(tmp):
    """The path history this test builds decodes (asn1c) to the crumbs put in, past 128
    octets of part II (two-octet open type lengths)."""
    crumbs = [(-900 * k, 450 * k - 131071 * (k == 15), 100 * k) for k in range(1, 16)]
    cap = mkcap(f"{tmp}/ph.pcap", [bsm(7, 4000, ph=crumbs, events=1 << 12)])
    out = subprocess.run([V2XCAP, "decode", cap], capture_output=True, check=True).stdout
    vse = json.loads(out)["j2735"]["value"]["partII"][0]["partII-Value"]
    got = [(c["latOffset"], c["lonOffset"], c["timeOffset"], c["elevationOffset"])
           for c in vse["pathHistory"]["crumbData"]]
    check_eq("crumbs", got, [(a, b, t, 0) for a, b, t in crumbs])
    check_eq("events too", vse["events"]["eventHazardLights"], True)


def report_bsm_path_history_quiet(tmp):
    """A concise path history as J2945/1 builds it: 30 s on a 200 m radius, a point every
    20 m (the chord's sagitta 20^2 / (8 * 200) = 0.25 m), at most 15 points (280 m, more than
    200 m), each point a heard position: no path history finding; the first BSM (no crumbs
    yet) only lacks its path history."""
    rep = report(mkcap(f"{tmp}/ph.pcap", drive()))
    check_eq("path history findings", list(ph_findings(rep)), [])
    f = findings(rep, "bsm.path-history")
    check_eq("no crumbs yet", [frames(x) for x in f], [[1]])
    s = rep["bsm_senders"][0]
    check_eq("points", s["path_history_points_max"], 15)


def report_bsm_path_history_chord_error(tmp):
    """A point every 60 m on the 200 m radius: the heard positions midway are 60^2 / (8 *
    200) = 2.25 m off the chord (over 1 m). Each chord is judged once, by the first BSM
    that has both its ends (BSM 61 brings point 60: frame 62, ...), with the heard frame
    midway that shows it (BSM 30: frame 31, ...; its neighbours are only 2.5 mm nearer the
    chord, under the 1 cm of a position's 1/10 micro degree, so one of them may show it)."""
    rep = report(mkcap(f"{tmp}/chord.pcap", drive(every=60)))
    f = ph_findings(rep)
    check_eq("only chords", list(f), ["bsm.path-history-chord"])
    c = f["bsm.path-history-chord"]
    check_eq("chords", (c["count"], frames(c)[0::2]), (4, [62, 122, 182, 242]))
    for heard, mid in zip(frames(c)[1::2], (31, 91, 151, 211)):
        assert abs(heard - mid) <= 1, (frames(c), mid)
    assert c["text"].startswith("heard position 2.2 m off the chord of points 1-2"), c["text"]


def report_bsm_path_history_distance_and_points(tmp):
    """The quiet drive, but BSM 250 (frame 251) carries 2 points covering 50 m after 250 m
    heard driven: too short; BSM 260 carries 15 points covering 45 m: as long as 15 points
    reach, not short; BSM 270 carries 16 points (every 10 m): over J2945/1's 15."""
    override = {250: [225, 200], 260: [260 - 3 * k for k in range(1, 16)],
                270: [260 - 10 * k for k in range(16)]}
    rep = report(mkcap(f"{tmp}/dist.pcap", drive(override=override)))
    f = ph_findings(rep)
    check_eq("findings", sorted(f), ["bsm.path-history-distance", "bsm.path-history-points"])
    d = f["bsm.path-history-distance"]
    check_eq("short", (d["count"], frames(d)), (1, [251]))
    assert d["text"].startswith("50 m in 2 points"), d["text"]
    check_eq("points", frames(f["bsm.path-history-points"]), [271])


def report_bsm_path_history_spacing(tmp):
    """A vehicle standing still: frame 2's first point 230 m from the current position,
    frame 4's point 2 250 m from point 1 (J2945/1: at most 210 m); its points are older
    than the capture, so no heard position judges their chords."""
    north = round(1 / M_PER_DEG * 1e7)   # 1 m
    good = [(100 * north, 0, 3000), (300 * north, 0, 6000)]
    p = [bsm(i, sec_mark(i), ph=good) for i in range(5)]
    p[1] = bsm(1, sec_mark(1), ph=[(230 * north, 0, 3000)])
    p[3] = bsm(3, sec_mark(3), ph=[(100 * north, 0, 3000), (350 * north, 0, 6000)])
    f = ph_findings(report(mkcap(f"{tmp}/spacing.pcap", p)))
    check_eq("findings", list(f), ["bsm.path-history-spacing"])
    s = f["bsm.path-history-spacing"]
    check_eq("spacing", (s["count"], frames(s)), (2, [2, 4]))
    assert s["text"] == "point 1 at least 230 m from the current position", s["text"]


def chord_m(p, a, b):
    """Metres from p to the segment ab (1/10 micro degree lat, lon), flat earth."""
    k = math.cos(math.radians(p[0] / 1e7))
    px, py, bx, by = (p[1] - a[1]) * k, p[0] - a[0], (b[1] - a[1]) * k, b[0] - a[0]
    t = max(0.0, min(1.0, (px * bx + py * by) / (bx * bx + by * by or 1)))
    return math.hypot(px - t * bx, py - t * by) * M_PER_DEG / 1e7


def report_bsm_path_history_real_wydot_log(tmp):
    """tests/vectors/jpo-ode/bsmTx.gz: a WYDOT OBU's own transmitted BSMs (sender 31325433),
    one every 30 s, each with 15 points reaching 36 s and more back, so the BSM before
    falls in time between two points of the next one's path history. Read as J2945/1
    senders write them (a point is the current position minus its offset), those 12
    earlier positions lie within 1 m of their chord (0.0-0.6 m); with the offset added
    instead, all 12 lie 2.5-58 m away. The report reads the offsets so and gives no path
    history finding (15 points, spacing, chords: all hold)."""
    log = os.path.join(CAPTURES, "..", "tests", "vectors", "jpo-ode", "bsmTx.gz")
    if not os.path.exists(log):
        raise Skip(f"{log} missing")
    out = subprocess.run([V2XCAP, "decode", log], capture_output=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        d = json.loads(line)
        v = d["j2735"]["value"]
        ph = [c for x in v.get("partII", [])
              for c in x["partII-Value"].get("pathHistory", {}).get("crumbData", [])]
        rows.append((d["time"], v["coreData"]["lat"], v["coreData"]["long"], ph))
    off = {-1: [], 1: []}
    for (t0, lat0, lon0, _), (t, lat, lon, ph) in zip(rows, rows[1:]):
        back = round((t - t0) * 100)      # 10 ms units, as timeOffset
        if back > 6000:
            continue
        for sign in off:
            pts = [(0, lat, lon)] + [(c["timeOffset"], lat + sign * c["latOffset"],
                                      lon + sign * c["lonOffset"]) for c in ph]
            off[sign] += [chord_m((lat0, lon0), a[1:], b[1:]) for a, b in zip(pts, pts[1:])
                          if a[0] <= back <= b[0]][:1]
    check_eq("judged", len(off[-1]), 12)
    assert max(off[-1]) < 1, off[-1]
    assert min(off[1]) > 2, off[1]
    rep = report(log)
    check_eq("path history findings", list(ph_findings(rep)), [])
    check_eq("points", rep["bsm_senders"][0]["path_history_points_max"], 15)


def report_priority_first(tmp):
    """A BSM with event flags (hazard lights, hard braking) is a priority finding and
    comes before every other, in the JSON and on the page."""
    flags = 1 << (12 - 0) | 1 << (12 - 7)   # eventHazardLights (bit 0), eventHardBraking (7)
    p = clean_sender(tmp, n=3) + [bsm(123, sec_mark(3), events=flags)]
    cap = mkcap(f"{tmp}/prio.pcap", p)
    rep = report(cap)
    first = rep["findings"][0]
    check_eq("first", (first["severity"], first["requirement"], frames(first)),
             ("priority", "priority.bsm-events", [4]))
    assert "eventHazardLights" in first["text"] and "eventHardBraking" in first["text"], first
    page = report(cap, fmt="html")
    assert page.index("priority.bsm-events") < page.index("<h2>Findings"), "priority not first"


IN_USE, NOT_IN_USE = 2, 1   # SirenInUse, LightbarInUse


def report_bsm_part2_encoder_agrees_with_decode(tmp):
    """The part II this test builds decodes (asn1c) to the flags and alerts put in."""
    p = bsm(1, 100, events=1 << (12 - 7), alerts=(IN_USE, NOT_IN_USE))
    cap = mkcap(f"{tmp}/p2.pcap", [p])
    out = subprocess.run([V2XCAP, "decode", cap], capture_output=True, check=True).stdout
    part2 = {c["partII-Id"]: c["partII-Value"]
             for c in json.loads(out)["j2735"]["value"]["partII"]}
    check_eq("events", [k for k, v in part2[0]["events"].items() if v], ["eventHardBraking"])
    alerts = part2[1]["vehicleAlerts"]
    check_eq("alerts", (alerts["sirenUse"], alerts["lightsUse"]), ("inUse", "notInUse"))
    p = bsm(1, 100, alerts=(NOT_IN_USE, NOT_IN_USE, 1 << (15 - 2), 3))
    out = subprocess.run([V2XCAP, "decode", mkcap(f"{tmp}/p3.pcap", [p])],
                         capture_output=True, check=True).stdout
    alerts = json.loads(out)["j2735"]["value"]["partII"][0]["partII-Value"]["vehicleAlerts"]
    check_eq("events", [k for k, v in alerts["events"]["event"].items() if v],
             ["peEmergencyLightsActive"])
    check_eq("response", alerts["responseType"], "pursuit")


def report_stats_priority_emergency_response(tmp):
    """An emergency vehicle's BSM with lights and siren not in use is still responding when
    its responseType is emergency (frame 1) or its PrivilegedEventFlags say
    peEmergencyResponse (frame 2); with neither (pursuit, lights event only: frame 3) it
    is not a priority message."""
    p = [bsm(1, sec_mark(0), alerts=(NOT_IN_USE, NOT_IN_USE, None, 1)),
         bsm(2, sec_mark(1), alerts=(NOT_IN_USE, NOT_IN_USE, 1 << (15 - 1))),
         bsm(3, sec_mark(2), alerts=(NOT_IN_USE, NOT_IN_USE, 1 << (15 - 2), 3))]
    got = json.loads(stats("--format", "json", mkcap(f"{tmp}/resp.pcap", p)))["priority"]
    check_eq("priority", [(e["kind"], [f["frame"] for f in e["frames"]]) for e in got],
             [("bsm_emergency", [1, 2])])


def vector(path):
    p = os.path.join(CAPTURES, "..", "tests", "vectors", path)
    if not os.path.exists(p):
        raise Skip(f"{p} missing")
    return "@" + p


def stats(*args):
    p = subprocess.run([V2XCAP, "stats", *args], capture_output=True, timeout=120)
    assert p.returncode == 0, f"stats {args}: exit {p.returncode}: {p.stderr.decode()}"
    return p.stdout.decode()


def priority_capture(tmp):
    """Frame 1 a plain BSM, 2 event flags (hard braking), 3 an ambulance's BSM with its
    siren in use, 4 jpo-ode's SRM, 5 the ambulance again, lights in use too."""
    amb = dict(tid=0x0E0E0E0E)
    p = [bsm(1, sec_mark(0)), bsm(2, sec_mark(1), events=1 << (12 - 7)),
         bsm(1, sec_mark(2), alerts=(IN_USE, NOT_IN_USE), **amb),
         vector("jpo-ode/decoder-output-srm.xml"),
         bsm(2, sec_mark(4), alerts=(IN_USE, IN_USE), **amb)]
    return mkcap(f"{tmp}/prio.pcap", p)


def report_stats_priority_section(tmp):
    """`stats`: the priority messages in a section of their own, emergency first (the
    ambulance's BSMs, frames 3 and 5), then the SRM (frame 4), then the BSM with event
    flags (frame 2); the same in JSON ("priority"), CSV and the table, where the section
    comes before the per-type table."""
    cap = priority_capture(tmp)
    got = json.loads(stats("--format", "json", cap))["priority"]
    check_eq("json", [(e["kind"], e["sender"], e["messages"], [f["frame"] for f in e["frames"]])
                      for e in got],
             [("bsm_emergency", "0E0E0E0E", 2, [3, 5]), ("srm", "02:00:00:00:00:01", 1, [4]),
              ("bsm_events", "0A0B0C0D", 1, [2])])
    check_eq("events", got[2]["events"], "eventHardBraking")
    check_eq("csv", stats("--format", "csv", "--by", "priority", cap).splitlines(), [
        "kind,sender,messages,frames,events",
        "bsm_emergency,0E0E0E0E,2,3 5,", "srm,02:00:00:00:00:01,1,4,",
        "bsm_events,0A0B0C0D,1,2,eventHardBraking"])
    table = stats(cap)
    assert table.index("Priority messages") < table.index("\ntype "), table
    assert re.search(r"^bsm_emergency +0E0E0E0E +2 +3 5 +-$", table, re.M), table


def report_priority_in_report_and_stats_agree(tmp):
    """The report's priority findings are stats' priority messages (one classification):
    the same kinds, senders and frames, emergency first."""
    cap = priority_capture(tmp)
    rep = report(cap)
    prio = [(f["requirement"], f["sender"], frames(f)) for f in findings(rep)
            if f["severity"] == "priority"]
    check_eq("report", prio, [("priority.bsm-emergency", "0e0e0e0e", [3, 5]),
                              ("priority.srm", "02:00:00:00:00:01", [4]),
                              ("priority.bsm-events", "0a0b0c0d", [2])])


def report_stats_priority_with_path_history(tmp):
    """Part II as most BSMs carry it, a path history, is told apart from one with event
    flags whatever the length determinant's form (libv2x reads the common case from one
    64-bit window: v2x_bsm_part2_quiet): 1 point (a one-octet length) and 15 points (a
    two-octet length, the value over 127 octets), each without and with hard braking.
    Frames 2 and 4 are priority messages; `decode` shows the path history and the flag."""
    one = [(-100, 0, 100)]
    many = [(-100 * (k + 1), 0, 100 * (k + 1)) for k in range(15)]
    hard = 1 << (12 - 7)
    p = [bsm(1, sec_mark(0), ph=one), bsm(2, sec_mark(1), ph=one, events=hard),
         bsm(3, sec_mark(2), ph=many), bsm(4, sec_mark(3), ph=many, events=hard)]
    cap = mkcap(f"{tmp}/phprio.pcap", p)
    got = [(e["kind"], [f["frame"] for f in e["frames"]])
           for e in json.loads(stats("--format", "json", cap))["priority"]]
    check_eq("priority", got, [("bsm_events", [2, 4])])
    out = subprocess.run([V2XCAP, "decode", cap], capture_output=True, check=True).stdout
    ext = [json.loads(line)["j2735"]["value"]["partII"][0]["partII-Value"]
           for line in out.splitlines()]
    check_eq("decoded", [(len(e["pathHistory"]["crumbData"]), "events" in e) for e in ext],
             [(1, False), (1, True), (15, False), (15, True)])


def report_stats_priority_real_captures(tmp):
    """Real captures: asn1_codec's 128 BSMs (part II with path history, no events, no
    alerts: their XER) and mixed.pcap hold no priority message; srm-sll2.pcap is jpo-ode's
    SRM (frame 1); udp2-radiotap.pcap is a real signed BSM whose VehicleSafetyExtensions
    set eventLightsChanged (the asn1c decode shows it): a real finding, frame 1."""
    for name in ("bsm-128.pcap", "mixed.pcap"):
        check_eq(name, json.loads(stats("--format", "json", capture(name)))["priority"], [])
    srm = json.loads(stats("--format", "json", capture("srm-sll2.pcap")))["priority"]
    check_eq("srm", [(e["kind"], e["messages"], e["frames"][0]["frame"]) for e in srm],
             [("srm", 1, 1)])
    udp2 = json.loads(stats("--format", "json", capture("udp2-radiotap.pcap")))["priority"]
    check_eq("udp2", [(e["kind"], e["sender"], e["events"]) for e in udp2],
             [("bsm_events", "634B1A26", "eventLightsChanged")])


# ---- MAP / SPaT ----

def report_spat_without_map(tmp):
    """captures/spat-radiotap.pcap: a SPaT for intersection 12111 and no MAP at all."""
    f = findings(report(capture("spat-radiotap.pcap")), "spat.intersection")
    check_eq("spat", (len(f), f[0]["sender"], frames(f[0])), (1, "intersection 12111", [1]))


def decoded(cap):
    out = subprocess.run([V2XCAP, "decode", cap], capture_output=True, check=True).stdout
    return [json.loads(line)["j2735"]["value"] for line in out.splitlines()]


def rewrite_bits(hexstr, at, value, width):
    bits = "".join(f"{b:08b}" for b in bytes.fromhex(hexstr))
    bits = bits[:at] + f"{value:0{width}b}" + bits[at + width:]
    return bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits), 8)).hex()


def spat_for_intersection(spat_hex, old, new):
    """The SPaT's UPER with its 16-bit IntersectionID rewritten (found by its bit pattern)."""
    bits = "".join(f"{b:08b}" for b in bytes.fromhex(spat_hex))
    return rewrite_bits(spat_hex, bits.index(f"{old:016b}"), new, 16)


def edited(tmp, msg_hex, edit, first_bits, width=8):
    """msg_hex with one field of width bits rewritten so that its decode becomes
    edit(decode): every bit offset among the first first_bits tried (400 variants a
    capture), the match kept."""
    want = decoded(mkcap(f"{tmp}/orig.pcap", [msg_hex], extra=("--psid", "82")))[0]
    value = edit(want)
    offsets = range(min(first_bits, len(msg_hex) * 4 - width))
    for chunk in range(0, len(offsets), 400):   # 400 variants a capture: argv stays short
        variants = [rewrite_bits(msg_hex, at, value, width)
                    for at in offsets[chunk:chunk + 400]]
        cap = mkcap(f"{tmp}/variants.pcap", variants, extra=("--psid", "82"))
        out = subprocess.run([V2XCAP, "decode", cap], capture_output=True).stdout
        for line in out.splitlines():
            d = json.loads(line)
            if d["j2735"].get("value") == want:
                return variants[d["frame"] - 1]
    raise AssertionError("no bit offset holds the field")


def spat_with_group(tmp, spat_hex, old, new):
    """The SPaT with its signal group `old` renamed `new`."""
    def edit(v):
        for st in v["intersections"][0]["states"]:
            if st["signalGroup"] == old:
                st["signalGroup"] = new
        return new
    return edited(tmp, spat_hex, edit, len(spat_hex) * 4)


def report_spat_signal_group_not_in_map(tmp):
    """The real SPaT (intersection 12111, groups 2 4 6 8 1 5) moved onto the real MAP's
    intersection 12110, whose connections use all of those groups: quiet. Then its group 8
    renamed 200: the finding names group 200 and the SPaT's frame."""
    with open(capture("spat-radiotap.pcap"), "rb") as f:
        raw = f.read()
    at = raw.rindex(b"\x00\x13")   # the MessageFrame (messageId 19) ends the only frame
    moved = spat_for_intersection(raw[at:].hex(), 12111, 12110)
    the_map = capture("map-radiotap-signed.pcapng")
    mp = decoded(the_map)[0]["intersections"][0]
    used = {c["signalGroup"] for l in mp["laneSet"] for c in l.get("connectsTo", [])
            if "signalGroup" in c}
    cap = mkcap(f"{tmp}/spat.pcap", [moved], extra=("--psid", "82"))
    groups = {s["signalGroup"] for s in decoded(cap)[0]["intersections"][0]["states"]}
    check_eq("the SPaT's groups are in the MAP", groups - used, set())
    rep = report(the_map, cap)
    check_eq("quiet", [f for f in findings(rep) if f["requirement"].startswith("spat.")], [])

    assert 200 not in used
    bad = mkcap(f"{tmp}/bad.pcap", [spat_with_group(tmp, moved, 8, 200)],
                extra=("--psid", "82"))
    f = findings(report(the_map, bad), "spat.signal-group")
    check_eq("finding", (len(f), f[0]["sender"], f[0]["text"], frames(f[0])),
             (1, "intersection 12110", "signal group 200 not in the MAP", [1]))


def real_spat():
    """The real SPaT's MessageFrame (jpo-ode, intersection 12111): timeStamp 35176 ms, no
    moy; groups 2 and 6 end at TimeMark 22120..22121 (36:52.0), 4 at 22181, 8 1 5 at 21852
    (36:25.2)."""
    with open(capture("spat-radiotap.pcap"), "rb") as f:
        raw = f.read()
    return raw[raw.rindex(b"\x00\x13"):].hex()


def at_minute(minute, second):
    """A capture start in mkcap's hour (22:00 UTC) at that minute and second."""
    return START - START % 3600 + minute * 60 + second


def spat_timings(cap):
    st = decoded(cap)[0]["intersections"][0]["states"]
    return {s["signalGroup"]: (s["state-time-speed"][0]["timing"]["minEndTime"],
                               s["state-time-speed"][0]["timing"].get("maxEndTime"))
            for s in st}


def report_spat_timing_behind_message_time(tmp):
    """The SPaT heard at 22:36:40: its timeStamp (35.176 s, no moy) puts it at 36:35.176
    (the minute nearest the capture time), when groups 8, 1, 5 had ended 9.9 s before
    (minEndTime = maxEndTime = 36:25.2); 2, 4, 6 end later: one finding, frame 1."""
    cap = mkcap(f"{tmp}/late.pcap", [real_spat()], start=at_minute(36, 40),
                extra=("--psid", "82"))
    f = findings(report(cap), "spat.timing")
    check_eq("timing", (len(f), f[0]["sender"], frames(f[0]), f[0]["text"]),
             (1, "intersection 12111", [1],
              "group 8 minEndTime 9.9 s behind, group 1 minEndTime 9.9 s behind, "
              "group 5 minEndTime 9.9 s behind"))


def report_spat_timing_quiet_when_ahead(tmp):
    """The same SPaT heard at 22:35:40 (message time 35:35.176): every end time is ahead
    (50 s and more): quiet. captures/spat-radiotap.pcap (minute 13) is quiet too."""
    cap = mkcap(f"{tmp}/ok.pcap", [real_spat()], start=at_minute(35, 40),
                extra=("--psid", "82"))
    check_eq("timing", findings(report(cap), "spat.timing"), [])
    check_eq("real", findings(report(capture("spat-radiotap.pcap")), "spat.timing"), [])


def report_spat_timing_across_the_hour(tmp):
    """End times rewritten to 00:10.0 (TimeMark 100) and the SPaT heard at 22:59:40
    (message time 59:35.176): they lie 34.9 s ahead, in the next hour: quiet. Heard at
    23:00:40 (00:35.1 as a TimeMark), they are 25.1 s behind."""
    spat = real_spat()
    for old in (22120, 22121, 22181, 21852):
        bits = "".join(f"{b:08b}" for b in bytes.fromhex(spat))
        while f"{old:016b}" in bits:
            spat = rewrite_bits(spat, bits.index(f"{old:016b}"), 100, 16)
            bits = "".join(f"{b:08b}" for b in bytes.fromhex(spat))
    quiet = mkcap(f"{tmp}/wrap.pcap", [spat], start=at_minute(59, 40), extra=("--psid", "82"))
    check_eq("rewritten", set(spat_timings(quiet).values()), {(100, 100)})
    check_eq("next hour", findings(report(quiet), "spat.timing"), [])
    late = mkcap(f"{tmp}/late.pcap", [spat], start=at_minute(60, 40), extra=("--psid", "82"))
    f = findings(report(late), "spat.timing")
    check_eq("behind", (len(f), frames(f[0])), (1, [1]))
    assert "group 2 minEndTime 25.1 s behind" in f[0]["text"], f[0]["text"]


# J2735 MovementPhaseState values (UPER: 4 bits, no extension)
PHASES = {"stop-And-Remain": 3, "protected-Movement-Allowed": 6, "protected-clearance": 8}


def spat_phase(tmp, state):
    """The real SPaT with signal group 2's eventState (protected-Movement-Allowed) set to
    state."""
    spat = real_spat()
    if state == "protected-Movement-Allowed":
        return spat

    def edit(v):
        for st in v["intersections"][0]["states"]:
            if st["signalGroup"] == 2:
                st["state-time-speed"][0]["eventState"] = state
        return PHASES[state]
    return edited(tmp, spat, edit, len(spat) * 4, width=4)


def report_spat_phase_skips_clearance(tmp):
    """Group 2 of the real SPaT, 100 ms apart: green, red (frame 2: the yellow skipped),
    yellow (frame 3: a yellow after red). One finding naming both, frames 2 and 3."""
    seq = [spat_phase(tmp, s) for s in ("protected-Movement-Allowed", "stop-And-Remain",
                                        "protected-clearance")]
    rep = report(mkcap(f"{tmp}/skip.pcap", seq, extra=("--psid", "82")))
    f = findings(rep, "spat.phase-sequence")
    check_eq("phases", (len(f), f[0]["sender"], frames(f[0]), f[0]["text"]),
             (1, "intersection 12111", [2, 3],
              "group 2 protected-Movement-Allowed -> stop-And-Remain; "
              "group 2 stop-And-Remain -> protected-clearance"))


def report_spat_phase_sequence_quiet(tmp):
    """Green, yellow, red, green 100 ms apart: the permitted cycle, quiet. Green then red
    5 s apart: a whole yellow (3 s at least) may have passed unheard, quiet. The real
    captures with a SPaT (one each) are quiet."""
    g, y, r = (spat_phase(tmp, s) for s in ("protected-Movement-Allowed",
                                            "protected-clearance", "stop-And-Remain"))
    ok = mkcap(f"{tmp}/ok.pcap", [g, y, r, g], extra=("--psid", "82"))
    check_eq("cycle", findings(report(ok), "spat.phase-sequence"), [])
    slow = mkcap(f"{tmp}/slow.pcap", [g, r], interval_ms=5000, extra=("--psid", "82"))
    check_eq("5 s apart", findings(report(slow), "spat.phase-sequence"), [])
    for name in ("spat-radiotap.pcap", "mixed.pcap", "gdot-radiotap.pcap",
                 "pc5/pc5-family-udp.pcap", "rsu/rsu-imf-udp.pcap"):
        check_eq(name, findings(report(capture(name)), "spat.phase-sequence"), [])


def real_map():
    with open(capture("map-radiotap-signed.pcapng"), "rb") as f:
        raw = f.read()
    at = re.search(b"\x00\x12[\x80-\xbf]", raw).start()
    length = int.from_bytes(raw[at + 2:at + 4], "big") & 0x3FFF
    return raw[at:at + 4 + length].hex()


def report_map_revision_change(tmp):
    """The real MAP (intersection 12110, revision 0), then the same MAP as revision 1 in a
    second file: map.revision (info) at the second file's frame 1, and no content finding
    (each revision's lanes agree with themselves)."""
    def edit(v):
        v["intersections"][0]["revision"] = 1
        return 1
    rev1 = mkcap(f"{tmp}/rev1.pcap", [edited(tmp, real_map(), edit, 400)],
                 start=START + 60, extra=("--psid", "82"))
    rep = report(capture("map-radiotap-signed.pcapng"), rev1)
    f = findings(rep, "map.revision")
    check_eq("revision", (len(f), f[0]["severity"], f[0]["text"],
                          [(w["file"], w["frame"]) for w in f[0]["frames"]]),
             (1, "info", "revision 0 -> 1", [(rev1, 1)]))
    check_eq("content", findings(rep, "map.revision-content"), [])


def report_map_content_changed_without_revision(tmp):
    """The real MAP, then a copy whose lane id changed but whose revision did not (still
    0): map.revision-content at that copy's frame. The real MAP twice: quiet."""
    mp = decoded(capture("map-radiotap-signed.pcapng"))[0]["intersections"][0]
    first, second = mp["laneSet"][0]["laneID"], mp["laneSet"][1]["laneID"]

    def edit(v):
        v["intersections"][0]["laneSet"][1]["laneID"] = first
        return first
    assert first != second
    msg = real_map()
    changed = mkcap(f"{tmp}/chg.pcap", [msg, edited(tmp, msg, edit, len(msg) * 4)],
                    extra=("--psid", "82"))
    f = findings(report(changed), "map.revision-content")
    check_eq("changed", (len(f), frames(f[0]), f[0]["text"]),
             (1, [2], "revision 0: lanes differ from the first heard"))
    same = mkcap(f"{tmp}/same.pcap", [msg, msg], extra=("--psid", "82"))
    check_eq("same", [x for x in findings(report(same)) if x["requirement"].startswith("map.")
                      and x["requirement"] != "map.node-offset"], [])   # the MAP's own


def report_map_node_offsets(tmp):
    """The real MAP's lane 2 with its second node's offset (node-XY6, Offset-B16) set to
    (0, 0): that node lies where the first is (map.node-offset, info, frame 1, with the
    real MAP's own three lanes: see report_map_lanes_well_formed)."""
    def zero(axis):
        def edit(v):
            v["intersections"][0]["laneSet"][0]["nodeList"]["nodes"][1]["delta"][
                "node-XY6"][axis] = 0
            return 32768                      # Offset-B16 0: its offset from -32768
        return edit
    msg = real_map()
    mp = decoded(mkcap(f"{tmp}/orig.pcap", [msg], extra=("--psid", "82")))[0]
    check_eq("lane", mp["intersections"][0]["laneSet"][0]["laneID"], 2)
    msg = edited(tmp, msg, zero("x"), len(msg) * 4, width=16)
    msg = edited(tmp, msg, zero("y"), len(msg) * 4, width=16)
    f = findings(report(mkcap(f"{tmp}/node.pcap", [msg], extra=("--psid", "82"))),
                 "map.node-offset")
    check_eq("node", (len(f), f[0]["text"].split("; ")[0], frames(f[0]), f[0]["severity"]),
             (1, "lane 2 node 2 where node 1 is", [1], "info"))


def report_tim_window_against_capture_time(tmp):
    """jpo-ode's TIM: startYear 2018, startTime 448260 (2018-11-08 07:00 UTC), 1440 min.
    Heard an hour after its start: quiet; an hour before: not started; in mkcap's 2023
    (captures/tim-80211-signed.pcap, real bytes, synthetic time): expired ~5 years before."""
    start = 1514764800 + 448260 * 60           # 2018-01-01 + startTime minutes
    tim = vector("jpo-ode/decoder-output-tim.xml")

    def tim_findings(at):
        cap = mkcap(f"{tmp}/tim.pcap", [tim], start=at, extra=("--psid", "83", "--dot2", "none"))
        return findings(report(cap), "tim.window")
    check_eq("in force", tim_findings(start + 3600), [])
    f = tim_findings(start - 3600)
    check_eq("not started", (len(f), f[0]["severity"], f[0]["text"], frames(f[0])),
             (1, "warning", "frame 1 starts 1.0 h after it was heard", [1]))
    f = findings(report(capture("tim-80211-signed.pcap")), "tim.window")
    check_eq("expired", (len(f), frames(f[0])), (1, [1]))
    assert f[0]["text"].startswith("frame 1 expired"), f[0]["text"]


def report_map_duplicate_lane_and_missing_connection(tmp):
    """The real MAP with the lane its first lane connects to renamed as the first lane:
    that id is defined twice, and every connection to the old id leads nowhere."""
    with open(capture("map-radiotap-signed.pcapng"), "rb") as f:
        raw = f.read()
    mp = decoded(capture("map-radiotap-signed.pcapng"))[0]["intersections"][0]
    first = mp["laneSet"][0]["laneID"]
    target = mp["laneSet"][0]["connectsTo"][0]["connectingLane"]["lane"]
    index = [l["laneID"] for l in mp["laneSet"]].index(target)
    to_target = sorted({l["laneID"] for l in mp["laneSet"] for c in l.get("connectsTo", [])
                        if c["connectingLane"]["lane"] == target})
    # the MessageFrame: messageId 18 (00 12), a two-octet length determinant (10xxxxxx ...)
    at = re.search(b"\x00\x12[\x80-\xbf]", raw).start()
    length = int.from_bytes(raw[at + 2:at + 4], "big") & 0x3FFF
    msg = raw[at:at + 4 + length].hex()

    def edit(v):
        v["intersections"][0]["laneSet"][index]["laneID"] = first
        return first
    cap = mkcap(f"{tmp}/map.pcap", [edited(tmp, msg, edit, len(msg) * 4)],
                extra=("--psid", "82"))
    rep = report(cap)
    f = findings(rep, "map.lane-id")
    check_eq("duplicate", (len(f), f[0]["text"], frames(f[0])),
             (1, f"lane {first} defined twice", [1]))
    f = findings(rep, "map.connection")
    check_eq("connection findings", len(f), 1)
    assert to_target, "the MAP's first lane connects to the target"
    for lane in to_target:
        assert f"lane {lane} connects to missing lane {target}" in f[0]["text"], f[0]["text"]


def report_map_lanes_well_formed(tmp):
    """captures/map-radiotap-signed.pcapng (a real MAP, jpo-ode): lane ids unique and every
    connection leads to a lane of the intersection; its lanes are drawn. One real finding:
    lanes 13, 10 and 23 each carry a node offset (0, 0) (decode: node-XY6 x 0, y 0), a
    node where the one before it is (map.node-offset, info)."""
    rep = report(capture("map-radiotap-signed.pcapng"))
    check_eq("map findings", [(f["requirement"], f["severity"], f["text"]) for f in findings(rep)
                              if f["requirement"].startswith("map.")],
             [("map.node-offset", "info", "lane 13 node 3 where node 2 is; lane 10 node 6 "
               "where node 5 is; lane 23 node 5 where node 4 is")])
    mp = decoded(capture("map-radiotap-signed.pcapng"))[0]["intersections"][0]
    check_eq("lanes", rep["intersections"], [{"id": 12110, "revision": 0,
                                               "lanes": len(mp["laneSet"])}])


# ---- 1609.2: signer against TemporaryID, certificate against PSID ----

SIG = bytes([0x80, 0x82]) + bytes(range(64))        # ecdsaNistP256Signature, x-only


def signed(mf_hex, signer, psid=0x20, gen=0):
    """Ieee1609Dot2Data signedData (COER, IEEE 1609.2) around a MessageFrame: hashId
    sha256, payload unsecuredData, headerInfo {psid, generationTime}, the signer (bytes:
    digest (8 octets) or certificate), a P-256 signature."""
    mf = bytes.fromhex(mf_hex)
    assert len(mf) < 128
    who = bytes([0x80]) + signer if len(signer) == 8 else bytes([0x81, 1, 1]) + signer
    return (bytes([3, 0x81, 0, 0x40, 3, 0x80, len(mf)]) + mf + bytes([0x40, 1, psid]) +
            gen.to_bytes(8, "big") + who + SIG).hex()


def certificate(psids=(0x20, 0x26), ssps=None):
    """asn1_codec Ieee1609Dot2Data.signedData.xml's certificate in COER (implicit, linkage
    id, identifiedRegion 124 484 840, 169 hours, appPermissions, reconstructionValue,
    signature): Wireshark 4.0's ieee1609dot2 dissector reads it so. ssps: {psid: the
    PsidSsp's ssp as COER (ssp_opaque(), ssp_bitmap())}."""
    ssps = ssps or {}
    tbs = bytes.fromhex("50" "8080" "03e8" "313233343536373839" "41424344"
                        "515253545556575859" "616263" "0046" "04e09a20" "8400a9"
                        "830103" "80007c" "8001e4" "800348")
    tbs += bytes([1, len(psids)]) + b"".join(
        bytes([0x80 if p in ssps else 0, 1, p]) + ssps.get(p, b"") for p in psids)
    tbs += bytes([0x81, 0x82]) + bytes.fromhex("9192939495969798" * 4)
    return bytes.fromhex("80" "03" "01" "80" "2122232425262728") + tbs + SIG


def hashed_id8(cert):
    """IEEE 1609.2 HashedId8: SHA-256 of the certificate's canonical encoding (keys'
    points compressed, the signature's r x-only: certificate() ends with SIG, whose r is
    compressed-y-0), the last 8 octets."""
    import hashlib
    if cert.endswith(SIG):
        cert = cert[:-len(SIG)] + bytes([0x80, 0x80]) + SIG[2:]
    return hashlib.sha256(cert).digest()[-8:]


D1, D2 = bytes.fromhex("1111111111111111"), bytes.fromhex("2222222222222222")


def signed_bsms(tmp, name, plan):
    """plan: (TemporaryID, signer) per BSM, 100 ms apart, msgCnt continuous."""
    p = [signed(bsm(i, sec_mark(i), tid=tid), who) for i, (tid, who) in enumerate(plan)]
    return mkcap(f"{tmp}/{name}.pcap", p, extra=("--dot2", "none"))


def report_privacy_temporary_id_changes_alone(tmp):
    """TemporaryID 0a0b0c0d for frames 1-5, then 0e0e0e0e from frame 6, all signed by the
    same digest: the new id is linkable to the old one through the signer."""
    cap = signed_bsms(tmp, "id", [(0x0A0B0C0D, D1)] * 5 + [(0x0E0E0E0E, D1)] * 5)
    rep = report(cap)
    f = findings(rep, "privacy.temporary-id")
    check_eq("id alone", (len(f), f[0]["sender"], frames(f[0]), f[0]["text"]),
             (1, "0e0e0e0e", [6], "TemporaryID 0a0b0c0d -> 0e0e0e0e, signer "
              "1111111111111111 kept"))
    check_eq("signer", findings(rep, "privacy.signer"), [])


def report_privacy_signer_changes_alone(tmp):
    """The signer changes at frame 6 (digest 11.. -> 22..), the TemporaryID does not."""
    cap = signed_bsms(tmp, "signer", [(0x0A0B0C0D, D1)] * 5 + [(0x0A0B0C0D, D2)] * 5)
    rep = report(cap)
    f = findings(rep, "privacy.signer")
    check_eq("signer alone", (len(f), f[0]["sender"], frames(f[0])), (1, "0a0b0c0d", [6]))
    check_eq("id", findings(rep, "privacy.temporary-id"), [])


def report_privacy_quiet_when_both_change(tmp):
    """Both change at frame 6: quiet. Frame 1 carries the certificate, frames 2-5 its
    digest (the HashedId8: SHA-256 of the certificate, computed here by hashlib): one
    signer, no change. The real signed captures (captures/) are quiet too: their BSMs keep
    one TemporaryID and one digest."""
    cert = certificate()
    plan = [(0x0A0B0C0D, cert)] + [(0x0A0B0C0D, hashed_id8(cert))] * 4 + \
        [(0x0E0E0E0E, D2)] * 5
    rep = report(signed_bsms(tmp, "both", plan))
    check_eq("quiet", [f for f in findings(rep) if f["requirement"].startswith("privacy.")],
             [])
    for name in ("mixed.pcap", "bsm-radiotap-signed.pcap", "udp2-radiotap.pcap"):
        check_eq(name, [f for f in findings(report(capture(name)))
                        if f["requirement"].startswith("privacy.")], [])


def report_certificate_psid_against_wsmp(tmp):
    """The certificate permits PSIDs 0x20 and 0x26: the BSM it signs on WSMP PSID 0x20 is
    quiet; the same BSM twice on WSMP PSID 0x82 trips it in both frames. No capture in
    captures/ carries a certificate (their signers are digests): nothing to check there."""
    msg = signed(bsm(1, sec_mark(0)), certificate())
    ok = mkcap(f"{tmp}/ok.pcap", [msg], extra=("--dot2", "none"))
    check_eq("permitted", findings(report(ok), "security.cert-psid"), [])
    bad = mkcap(f"{tmp}/bad.pcap", [msg, msg], extra=("--dot2", "none", "--psid", "82"))
    f = findings(report(bad), "security.cert-psid")
    check_eq("not permitted", (len(f), frames(f[0]), f[0]["text"]),
             (1, [1, 2], "appPermissions 0x20 0x26 lack the WSMP PSID 0x82"))


# ---- 1609.2 signatures verified (OpenSSL) ----

def p256_cert(pub, curve=0, uncompressed=False):
    """An explicit certificate (COER) for the public key pub (cryptography's EC public
    key): issuer sha256AndDigest, id none, 169 hours, appPermissions {0x20},
    verificationKey ecdsaNistP256 (curve 0) or ecdsaBrainpoolP256r1 (curve 1), the point
    compressed or uncompressed, an issuer's signature with r compressed-y-0 (SIG). Returns
    (as sent, canonical): IEEE 1609.2 hashes the certificate with its key's point
    compressed and the signature's r x-only."""
    n = pub.public_numbers()
    x, y = n.x.to_bytes(32, "big"), n.y.to_bytes(32, "big")
    compressed = bytes([0x82 + (n.y & 1)]) + x

    def build(point, sig):
        tbs = (bytes([0x10, 0x83]) + bytes.fromhex("616263" "0046" "04e09a20" "8400a9") +
               bytes([1, 1, 0, 1, 0x20]) + bytes([0x80, 0x80 + curve]) + point)
        return bytes.fromhex("80" "03" "00" "80" "2122232425262728") + tbs + sig
    sent = build(bytes([0x84]) + x + y if uncompressed else compressed, SIG)
    canonical = build(compressed, bytes([0x80, 0x80]) + SIG[2:])
    return sent, canonical


def signed_ecdsa(key, mf_hex, cert, canonical, digest=False, tamper=None):
    """signed() with a real ECDSA signature by key: SHA-256 over SHA-256(tbsData) ||
    SHA-256(canonical certificate) (vanetza security/v3/hash.cpp); the signer is the
    certificate, or its HashedId8 (digest). tamper: 'payload' flips a bit of the message
    after signing, 's' one of the signature's s."""
    import hashlib
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils
    mf = bytes.fromhex(mf_hex)
    tbs = bytes([0x40, 3, 0x80, len(mf)]) + mf + bytes([0x40, 1, 0x20]) + bytes(8)
    msg = hashlib.sha256(tbs).digest() + hashlib.sha256(canonical).digest()
    r, s_ = utils.decode_dss_signature(key.sign(msg, ec.ECDSA(hashes.SHA256())))
    s_ = s_.to_bytes(32, "big")
    if tamper == "payload":
        tbs = tbs[:10] + bytes([tbs[10] ^ 1]) + tbs[11:]
    if tamper == "s":
        s_ = s_[:31] + bytes([s_[31] ^ 1])
    who = bytes([0x80]) + hashed_id8(canonical) if digest else bytes([0x81, 1, 1]) + cert
    return (bytes([3, 0x81, 0]) + tbs + who + bytes([0x80, 0x80]) + r.to_bytes(32, "big") +
            s_).hex()


def needs_verification(rep):
    if any("needs OpenSSL" in f["text"] for f in findings(rep, "security.signature-unverified")):
        raise Skip("v2xcap built without OpenSSL (libssl-dev): no signature verification")


def crypto():
    try:
        from cryptography.hazmat.primitives.asymmetric import ec
    except ImportError:
        raise Skip("python3-cryptography missing: cannot sign test frames")
    return ec


def report_signature_verified_and_tampered(tmp):
    """Keys made here (P-256 and brainpoolP256r1), each BSM signed as IEEE 1609.2 says:
    1 certificate (P-256, compressed key): verifies; 2 its digest: verifies (the key from
    frame 1); 3 the certificate, the message altered after signing: fails; 4 the digest,
    s altered: fails; 5 a brainpoolP256r1 certificate sent with its key uncompressed
    (hashed in the canonical, compressed form): verifies; 6 that one's digest: verifies.
    --no-verify: nothing verified, nothing found."""
    ec = crypto()
    k1, k2 = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.BrainpoolP256R1())
    c1, c1n = p256_cert(k1.public_key())
    c2, c2n = p256_cert(k2.public_key(), curve=1, uncompressed=True)
    msgs = [bsm(i, sec_mark(i)) for i in range(6)]
    p = [signed_ecdsa(k1, msgs[0], c1, c1n), signed_ecdsa(k1, msgs[1], c1, c1n, digest=True),
         signed_ecdsa(k1, msgs[2], c1, c1n, tamper="payload"),
         signed_ecdsa(k1, msgs[3], c1, c1n, digest=True, tamper="s"),
         signed_ecdsa(k2, msgs[4], c2, c2n), signed_ecdsa(k2, msgs[5], c2, c2n, digest=True)]
    cap = mkcap(f"{tmp}/sig.pcap", p, extra=("--dot2", "none"))
    rep = report(cap)
    needs_verification(rep)
    f = findings(rep, "security.signature")
    check_eq("failed", (len(f), f[0]["severity"], frames(f[0]), f[0]["text"]),
             (1, "error", [3, 4], "2 of 6 signatures checked do not verify with the "
              "certificate's key"))
    g = rep["security"][0]
    check_eq("counts", (g["signatures_verified"], g["signatures_failed"],
                        g["signatures_unverified"]), (4, 2, 0))
    check_eq("nothing unverifiable", findings(rep, "security.signature-unverified"), [])
    rep = report("--no-verify", cap)
    check_eq("--no-verify", ([f for f in findings(rep) if "signature" in f["requirement"]],
                             rep["security"][0]["signatures_verified"]), ([], 0))


def report_signature_unverifiable_says_why(tmp):
    """Frame 1: the implicit certificate of asn1_codec's vector (its key needs the
    issuer); frame 2: a digest no certificate in the capture hashes to. Both: one info
    finding per sender naming the first reason, no failure. Real captures: udp2 (a device's
    signed BSM) and bsm-radiotap-signed are signed with digests whose certificates are not
    in them: unverifiable with that reason, never a failed signature."""
    rep = report(mkcap(f"{tmp}/imp.pcap", [signed(bsm(1, sec_mark(0)), certificate())],
                       extra=("--dot2", "none")))
    needs_verification(rep)
    f = findings(rep, "security.signature-unverified")
    check_eq("implicit", (len(f), frames(f[0])), (1, [1]))
    assert f[0]["text"].startswith("implicit certificate"), f[0]["text"]
    for name, n in (("udp2-radiotap.pcap", 1), ("bsm-radiotap-signed.pcap", None)):
        rep = report(capture(name))
        check_eq(name, findings(rep, "security.signature"), [])
        f = findings(rep, "security.signature-unverified")
        assert f and all(x["text"].startswith("signer is a digest") for x in f), f
        if n:
            check_eq(name + " frames", frames(f[0]), [n])


# ---- 1609.2: the certificate's SSP ----

def ssp_opaque(octets):
    """ServiceSpecificPermissions opaque (COER: tag 80, length, octets)"""
    return bytes([0x80, len(octets)]) + octets


def ssp_bitmap(octets):
    """ServiceSpecificPermissions bitmapSsp, an extension alternative (COER: tag 81, an
    open type holding the OCTET STRING's length and octets); Wireshark 4.0 reads both
    forms (tests/unit test_dot2.c dot2_certificate_ssps)."""
    inner = bytes([len(octets)]) + octets
    return bytes([0x81, len(inner)]) + inner


def ssp_group(rep, psid):
    return [g for g in rep["security"] if g["psid"] == psid]


def report_certificate_ssp_shown(tmp):
    """A certificate granting 0x20 with opaque SSP 0a0b0c and 0x26 with bitmapSsp 8040:
    the BSMs it signs on WSMP PSID 0x20 (2 frames) and on 0x26 (1 frame, another file)
    show each group's SSP in the JSON and the page, and one security.cert-ssp (info) per
    group saying it was not checked: what these SSPs permit is not publicly defined."""
    cert = certificate(ssps={0x20: ssp_opaque(bytes.fromhex("0a0b0c")),
                             0x26: ssp_bitmap(bytes.fromhex("8040"))})
    msg = signed(bsm(1, sec_mark(0)), cert)
    a = mkcap(f"{tmp}/a.pcap", [msg, msg], extra=("--dot2", "none"))
    b = mkcap(f"{tmp}/b.pcap", [signed(bsm(1, sec_mark(0)), cert, psid=0x26)],
              extra=("--dot2", "none", "--psid", "26"))
    rep = report(a, b)
    check_eq("0x20", ssp_group(rep, 0x20)[0]["certificate_ssp"],
             {"type": "opaque", "octets": 3, "hex": "0a0b0c", "frames_other_ssp": 0})
    check_eq("0x26", ssp_group(rep, 0x26)[0]["certificate_ssp"],
             {"type": "bitmapSsp", "octets": 2, "hex": "8040", "bits": "10000000 01000000",
              "frames_other_ssp": 0})
    f = sorted(findings(rep, "security.cert-ssp"), key=lambda x: x["sender"])
    check_eq("findings", [(x["severity"], x["sender"], x["count"], x["text"]) for x in f], [
        ("info", "02:00:00:00:00:01 psid 0x20", 2, "certificate grants opaque SSP 0a0b0c "
         "(3 octets) with PSID 0x20; its meaning is not publicly defined: not checked"),
        ("info", "02:00:00:00:00:01 psid 0x26", 1, "certificate grants bitmapSsp SSP 8040 "
         "(2 octets) with PSID 0x26; its meaning is not publicly defined: not checked")])
    assert "not publicly defined" in f[0]["source"], f[0]["source"]
    check_eq("no PSID finding", findings(rep, "security.cert-psid"), [])
    page = report(a, b, fmt="html")
    for want in ("SSP the certificate grants", "opaque 0a0b0c", "bitmapSsp 8040",
                 "<small>10000000 01000000</small>", "security.cert-ssp"):
        assert want in page, want


def report_certificate_ssp_changes_counted(tmp):
    """Frames 1-2 signed by a certificate with opaque SSP 01, frame 3 by one with 02: the
    group keeps the first and counts the frame whose certificate granted another."""
    one = signed(bsm(1, sec_mark(0)), certificate(ssps={0x20: ssp_opaque(b"\x01")}))
    two = signed(bsm(2, sec_mark(1)), certificate(ssps={0x20: ssp_opaque(b"\x02")}))
    rep = report(mkcap(f"{tmp}/c.pcap", [one, one, two], extra=("--dot2", "none")))
    g = ssp_group(rep, 0x20)[0]["certificate_ssp"]
    check_eq("kept, other", (g["hex"], g["frames_other_ssp"]), ("01", 1))
    check_eq("frames", frames(findings(rep, "security.cert-ssp")[0]), [1, 2, 3])


def report_certificate_ssp_long_opaque_cut(tmp):
    """An opaque SSP of 40 octets: its length in full, the first 32 octets in hex and
    "..." (the report keeps 32: a bitmapSsp's 31 and more)."""
    octets = bytes(range(40))
    msg = signed(bsm(1, sec_mark(0)), certificate(ssps={0x20: ssp_opaque(octets)}))
    rep = report(mkcap(f"{tmp}/l.pcap", [msg], extra=("--dot2", "none")))
    g = ssp_group(rep, 0x20)[0]["certificate_ssp"]
    check_eq("cut", (g["octets"], g["hex"]), (40, octets[:32].hex() + "..."))
    check_eq("text", findings(rep, "security.cert-ssp")[0]["text"],
             f"certificate grants opaque SSP {octets[:32].hex()}... (40 octets) with PSID "
             "0x20; its meaning is not publicly defined: not checked")


def report_certificate_ssp_quiet(tmp):
    """A certificate granting 0x20 without SSP: the group shows type none, no
    security.cert-ssp. The real signed captures (bsm-radiotap-signed, map-radiotap-signed,
    tim-80211-signed, mixed) are quiet and show no SSP: their signers are digests, no
    certificate is in them."""
    rep = report(mkcap(f"{tmp}/q.pcap", [signed(bsm(1, sec_mark(0)), certificate())],
                       extra=("--dot2", "none")))
    check_eq("none", ssp_group(rep, 0x20)[0]["certificate_ssp"],
             {"type": "none", "octets": 0, "hex": "", "frames_other_ssp": 0})
    check_eq("quiet", findings(rep, "security.cert-ssp"), [])
    for name in ("bsm-radiotap-signed.pcap", "map-radiotap-signed.pcapng",
                 "tim-80211-signed.pcap", "mixed.pcap"):
        rep = report(capture(name))
        check_eq(name, (findings(rep, "security.cert-ssp"),
                        [g for g in rep["security"] if "certificate_ssp" in g]), ([], []))


# ---- coverage ----

RX_LAT, RX_LON = 41.1642143, -104.843412    # bsm()'s default position


def moving_away(tmp, n=100, step=850):
    """One vehicle driving north from the receiver, `step` x 1e-7 degree (9.45 m) a BSM,
    heard at -40 dBm falling 0.5 dB a BSM; from BSM 50 on, every other msgCnt is not
    heard (half the BSMs lost). Returns the capture and the plan
    [(index, msgCnt, distance_m, rssi)] of what was heard."""
    import math
    plan = [(i, i % 128, i * step * 1e-7 * math.pi / 180 * 6371000, -40 - i // 2)
            for i in range(n) if i < 50 or i % 2 == 0]
    args = [MKCAP, "-o", f"{tmp}/away.pcap", "--start", str(START), "--interval", "100",
            "--psid", "20", "--dot2", "unsecured"]
    for i, cnt, _, rssi in plan:
        args += ["--rssi", str(rssi), bsm(cnt, sec_mark(i), lat=411642143 + i * step)]
    subprocess.run(args, check=True)
    return f"{tmp}/away.pcap", plan


def report_coverage_pdr_and_rssi_against_distance(tmp):
    """--rx-pos at the vehicle's first position: 50 m bins (the farthest BSM at 936 m);
    every bin's received, expected (msgCnt: the lost BSM before each one heard beyond
    BSM 50 counts in its bin), PDR and mean RSSI as computed here from the plan; PDR 1.0
    near, 0.5 far; the sender's bins the same; the page has both plots."""
    cap, plan = moving_away(tmp)
    rep = report("--rx-pos", f"{RX_LAT},{RX_LON}", cap)
    cov = rep["coverage"]
    check_eq("bin", (cov["bin_m"], len(cov["bins"])), (50.0, 19))
    want = {}
    prev = None
    for i, cnt, dist, rssi in plan:
        b = want.setdefault(int(dist // 50), [0, 0, []])
        b[0] += 1
        b[1] += 1 if prev is None else (cnt - prev - 1) % 128 + 1
        b[2].append(rssi)
        prev = cnt
    got = {int(b["from_m"] // 50): [b["received"], b["expected"], b["rssi_mean_dbm"]]
           for b in cov["bins"] if b["received"]}
    check_eq("bins", got, {k: [v[0], v[1], round(sum(v[2]) / len(v[2]), 1)]
                           for k, v in want.items()})
    check_eq("pdr near, far", (cov["bins"][0]["pdr"], cov["bins"][-1]["pdr"]), (1.0, 0.5))
    check_eq("sender", [b["received"] for b in cov["senders"][0]["bins"]],
             [v[0] for _, v in sorted(want.items())])
    page = report("--rx-pos", f"{RX_LAT},{RX_LON}", cap, fmt="html")
    assert 'id="plot-pdr"' in page and 'id="plot-rssi"' in page


def report_coverage_only_with_rx_pos(tmp):
    """Without --rx-pos and without a MAP: coverage null and no coverage plot; a bad
    --rx-pos is a usage error."""
    cap, _ = moving_away(tmp, n=10)
    check_eq("coverage", report(cap)["coverage"], None)
    assert 'id="plot-pdr"' not in report(cap, fmt="html")
    for bad in ("41.1", "91,0", "41,-104,3", "x,y"):
        p = subprocess.run([V2XCAP, "report", "--rx-pos", bad, cap], capture_output=True)
        check_eq(bad, p.returncode, 2)


def report_coverage_receiver_from_map(tmp):
    """captures/mixed.pcap has the real MAP (intersection 12110) and no --rx-pos: the
    receiver is put at the MAP's reference point (as decoded), and the page says so;
    --rx-pos wins over the MAP."""
    ref = decoded(capture("map-radiotap-signed.pcapng"))[0]["intersections"][0]["refPoint"]
    rep = report(capture("mixed.pcap"))
    cov = rep["coverage"]
    check_eq("receiver", (cov["rx_from_map_intersection"], cov["rx_lat"], cov["rx_lon"]),
             (12110, ref["lat"] / 1e7, ref["long"] / 1e7))
    # BSMs at frames 1, 2, 7; frame 7 repeats frame 1 (msgCnt 88): counted once
    check_eq("BSMs placed", sum(b["received"] for b in cov["bins"]), 2)
    page = report(capture("mixed.pcap"), fmt="html")
    assert ("Receiver position taken from MAP intersection 12110's reference point"
            in page), "the page does not say where the receiver position comes from"
    assert 'id="plot-pdr"' in page
    given = report("--rx-pos", f"{RX_LAT},{RX_LON}", capture("mixed.pcap"))["coverage"]
    check_eq("--rx-pos wins", (given["rx_from_map_intersection"], given["rx_lat"]),
             (None, RX_LAT))


# ---- security, real captures ----

def report_mixed_capture_findings(tmp):
    """captures/mixed.pcap (see captures.list): every finding justified.
    - spat.intersection 12111: its SPaT (frame 3) has no MAP for 12111 (the MAP is 12110).
    - map.node-offset: the real MAP (frame 4) repeats a node in lanes 13, 10 and 23.
    - security.unsigned: sender :02 (BSM, unsecuredData, frame 2), :03 (PSM, frame 6), :0a:01
      PSID 0x82 (the SPaT without 1609.2, frame 3).
    - security.generation-time: the TIM vector (frame 5) is a whole signed 1609.2 message
      from jpo-ode with its own generationTime, years before mkcap's capture time.
    - tim.window: the same TIM (frame 5) was in force for 1440 min from 2018-11-08 07:00
      UTC; mkcap heard it in 2023: expired.
    - security.signature-unverified: the signed BSMs of :01 (frames 1, 7), the MAP (frame
      4, PSID 0x82) and the TIM vector (frame 5) name their signer by a digest; no
      certificate in the capture hashes to it (built without OpenSSL: one finding for all
      four saying so).
    - BSM findings: sender bea10000 (asn1_codec vector, frames 1 and 7) repeats msgCnt 88
      (both frames are the same BSM), has accuracy unavailable and size 0 (the vector's
      values), 2 BSMs 0.6 s apart (rate info); the two vectors' secMarks differ by ~26 s:
      the offset estimate (lowest age) is the jpo-ode BSM's (sender 31325433, which breaks
      nothing), so the other one is "stale". Its path history's first three points carry
      lonOffset +131071 ("0.0131071 degrees or farther"): point 1 is at least 1097 m from
      the current position, over J2945/1's 210 m spacing (bsm.path-history-spacing).
      Both vectors set BrakeAppliedStatus' "unavailable" bit (bsm.brakes, frames 1, 2, 7);
      the jpo-ode BSM (31325433, frame 2) sends semiMajor 186 and semiMinor 241: its
      error ellipse's major axis shorter than its minor one (bsm.accuracy-plausible)."""
    rep = report(capture("mixed.pcap"))
    got = {(f["requirement"], f["sender"], tuple(frames(f))) for f in findings(rep)
           if not f["requirement"].startswith("bsm.")}
    unverified = {
        ("security.signature-unverified", "02:00:00:00:00:01 psid 0x20", (1, 7)),
        ("security.signature-unverified", "02:00:00:00:0a:01 psid 0x82", (4,)),
        ("security.signature-unverified", "02:00:00:00:0a:01 psid 0x83", (5,)),
    }
    try:
        needs_verification(rep)
    except Skip:
        unverified = {("security.signature-unverified", "", (1, 4, 5, 7))}
    check_eq("non-BSM findings", got, unverified | {
        ("spat.intersection", "intersection 12111", (3,)),
        ("security.unsigned", "02:00:00:00:00:02 psid 0x20", (2,)),
        ("security.unsigned", "02:00:00:00:00:03 psid 0x27", (6,)),
        ("security.unsigned", "02:00:00:00:0a:01 psid 0x82", (3,)),
        ("security.generation-time", "02:00:00:00:0a:01 psid 0x83", (5,)),
        ("tim.window", "02:00:00:00:0a:01", (5,)),
        ("map.node-offset", "intersection 12110", (4,)),   # the MAP's own: see
        # report_map_lanes_well_formed; the jpo-ode decoder vectors' leftover octets
        ("j2735.trailing", "02:00:00:00:0a:01 SPAT", (3,)),
        ("j2735.trailing", "02:00:00:00:0a:01 MAP", (4,)),
        ("j2735.trailing", "02:00:00:00:00:03 PSM", (6,)),
    })
    bsm_got = {(f["requirement"], f["sender"], tuple(frames(f))) for f in findings(rep)
               if f["requirement"].startswith("bsm.")}
    check_eq("BSM findings", bsm_got, {
        ("bsm.msgcnt-repeat", "bea10000", (7,)), ("bsm.accuracy", "bea10000", (1, 7)),
        ("bsm.size", "bea10000", (1, 7)), ("bsm.rate", "bea10000", (1, 7)),
        ("bsm.age", "bea10000", (1, 7)), ("bsm.path-history-spacing", "bea10000", (1, 7)),
        ("bsm.brakes", "bea10000", (1, 7)), ("bsm.brakes", "31325433", (2,)),
        ("bsm.accuracy-plausible", "31325433", (2,)),
    })
    check_eq("clock offset: the jpo-ode BSM's", rep["receiver_clock_offset_ms"], -5299)


def report_bsm_128_capture_findings(tmp):
    """captures/bsm-128.pcap: asn1_codec's 128 real BSMs of two vehicles, mkcap spacing
    every frame 100 ms. Every finding justified:
    - msgCnt repeated 32 times per sender: the vector holds each BSM twice in a row
      (frames 1-2: bea10000 msgCnt 88 twice; frames 3-4: 19bb0000 msgCnt 30 twice).
    - age: the vehicles' secMark advance ~100 ms per distinct BSM while the capture
      advances 400 ms (two senders, each BSM twice): all but the first few are stale.
    - rate 5.04 Hz: 64 BSMs per sender in 12.5 s of capture time.
    - size 0, accuracy unavailable (255) and BrakeAppliedStatus "unavailable" in every
      BSM of both, heading 28800 in every BSM of 19bb0000: the vehicles' own values.
    - security.unsigned: mkcap put no 1609.2 envelope round them.
    - path history spacing in every BSM of both: the vehicles' offsets saturate at
      OffsetLL-B18's +131071 ("0.0131071 degrees or farther"), so the points lie at least
      that far away: bea10000's point 1 (lonOffset) at least 1097 m from the current
      position, 19bb0000's point 2 (latOffset) at least 1457 m from point 1 (J2945/1: 210 m
      at most). Their other path history checks stay quiet: bea10000 has 15 points (the
      most J2945/1 asks for) and 19bb0000 stands still (no distance heard driven); their
      points are 166 s and more (bea10000) or "655.34 s or more" (19bb0000) old, before the
      capture, so no heard position falls between two of them."""
    rep = report(capture("bsm-128.pcap"))
    got = {(f["requirement"], f["sender"], f["count"]) for f in findings(rep)}
    check_eq("findings", got, {
        ("bsm.msgcnt-repeat", "bea10000", 32), ("bsm.msgcnt-repeat", "19bb0000", 32),
        ("bsm.age", "bea10000", 59), ("bsm.age", "19bb0000", 60),
        ("bsm.rate", "bea10000", 2), ("bsm.rate", "19bb0000", 2),
        ("bsm.size", "bea10000", 64), ("bsm.size", "19bb0000", 64),
        ("bsm.accuracy", "bea10000", 64), ("bsm.accuracy", "19bb0000", 64),
        ("bsm.brakes", "bea10000", 64), ("bsm.brakes", "19bb0000", 64),
        ("bsm.heading", "19bb0000", 64),
        ("security.unsigned", "02:00:00:00:00:01 psid 0x20", 128),
        ("bsm.path-history-spacing", "bea10000", 64),
        ("bsm.path-history-spacing", "19bb0000", 64),
    })
    check_eq("spacing", sorted(f["text"] for f in findings(rep, "bsm.path-history-spacing")),
             ["point 1 at least 1097 m from the current position",
              "point 2 at least 1457 m from point 1"])
    f = findings(rep, "bsm.msgcnt-repeat")
    check_eq("repeat frames", sorted(frames(x)[:2] for x in f), [[2, 6], [4, 8]])
    s = {x["id"]: x for x in rep["bsm_senders"]}
    check_eq("path history", (s["bea10000"]["path_history_points_max"],
                              s["19bb0000"]["path_history_points_max"]), (15, 3))


def report_every_capture_reads(tmp):
    """Every capture in captures/ (bad/ excepted) gives a report, its JSON and GeoJSON."""
    names = sorted(n for n in os.listdir(CAPTURES) if n.endswith((".pcap", ".pcapng")))
    for n in names:
        report(os.path.join(CAPTURES, n))
        report(os.path.join(CAPTURES, n), fmt="html")
        report(os.path.join(CAPTURES, n), cmd="export")


def report_geojson_tracks_lanes_findings(tmp):
    """export --geojson: the generated sender's track (30 positions), the MAP's lanes with
    two or more nodes, findings with a position as Points."""
    p = [bsm((120 + i) % 128, sec_mark(i), lat=411642143 + 100 * i) for i in range(30)]
    cap = mkcap(f"{tmp}/track.pcap", p)
    gj = report(cap, capture("map-radiotap-signed.pcapng"), cmd="export")
    check_eq("type", gj["type"], "FeatureCollection")
    kinds = [f["properties"]["kind"] for f in gj["features"]]
    track = [f for f in gj["features"] if f["properties"]["kind"] == "track"]
    check_eq("track", (len(track), len(track[0]["geometry"]["coordinates"])), (1, 30))
    check_eq("first point", track[0]["geometry"]["coordinates"][0],
             [-104.843412, 41.1642143])
    mp = decoded(capture("map-radiotap-signed.pcapng"))[0]["intersections"][0]
    drawable = sum(1 for l in mp["laneSet"]
                   if len(l.get("nodeList", {}).get("nodes", [])) >= 2)
    check_eq("lanes", kinds.count("lane"), drawable)
    assert kinds.count("finding") >= 1, kinds


def report_long_span_stays_small(tmp):
    """Two drives five years apart (deployment logs span years): the page's plots have a
    point per bin or per second with BSMs, not one per second of the span (a row per
    second of 5.4 years was 6 GB and a 4 GB page), and the mix plot keeps at most 2048
    bins (RPT_MIX_MAX_BINS)."""
    later = START + 5 * 365 * 86400
    a = mkcap(f"{tmp}/a.pcap", clean_sender(tmp))
    b = mkcap(f"{tmp}/b.pcap", [bsm(i, sec_mark(i, start=later)) for i in range(30)],
              start=later)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    page = report(a, b, fmt="html")
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert len(page) < 1_000_000, f"page of {len(page)} octets"
    mix = re.search(r'<svg[^>]*id="plot-mix".*?</svg>', page, re.S).group(0)
    for line in re.findall(r'points="([^"]*)"', mix):
        assert len(line.split()) <= 2048, f"{len(line.split())} points in the mix plot"
    rate = re.search(r'<svg[^>]*id="plot-rate".*?</svg>', page, re.S).group(0)
    points = sum(len(line.split()) for line in re.findall(r'points="([^"]*)"', rate))
    assert points <= 20, f"{points} points in the rate plot for 6 seconds with BSMs"
    assert peak_kb < max(before, 200_000), f"peak {peak_kb} KB"
    check_eq("BSMs", report(a, b)["bsm_senders"][0]["bsms"], 60)


def report_usage_errors(tmp):
    for args in (["report"], ["report", "--format", "xml", "x"], ["export", "x"],
                 ["report", "--max-age", "0", "x"]):
        p = subprocess.run([V2XCAP, *args], capture_output=True)
        check_eq(" ".join(args), p.returncode, 2)


def main():
    case = sys.argv[1]
    fn = globals().get(case)
    if not case.startswith("report_") or not fn:
        print(f"unknown case {case}", file=sys.stderr)
        return 2
    version = subprocess.run([V2XCAP, "--version"], capture_output=True).stdout.decode()
    if "decoder: none" in version and case != "report_usage_errors":
        print("SKIP: v2xcap built without a J2735 schema: the checks read decoded fields")
        return SKIP
    try:
        with tempfile.TemporaryDirectory() as tmp:
            fn(tmp)
    except Skip as e:
        print(f"SKIP: {e}")
        return SKIP
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Statistics and priority through the public API (tests/api/api_stats.c) against v2xcap:
for every capture in CAPTURES (and bad/, c2p/), v2x_stats_json's document is
`v2xcap stats --format json`'s stdout byte for byte, every field of every view
(v2x_stats_get_totals, _get_group, _get_bsm_sender, _get_priority) is the document's
value (a double rounded as the document rounds it), and the frames v2x_priority_of
gives each kind are the messages of that kind the document lists.
  check_stats.py API_STATS V2XCAP CAPTURES"""
import glob
import json
import os
import subprocess
import sys



def fixed(v, digits):
    """A view's double as the document writes it (printf %.*f)."""
    return float(f"{v:.{digits}f}")


def range_of(r, digits=3):
    """A view's struct v2x_stats_range as the document's {min, mean, max} | null."""
    return {"min": r["min"], "mean": fixed(r["mean"], digits), "max": r["max"]} if r["n"] else None


def group_doc(g):
    """What the document says of a group of by_type .. by_sender, from its view."""
    d = {"key": g["key"], "value": g["value"] if g["has_value"] else None,
         "frames": g["frames"], "share": fixed(g["share"], 6),
         "rate_per_s": fixed(g["rate_per_s"], 6), "bytes": range_of(g["bytes"]),
         "rssi_dbm": range_of(g["rssi_dbm"]), "signed": g["signed_frames"],
         "unsigned": g["unsigned_frames"], "encrypted": g["encrypted_frames"],
         "errors": g["errors"], "trailing": g["trailing"]}
    if g["note"] is not None:
        d["note"] = g["note"]
    return d


def bsm_doc(b):
    iat = lambda v: fixed(v, 3) if b["has_iat"] else None
    return {"temporary_id": f"{b['temporary_id']:08X}", "messages": b["messages"],
            "rate_hz": fixed(b["rate_hz"], 6),
            "rate_ratio_to_10hz": fixed(b["rate_ratio_to_10hz"], 6),
            "iat_ms": {"p50": iat(b["iat_p50_ms"]), "p95": iat(b["iat_p95_ms"]),
                       "max": iat(b["iat_max_ms"])},
            "msgcnt_lost": b["msgcnt_lost"], "loss_ratio": fixed(b["loss_ratio"], 6),
            "duplicates": b["duplicates"], "age_ms": range_of(b["age_ms"]),
            "unsynchronised": b["unsynchronised"]}


def priority_doc(p):
    d = {"kind": p["kind"], "sender": p["sender"] or None, "messages": p["messages"]}
    if p["is_bsm"]:
        d["events"] = p["events_text"]
    d["frames"] = p["frames"]
    assert p["n_frames"] == len(p["frames"])
    return d


def views_differ(doc, v):
    """The fields where the views and the document disagree ([] when none)."""
    t, g, bad = v["totals"], v["groups"], []
    when = lambda us: fixed(us / 1e6, 6) if t["frames"] else None
    nw = doc["not_wsmp"]
    want = {
        "frames": doc["frames"], "bytes": doc["bytes"], "sliced": doc["sliced"],
        "malformed": doc["malformed"], "wsmp": doc["wsmp"],
        "filtered_out": doc["filtered_out"], "span_s": doc["span_s"],
        "not_wsmp": sum(nw.values()), "overflow_type": doc["overflow_type"],
        "overflow_psid": doc["overflow_psid"], "overflow_channel": doc["overflow_channel"],
        "overflow_sender": doc["overflow_sender"], "bsm_overflow": doc["bsm_overflow"],
        "bsm_unreadable": doc["bsm_unreadable"], "priority_overflow": doc["priority_overflow"],
        "n_type": len(doc["by_type"]), "n_psid": len(doc["by_psid"]),
        "n_channel": len(doc["by_channel"]), "n_sender": len(doc["by_sender"]),
        "n_encap": len(doc["by_encap"]), "n_bsm_senders": len(doc["bsm_senders"]),
        "n_priority": len(doc["priority"]), "priority_files": False,  # one file a run
    }
    want.update({f"not_wsmp_{k}": n for k, n in nw.items()})
    got = {k: t[k] for k in want}
    got["span_s"] = fixed(t["span_s"], 6)
    if got != want:
        bad.append(f"totals {got} != {want}")
    if (t["filter"], when(t["first_us"]), when(t["last_us"])) != \
            (doc["filter"], doc["first_time"], doc["last_time"]):
        bad.append(f"totals' filter or times: {t}")
    if any("note" in x for x in doc["by_type"]) and not t["j2735_edition"]:
        bad.append("notes without the edition they speak of")
    for dim in ("type", "psid", "channel", "sender"):
        if [group_doc(x) for x in g[dim]] != doc["by_" + dim]:
            bad.append(f"by_{dim}: {[group_doc(x) for x in g[dim]]} != {doc['by_' + dim]}")
        if any(x["octets"] or x["bytes"]["n"] != x["frames"] for x in g[dim]):
            bad.append(f"by_{dim}: octets, or bytes not counted once a frame")
    encaps = list(doc["encapsulation"])
    enc = [{"key": x["key"], "frames": x["frames"], "bytes": x["octets"], "errors": x["errors"]}
           for x in g["encap"]]
    if enc != doc["by_encap"] or any(
            encaps[x["value"]] != x["key"] or doc["encapsulation"][x["key"]] != x["frames"] or
            fixed(x["share"], 6) != fixed(x["frames"] / doc["frames"], 6) for x in g["encap"]):
        bad.append(f"by_encap: {g['encap']} != {doc['by_encap']}, {doc['encapsulation']}")
    if [bsm_doc(b) for b in v["bsm_senders"]] != doc["bsm_senders"]:
        bad.append(f"bsm_senders: {[bsm_doc(b) for b in v['bsm_senders']][:2]}")
    if [priority_doc(p) for p in v["priority"]] != doc["priority"]:
        bad.append(f"priority: {[priority_doc(p) for p in v['priority']][:2]}")
    return bad


api, v2xcap, captures = sys.argv[1:4]
failures = []
files = sorted(f for d in ("", "bad", "c2p") for f in glob.glob(os.path.join(captures, d, "*"))
               if os.path.isfile(f) and not f.endswith((".json", ".md", ".txt", ".py")))
prio = refused = views = 0
for f in files:
    v = subprocess.run([v2xcap, "stats", "--format", "json", f], capture_output=True,
                       timeout=300)
    a = subprocess.run([api, f], capture_output=True, timeout=300)
    want, got = v.stdout, a.stdout.splitlines(True)
    if a.returncode == 1 and not got and v.returncode != 0:
        refused += 1  # no capture: v2x_capture_open refuses it, v2xcap stats fails
        continue
    if len(got) != 3 or got[0] != want:
        failures.append(f"{f}: the API's document differs from v2xcap stats'\n  v2xcap: "
                        f"{want[:300]!r}\n  API:    {got[0][:300] if got else b'(none)'!r}")
        continue
    doc, of = json.loads(got[0]), json.loads(got[1])["priority_of"]
    failures += [f"{f}: the views differ from the document: {d}"[:600]
                 for d in views_differ(doc, json.loads(got[2])["views"])]
    views += 1
    listed = {k: sum(e["messages"] for e in doc["priority"] if e["kind"] == k) for k in of}
    if listed != of and not doc["priority_overflow"]:
        failures.append(f"{f}: v2x_priority_of {of} != the listed messages {listed}")
    prio += sum(of.values())
if not files or prio == 0 or views == 0:
    failures.append(f"{len(files)} captures, {prio} priority messages: nothing was compared")
print(f"{len(files) - refused} captures ({prio} priority messages): v2x_stats_json is "
      f"v2xcap stats' document, the views ({views} captures) its values, v2x_priority_of "
      f"the kinds it lists; {refused} files that are no capture refused by both")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)

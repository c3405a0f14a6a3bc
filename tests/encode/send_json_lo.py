#!/usr/bin/env python3
"""v2xcap send --json over the loopback: a capture's messages decoded to JSON Lines (with a
line that does not encode among them) are encoded and sent with --force on lo while
v2xcap capture records lo; the capture holds every good message, in order, with the
octets the source had and the PSID of its message type (or --psid's). Needs CAP_NET_RAW
(root): SKIP (77) without. usage: send_json_lo.py V2XCAP SOURCE_CAPTURE"""
import json
import os
import subprocess
import sys
import tempfile
import time

PSID = {"BSM": 0x20, "MAP": 0x82, "SPAT": 0x82, "SRM": 0x82, "SSM": 0x82, "TIM": 0x83,
        "RSA": 0x83, "PSM": 0x27}


def decode(v2xcap, path):
    out = subprocess.run([v2xcap, "decode", "--octets", path], capture_output=True,
                         check=True).stdout.decode()
    return [json.loads(l) for l in out.splitlines()]


def main():
    v2xcap, source = sys.argv[1:3]
    with tempfile.TemporaryDirectory(prefix="v2x-sendjson-") as tmp:
        os.chmod(tmp, 0o777)  # capture drops its privileges to write there
        lines = [l for l in decode(v2xcap, source) if "value" in l["j2735"]]
        jsonl = os.path.join(tmp, "msgs.jsonl")
        with open(jsonl, "w") as f:
            for i, l in enumerate(lines):
                f.write(json.dumps(l["j2735"]) + "\n")
                if i == 1:  # a bad line: named, skipped, the rest still sent
                    f.write('{"name": "BSM", "value": {"coreData": {}}}\n')
        probe = subprocess.run([v2xcap, "send", "-i", "lo", "--force", "--count", "1",
                                "--json", jsonl], capture_output=True)
        if probe.returncode != 0 and b"ermission" in probe.stderr:
            print("SKIP: cannot send on lo (needs root or CAP_NET_RAW):",
                  probe.stderr.decode().strip())
            return 77
        out = os.path.join(tmp, "lo.pcapng")
        cap = subprocess.Popen([v2xcap, "capture", "-i", "lo", "-w", out, "--stats",
                                "--count", str(len(lines)), "--duration", "20"],
                               stderr=subprocess.PIPE, text=True)
        seen = ""
        deadline = time.monotonic() + 10
        while "privileges:" not in seen and time.monotonic() < deadline:
            seen += cap.stderr.readline()
        send = subprocess.run([v2xcap, "send", "-i", "lo", "--force", "--rate", "200",
                               "--json", jsonl], capture_output=True, text=True)
        rest = cap.communicate(timeout=30)[1]
        print(send.stderr.strip())
        got = decode(v2xcap, out)
        ok = True
        if send.returncode != 1 or "line 3: .value.coreData: missing member" not in send.stderr:
            print("FAIL: the bad line 3 is not named, or the exit status is not 1")
            ok = False
        if [g["j2735"]["octets"] for g in got] != [l["j2735"]["octets"] for l in lines]:
            print(f"FAIL: captured {len(got)} messages, not the {len(lines)} sent "
                  f"with their octets\n{seen}{rest}")
            ok = False
        for g in got:
            name = g["j2735"].get("name")
            if g.get("wsmp", {}).get("psid") != PSID.get(name):
                print(f"FAIL: {name} sent under PSID {g.get('wsmp', {}).get('psid')}")
                ok = False
        names = sorted({g["j2735"].get("name") for g in got})
        if ok:
            print(f"ok: {len(got)} messages encoded from JSON, sent on lo and captured "
                  f"with their octets and PSIDs ({', '.join(names)})")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

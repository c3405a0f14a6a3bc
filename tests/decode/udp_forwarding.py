#!/usr/bin/python3
"""UDP forwarding, read by v2xcap and by the plugins: captures built here (mkcap).
1609.2 over UDP, found without Decode As by the J2735 plugin's heuristic and by v2xcap's
frame path (one test, libv2x's v2x_udp_dot2_start): a capture of
1. a signed BSM (PSID 0x20), 2. a signed SPaT (PSID 0x82), both to jpo-ode's port 44990;
3.-7. datagrams that start 03 (1609.2's protocolVersion) but carry no 1609.2 content tag
(80 unsecured, 81 signed, 82 encrypted), or one followed by no readable envelope, on ports
with no dissector of their own.
Frames 1-2: both read the same 1609.2 content, its PSID, the message and its values
(cross_check_tshark.py), and tshark shows the PSID and the BSM's id of the vector.
Frames 3-7: neither takes them: v2xcap says plain UDP, tshark shows UDP data.
A whole WSM over UDP (the 1609.2 examples' signed BSM, udp2.bin): v2xcap by content,
the WSMP plugin by Decode As on a port its heuristic would not reach first (47000 is
HCrt's); both agree.

usage: udp_forwarding.py MKCAP V2XCAP RUN_TSHARK PLUGIN_DIR VECTORS
Exit 0 pass, 1 fail, 77 skip (tshark, its plugins or the vectors missing)."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NOT_DOT2 = ["0347aa5512", "03007f000102030405", "0383a1b2c3d4e5f6", "0380ffffffff", "038105aa"]


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300)


def main():
    mkcap, v2xcap, run_tshark, plugins, vectors = sys.argv[1:6]
    bsm = os.path.join(vectors, "asn1_codec", "j2735.MessageFrame.Bsm.hex")
    spat = os.path.join(vectors, "jpo-ode", "decoder-output-spat.xml")
    wsm = os.path.join(vectors, "ieee1609-examples", "udp2.bin")
    if not all(os.path.exists(v) for v in (bsm, spat, wsm)):
        print("SKIP: vectors not found at %s" % vectors)
        return 77
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "dot2-udp-signed.pcap")
        p = run([mkcap, "-o", cap, "--link", "udp", "--port", "44990", "--dot2", "signed",
                 "--psid", "20", "@" + bsm, "--psid", "82", "@" + spat,
                 "--port", "5001", "--dot2", "none", *NOT_DOT2])
        if p.returncode != 0:
            print("FAIL: mkcap: %s" % p.stderr.strip())
            return 1
        # the agreement on every frame (and its SKIP when tshark or the plugins are missing)
        p = run([sys.executable, os.path.join(HERE, "cross_check_tshark.py"), v2xcap,
                 run_tshark, plugins, cap])
        print(p.stdout.strip())
        if p.returncode != 0:
            print(p.stderr.strip())
            return p.returncode
        known = run([run_tshark, plugins, "-G", "fields"]).stdout
        schema_fields = "\tj2735.BSMcoreData.id\t" in known
        psid = "ieee1609dot2.hiPsid" if "\tieee1609dot2.hiPsid\t" in known else \
            "ieee1609dot2.psid"  # headerInfo's PSID (its 4.6 name, its name before)
        # the BSM's id only where the J2735 plugin has the schema's fields (tshark refuses
        # a field it does not know)
        fields = ["frame.protocols", psid, "j2735.msgid"] + \
            (["j2735.BSMcoreData.id"] if schema_fields else [])
        argv = [run_tshark, plugins, "-r", cap, "-T", "fields", "-E", "occurrence=f"]
        for f in fields:
            argv += ["-e", f]
        p = run(argv)
        rows = [dict(zip(fields, line.split("\t"))) for line in p.stdout.splitlines()]
        dump = [line for line in run([v2xcap, "dump", cap]).stdout.splitlines()
                if line[:1].isdigit()]
        failed = []
        if len(rows) != 2 + len(NOT_DOT2) or len(dump) != len(rows):
            failed.append("frames: tshark %d, v2xcap %d, want %d" % (
                len(rows), len(dump), 2 + len(NOT_DOT2)))
        else:
            want = [("32", "20"), ("130", "19")]  # PSID 0x20 BSM, 0x82 SPaT
            for n, w in enumerate(want):
                got = (rows[n][psid], rows[n]["j2735.msgid"])
                if got != w or "udp_dot2" not in dump[n]:
                    failed.append("frame %d: tshark PSID, msgid %s, want %s; v2xcap: %s" % (
                        n + 1, got, w, dump[n]))
            # the BSM's TemporaryID as asn1_codec's XER of the vector has it (BE A1 00 00),
            # when the J2735 plugin has a schema
            bsm_id = rows[0].get("j2735.BSMcoreData.id", "").replace(":", "")
            if schema_fields and bsm_id != "bea10000":
                failed.append("frame 1: BSM id %r, want bea10000" % bsm_id)
            for n in range(2, len(rows)):
                protos = rows[n]["frame.protocols"]
                if not protos.endswith("udp:data") or " | udp" in dump[n]:
                    failed.append("frame %d (%s) taken: tshark %s; v2xcap: %s" % (
                        n + 1, NOT_DOT2[n - 2], protos, dump[n]))
        if not failed:
            print("1609.2 over UDP taken by both with its PSID and message; "
                  "%d datagrams starting 03 left alone by both" % len(NOT_DOT2))
        cap = os.path.join(d, "wsmp-udp.pcap")
        p = run([mkcap, "-o", cap, "--link", "udp", "--port", "47000", "--wsmp", "raw",
                 "@" + wsm])
        if p.returncode != 0:
            failed.append("mkcap: %s" % p.stderr.strip())
        else:
            p = run([sys.executable, os.path.join(HERE, "cross_check_tshark.py"),
                     "--decode-as", "udp.port==47000,ieee1609dot3", v2xcap, run_tshark,
                     plugins, cap])
            print(p.stdout.strip())
            if "udp_wsmp" not in run([v2xcap, "dump", cap]).stdout:
                failed.append("v2xcap did not find the WSM in UDP")
            if p.returncode != 0:
                failed.append("WSMP over UDP: v2xcap and the plugins disagree")
        for f in failed:
            print("FAIL: " + f)
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The Python module (python/v2x) over this build's libv2x.so, against v2xcap:
read() gives the lines `v2xcap decode` writes for every capture, decode() the "j2735"
object `decode --hex` writes for every vector, walk() its "value"; errors are v2x.Error
naming the cause, a bad record a RecordWarning with the frames around it kept.
  V2X_LIBRARY=libv2x.so PYTHONPATH=python test_python.py V2XCAP CAPTURES VECTORS"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest
import warnings

if os.environ.get("V2X_SANITIZE"):
    # python3 loads no ASan/UBSan-instrumented library without their runtimes preloaded
    print("SKIP: libv2x.so of a sanitizer build (V2X_SANITIZE); the plain build runs this")
    sys.exit(77)

import v2x  # noqa: E402 (after the skip: loading it is what fails there)

V2XCAP, CAPTURES, VECTORS = sys.argv[1:4]
del sys.argv[1:4]


def decode_lines(*args):
    out = subprocess.run([V2XCAP, "decode", "-j", "1", *args], capture_output=True, check=False)
    return [json.loads(l) for l in out.stdout.splitlines()]


def vectors():
    """(path, octets) of each hex vector: one message, its hex wrapped over lines."""
    for path in sorted(glob.glob(os.path.join(VECTORS, "**", "*.hex"), recursive=True)):
        with open(path) as f:
            yield path, bytes.fromhex("".join(f.read().split()))


class Module(unittest.TestCase):
    def test_version_and_edition(self):
        self.assertTrue(v2x.version().startswith("libv2x "))
        self.assertIn(v2x.edition(), (None, "2016", "2020", "2024"))

    def test_read_is_v2xcap_decode_for_every_capture(self):
        files = [f for d in ("", "bad", "c2p") for f in glob.glob(os.path.join(CAPTURES, d, "*"))
                 if os.path.isfile(f) and not f.endswith((".json", ".md", ".txt", ".py"))]
        lines = 0
        for f in sorted(files):
            with self.subTest(capture=f), warnings.catch_warnings():
                warnings.simplefilter("ignore", v2x.RecordWarning)
                try:
                    got = list(v2x.read(f))
                except v2x.Error:
                    got = []  # not a capture: v2xcap decode writes nothing either
                self.assertEqual(got, decode_lines(f))
                lines += len(got)
        self.assertGreater(lines, 100)

    def test_read_octets(self):
        f = os.path.join(CAPTURES, "mixed.pcap")
        got = list(v2x.read(f, octets=True))
        self.assertEqual(got, decode_lines("--octets", f))
        self.assertTrue(all("octets" in l["j2735"] for l in got))

    def test_decode_and_walk_every_vector(self):
        with tempfile.TemporaryDirectory() as tmp:
            for path, octets in vectors():
                with self.subTest(vector=path):
                    one = os.path.join(tmp, "v.hex")
                    with open(one, "w") as f:
                        f.write(octets.hex() + "\n")
                    want = decode_lines("--hex", one)[0]["j2735"]
                    msg = v2x.decode(octets)
                    self.assertEqual(msg, want)
                    if v2x.edition():
                        self.assertEqual(v2x.walk(octets), msg["value"])

    def test_bsm_values_of_asn1_codecs_xer(self):
        # tests/vectors/asn1_codec/j2735.MessageFrame.Bsm.xml, asn1_codec's own decode
        with open(os.path.join(VECTORS, "asn1_codec", "j2735.MessageFrame.Bsm.uper"), "rb") as f:
            msg = v2x.decode(f.read())
        self.assertEqual((msg["messageId"], msg["name"]), (20, "BSM"))
        if v2x.edition():
            core = msg["value"]["coreData"]
            self.assertEqual((core["msgCnt"], core["id"], core["secMark"], core["lat"],
                              core["long"], core["heading"]),
                             (88, "bea10000", 59299, 411642143, -1048434120, 15290))

    def test_errors_name_the_cause(self):
        with self.assertRaisesRegex(v2x.Error, "/nonexistent/x.pcap: No such file"):
            list(v2x.read("/nonexistent/x.pcap"))
        with self.assertRaisesRegex(v2x.Error, "J2735"):
            v2x.decode(b"\x00\x14\x25\x00")
        with self.assertRaises(v2x.Error):
            v2x.walk(b"")

    def test_a_bad_record_warns_and_the_rest_is_read(self):
        with open(os.path.join(CAPTURES, "bsm-128.pcap"), "rb") as f:
            data = f.read()
        with tempfile.NamedTemporaryFile(suffix=".pcap") as cut:
            cut.write(data[:-50])
            cut.flush()
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                got = list(v2x.read(cut.name))
            self.assertEqual(len(got), 127)
            self.assertEqual(len(w), 1)
            self.assertIs(w[0].category, v2x.RecordWarning)
            self.assertIn("frame 128", str(w[0].message))


unittest.main(verbosity=2)

"""The Python module (python/v2x) over this build's libv2x.so, against v2xcap:
read() gives the lines `v2xcap decode` writes for every capture, stats() the document
`v2xcap stats --format json` writes, decode() the "j2735"
object `decode --hex` writes for every vector, walk() its "value"; errors are v2x.Error
naming the cause, a bad record a RecordWarning with the frames around it kept.
  V2X_LIBRARY=libv2x.so PYTHONPATH=python V2XCAP=v2xcap V2X_CAPTURES=captures \
  V2X_VECTORS=tests/vectors pytest.sh test_python.py"""
import glob
import json
import os
import subprocess
import warnings

import pytest

import v2x

V2XCAP, CAPTURES, VECTORS = (os.environ[k] for k in ("V2XCAP", "V2X_CAPTURES", "V2X_VECTORS"))
CAPTURE_FILES = sorted(
    f for d in ("", "bad", "c2p") for f in glob.glob(os.path.join(CAPTURES, d, "*"))
    if os.path.isfile(f) and not f.endswith((".json", ".md", ".txt", ".py")))
VECTOR_FILES = sorted(glob.glob(os.path.join(VECTORS, "**", "*.hex"), recursive=True))


def decode_lines(*args):
    out = subprocess.run([V2XCAP, "decode", "-j", "1", *args], capture_output=True, check=False)
    return [json.loads(l) for l in out.stdout.splitlines()]


def test_version_and_edition():
    assert v2x.version().startswith("libv2x ")
    assert v2x.edition() in (None, "2016", "2020", "2024")


@pytest.mark.filterwarnings("ignore::v2x.RecordWarning")
@pytest.mark.parametrize("capture", CAPTURE_FILES, ids=os.path.basename)
def test_read_is_v2xcap_decode(capture):
    try:
        got = list(v2x.read(capture))
    except v2x.Error:
        got = []  # not a capture: v2xcap decode writes nothing either
    assert got == decode_lines(capture)


@pytest.mark.filterwarnings("ignore::v2x.RecordWarning")
@pytest.mark.parametrize("capture", CAPTURE_FILES, ids=os.path.basename)
def test_stats_is_v2xcap_stats(capture):
    out = subprocess.run([V2XCAP, "stats", "--format", "json", capture], capture_output=True,
                         check=False)
    try:
        got = v2x.stats(capture)
    except v2x.Error as e:  # not a capture: v2xcap stats fails on it too
        assert out.returncode != 0 and "capture" in str(e)
        return
    assert got == json.loads(out.stdout)


def test_the_captures_hold_messages():
    assert len(CAPTURE_FILES) > 10
    assert sum(len(decode_lines(f)) for f in CAPTURE_FILES) > 100


def test_read_octets():
    f = os.path.join(CAPTURES, "mixed.pcap")
    got = list(v2x.read(f, octets=True))
    assert got == decode_lines("--octets", f)
    assert all("octets" in l["j2735"] for l in got)


@pytest.mark.parametrize("vector", VECTOR_FILES, ids=lambda p: os.path.relpath(p, VECTORS))
def test_decode_and_walk(vector, tmp_path):
    # a vector: one message, its hex wrapped over lines
    with open(vector) as f:
        octets = bytes.fromhex("".join(f.read().split()))
    one = tmp_path / "v.hex"
    one.write_text(octets.hex() + "\n")
    msg = v2x.decode(octets)
    assert msg == decode_lines("--hex", str(one))[0]["j2735"]
    if v2x.edition():
        assert v2x.walk(octets) == msg["value"]


def test_bsm_values_of_asn1_codecs_xer():
    # tests/vectors/asn1_codec/j2735.MessageFrame.Bsm.xml, asn1_codec's own decode
    with open(os.path.join(VECTORS, "asn1_codec", "j2735.MessageFrame.Bsm.uper"), "rb") as f:
        msg = v2x.decode(f.read())
    assert (msg["messageId"], msg["name"]) == (20, "BSM")
    if v2x.edition():
        core = msg["value"]["coreData"]
        assert (core["msgCnt"], core["id"], core["secMark"], core["lat"], core["long"],
                core["heading"]) == (88, "bea10000", 59299, 411642143, -1048434120, 15290)


def test_errors_name_the_cause():
    with pytest.raises(v2x.Error, match="/nonexistent/x.pcap: No such file"):
        list(v2x.read("/nonexistent/x.pcap"))
    with pytest.raises(v2x.Error, match="J2735"):
        v2x.decode(b"\x00\x14\x25\x00")
    with pytest.raises(v2x.Error):
        v2x.walk(b"")


def test_a_cut_capture_warns_and_the_rest_is_read(tmp_path):
    with open(os.path.join(CAPTURES, "bsm-128.pcap"), "rb") as f:
        data = f.read()
    cut = tmp_path / "cut.pcap"
    cut.write_bytes(data[:-50])
    with pytest.warns(v2x.RecordWarning, match="frame 128") as w:
        got = list(v2x.read(str(cut)))
    assert len(got) == 127
    assert len(w) == 1

"""v2x.Capture on the loopback: what `v2xcap send --force` transmits of a capture is read
back as the dicts `v2xcap decode` writes of the file (their "wsmp", "ieee1609dot2" and
"j2735": the file, frame numbers, times and link are the loopback's), with and without
all_frames; fileno() is readable when a frame waits; breakloop() ends an idle capture
from another thread and from a signal handler; stats(), close(), errors. Every wait is
bounded. SKIP without CAP_NET_RAW.
  V2X_LIBRARY=libv2x.so PYTHONPATH=python V2XCAP=v2xcap V2X_CAPTURE=captures/mixed.pcap \
  pytest.sh test_capture.py"""
import json
import os
import select
import signal
import subprocess
import threading
import time

import pytest

import v2x

V2XCAP, CAPTURE = os.environ["V2XCAP"], os.environ["V2X_CAPTURE"]
BOUND = 30  # seconds any test waits at most: then breakloop() ends its capture


def above_the_link(line):
    return {k: v for k, v in line.items() if k in ("wsmp", "ieee1609dot2", "j2735")}


def send():
    """v2xcap send of the capture on lo, started."""
    return subprocess.Popen([V2XCAP, "send", "-i", "lo", "--force", CAPTURE, "--rate", "200"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def open_lo(**kw):
    try:
        return v2x.Capture("lo", **kw)
    except v2x.Error as e:
        if "ermission" in str(e) or "not permitted" in str(e):
            pytest.skip(f"no CAP_NET_RAW for a live capture on lo: {e}")
        raise


@pytest.fixture(params=[False, True], ids=["wsmp", "all_frames"])
def lo(request):
    with open_lo(all_frames=request.param) as cap:
        bound = threading.Timer(BOUND, cap.breakloop)
        bound.start()
        yield cap
        bound.cancel()


def test_what_send_transmits_is_read_back(lo):
    out = subprocess.run([V2XCAP, "decode", "-j", "1", CAPTURE], capture_output=True,
                         check=True)
    want = [above_the_link(json.loads(l)) for l in out.stdout.splitlines()]
    sender = send()
    got = []
    for line in lo:
        got.append(line)
        if len(got) == len(want):
            break
    assert sender.wait(timeout=BOUND) == 0, sender.stderr.read()
    assert [above_the_link(l) for l in got] == want
    assert {l["file"] for l in got} == {"lo"}
    st = lo.stats()
    assert list(st) == ["seen", "handed_out", "received", "dropped_kernel",
                        "dropped_interface"]
    assert st["seen"] >= st["handed_out"] >= len(want)
    assert st["received"] >= len(want)


def test_fileno_is_readable_when_a_frame_waits(lo):
    sender = send()
    assert select.select([lo], [], [], BOUND)[0] == [lo]
    assert next(iter(lo))["j2735"]["name"] == "BSM"
    assert sender.wait(timeout=BOUND) == 0


def test_breakloop_from_a_thread_ends_an_idle_capture(lo):
    threading.Timer(0.5, lo.breakloop).start()
    t = time.monotonic()
    assert list(lo) == []
    assert time.monotonic() - t < BOUND / 2


def test_breakloop_from_a_signal_handler_ends_an_idle_capture(lo):
    old = signal.signal(signal.SIGALRM, lambda *_: lo.breakloop())
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        t = time.monotonic()
        assert list(lo) == []
        assert time.monotonic() - t < BOUND / 2
    finally:
        signal.signal(signal.SIGALRM, old)


def test_closed_and_errors():
    cap = open_lo()
    cap.close()
    cap.close()
    cap.breakloop()
    with pytest.raises(ValueError):
        cap.fileno()
    with pytest.raises(v2x.Error, match="v2x-no-such0"):
        v2x.Capture("v2x-no-such0")

#!/usr/bin/env python3
"""The report page as a person sees it: rendered by headless Chromium (Debian `chromium`)
from a file URL with networking off: it loads without console messages, every plot has
data (an SVG mark with coordinates), the page asks for nothing from the network, and a
screenshot of the whole page is written to argv[1]. docs/report.png is one such, trimmed
and reduced to 64 colours: `convert report.png -trim +repage -bordercolor white -border 16
+dither -colors 64 docs/report.png` (ImageMagick). SKIP without chromium.
Env: V2XCAP, MKCAP, CAPTURES (as report_test.py)."""
import html.parser
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_test as rt  # noqa: E402 (the BSM encoder and mkcap wrapper)

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Plots(html.parser.HTMLParser):
    """Per <svg class="plot">: how many marks (polyline with points, circle) it holds."""
    def __init__(self):
        super().__init__()
        self.plots, self.current, self.urls = {}, None, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k, v in attrs:
            if k in ("src", "href") and v:
                self.urls.append(v)
        if tag == "svg" and a.get("class") == "plot":
            self.current = a["id"]
            self.plots[self.current] = 0
        elif self.current and tag == "polyline" and len(a.get("points", "").split()) >= 2:
            self.plots[self.current] += 1
        elif self.current and tag == "circle":
            self.plots[self.current] += 1

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current = None


def build_captures(tmp):
    """Two vehicles driving past the real MAP's intersection for 6 s (the first brakes
    hard at 4 s: event flags; the second sends at 5 Hz from 2 s to 4 s, msgCnt continuous,
    and one msgCnt jumps), an ambulance with lights and siren in use crossing them for 3 s
    (priority), the real MAP and SPaT. The second vehicle's three pieces are three files:
    mkcap spaces frames evenly."""
    lat0, lon0 = 395952649, -1050914122          # the MAP's reference point
    hard_braking = 1 << (12 - 7)
    a = [rt.bsm(i % 128, rt.sec_mark(i), tid=0x11111111, lat=lat0 + 30 * i,
                lon=lon0 - 3000 + 90 * i, events=hard_braking if i == 40 else None)
         for i in range(60)]
    amb = [rt.bsm(i, rt.sec_mark(i, start=rt.START + 1), tid=0x0E0E0E0E,
                  lat=lat0 + 2000 - 60 * i, lon=lon0 + 1500 - 20 * i,
                  alerts=(rt.IN_USE, rt.IN_USE)) for i in range(30)]
    files = [rt.mkcap(f"{tmp}/car-a.pcap", a),
             rt.mkcap(f"{tmp}/ambulance.pcap", amb, start=rt.START + 1)]
    cnt = 0
    for n, (second, interval) in enumerate(((0, 100), (2, 200), (4, 100))):
        start = rt.START + second
        frames = []
        for i in range(2000 // interval):
            t_ms = second * 1000 + i * interval
            frames.append(rt.bsm(99 if cnt == 35 else cnt, rt.sec_mark(i, interval, 0, start),
                                 tid=0x22222222, lat=lat0 - 2500 + 7 * t_ms // 10,
                                 lon=lon0 + 4 * t_ms // 10))
            cnt += 1
        files.append(rt.mkcap(f"{tmp}/car-b{n}.pcap", frames, start=start,
                              interval_ms=interval))
    return files + [rt.capture("map-radiotap-signed.pcapng"), rt.capture("spat-radiotap.pcap")]


def main():
    out_png = sys.argv[1]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: chromium not installed (Debian: apt-get install chromium)")
        return rt.SKIP
    version = subprocess.run([os.environ["V2XCAP"], "--version"], capture_output=True)
    if b"decoder: none" in version.stdout:
        print("SKIP: v2xcap built without a J2735 schema (no BSM, MAP, track to draw)")
        return rt.SKIP
    with tempfile.TemporaryDirectory() as tmp:
        try:
            files = build_captures(tmp)
        except rt.Skip as e:
            print(f"SKIP: {e}")
            return rt.SKIP
        page = f"{tmp}/report.html"
        # no --rx-pos: the receiver is put at the MAP's reference point (coverage plots)
        subprocess.run([os.environ["V2XCAP"], "report", "-o", page, *files,
                        rt.capture("mixed.pcap")], check=True)
        profile = tempfile.mkdtemp(dir=tmp)
        run = [chromium, *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr",
               "--v=0"]
        dom = subprocess.run([*run, "--dump-dom", f"file://{page}"], capture_output=True,
                             timeout=120)
        log = dom.stderr.decode("utf-8", "replace")
        console = [l for l in log.splitlines() if "CONSOLE" in l]
        assert not console, "console messages:\n" + "\n".join(console)
        p = Plots()
        p.feed(dom.stdout.decode("utf-8"))
        want = {"plot-mix", "plot-rate", "plot-age", "plot-map", "plot-pdr", "plot-rssi"}
        assert set(p.plots) == want, p.plots
        empty = [k for k, n in p.plots.items() if n == 0]
        assert not empty, f"plots without data: {empty} ({p.plots})"
        assert not p.urls, f"the page refers to {p.urls}"
        # the whole page (headless Chromium shoots the window: one taller than the page),
        # the files named as a user in their folder would
        shot = f"{tmp}/shot.html"
        for f in files:
            if os.path.dirname(f) != tmp:
                shutil.copy(f, tmp)
        subprocess.run([os.environ["V2XCAP"], "report", "-o", shot,
                        *(os.path.basename(f) for f in files)], check=True, cwd=tmp)
        profile = tempfile.mkdtemp(dir=tmp)
        subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}",
                        "--window-size=900,6000", "--hide-scrollbars",
                        f"--screenshot={out_png}", f"file://{shot}"],
                       capture_output=True, timeout=120, check=True)
        assert os.path.getsize(out_png) > 10000, "screenshot empty"
    print(f"ok: plots {p.plots}; screenshot {out_png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

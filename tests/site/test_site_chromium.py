"""The site in a real browser: headless Chromium loads the index, a player page and a
session page at a desktop and a phone width; no console errors, nothing wider than the
window except inside a scroller (the chart's frame, a wide table's frame), and the chart
opens at its right end, the latest hands.

The page is measured by a script the test adds to a copy of it (the site itself has none),
which writes what it found into the DOM that ``--dump-dom`` prints.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from site_league import Page

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

PROBE_HEAD = """<script>
window.__errors = [];
window.addEventListener('error',
                        e => window.__errors.push(String(e.message || e.type)), true);
for (const level of ['error', 'warn']) {
  const original = console[level];
  console[level] = (...args) => {
    window.__errors.push(level + ': ' + args.join(' '));
    original(...args);
  };
}
</script>"""

PROBE_BODY = """<script>
(function () {
  const width = window.innerWidth;
  function inScroller(node) {
    for (let e = node.parentElement; e; e = e.parentElement) {
      const x = getComputedStyle(e).overflowX;
      if (x === 'auto' || x === 'scroll') return true;
    }
    return false;
  }
  const wide = [];
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if ((r.right > width + 1 || r.left < -1) && !inScroller(e))
      wide.push(e.tagName + '.' + e.className + ' ' + Math.round(r.left) + '..' +
                Math.round(r.right));
  }
  const frame = document.querySelector('.chart-frame');
  let chart = null;
  if (frame) {
    const f = frame.getBoundingClientRect();
    const s = frame.querySelector('svg.plot').getBoundingClientRect();
    const y = frame.querySelector('.y-sticky').getBoundingClientRect();
    chart = {frame: [f.left, f.right], svg: [s.left, s.right], axis: [y.left, y.width],
             scrolls: frame.scrollWidth > frame.clientWidth};
  }
  const result = {width: width, scrollWidth: document.documentElement.scrollWidth,
                  wide: wide, chart: chart, errors: window.__errors};
  // Shown in the harness page (the one Chromium dumps), which holds this page in a frame.
  const target = window.parent.document;
  const out = target.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify(result);
  target.body.appendChild(out);
})();
</script>"""


def load(page: Path, width: int, height: int, tmp_path: Path) -> tuple[dict, str]:
    """Open a probed copy of ``page`` (beside it, so its links still resolve) in a frame of
    that size (headless Chromium's window is never narrower than 500px; a frame is a true
    phone width for the page's media queries); the probe's findings and Chromium's log."""
    html = page.read_text(encoding="utf-8")
    probed = page.with_name(f"probe-{width}-{page.name}")
    probed.write_text(html.replace("<head>", "<head>" + PROBE_HEAD, 1)
                      .replace("</body>", PROBE_BODY + "</body>", 1), encoding="utf-8")
    harness = page.with_name(f"harness-{width}-{page.name}")
    harness.write_text(f'<!DOCTYPE html><html><body style="margin:0"><iframe src="{probed.name}" '
                       f'style="border:0;width:{width}px;height:{height}px"></iframe></body>'
                       f'</html>', encoding="utf-8")
    try:
        result = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--hide-scrollbars", "--allow-file-access-from-files",
             f"--window-size={max(width, 800)},{height + 100}",
             "--enable-logging=stderr", "--v=0",
             f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", harness.as_uri()],
            capture_output=True, text=True, timeout=120)
    finally:
        probed.unlink()
        harness.unlink()
    assert result.returncode == 0, result.stderr[-2000:]
    dom = Page(result.stdout)
    found = "".join(dom.texts_in.get("pre", []))
    assert found, "the probe did not run: " + result.stderr[-2000:]
    probe = json.loads(found)
    assert probe["width"] == width, probe
    return probe, result.stderr


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_site_pages_in_headless_chromium(site, tmp_path, width, height):
    out, _, _ = site
    player = sorted((out / "players").glob("*.html"))[0]
    for page in (out / "index.html", player, out / "sessions" / "1.html",
                 out / "statistics.html", out / "hands" / "31.html"):
        probe, log = load(page, width, height, tmp_path)
        where = f"{page.relative_to(out)} at {width}px"
        assert probe["errors"] == [], where
        assert not [line for line in log.splitlines()
                    if "CONSOLE" in line and "probe" not in line], where
        assert probe["wide"] == [], where
        assert probe["scrollWidth"] <= probe["width"], where
        if page.name == "index.html":
            chart = probe["chart"]
            assert chart is not None
            # The chart's right end (the latest hands) is in view when the page opens.
            assert abs(chart["svg"][1] - chart["frame"][1]) <= 2, (where, chart)
            if width < 600:
                assert chart["scrolls"], where
                # ... and the y axis with it, held at the frame's left edge.
                assert chart["axis"][1] > 0 and abs(chart["axis"][0] - chart["frame"][0]) <= 2
            else:
                assert chart["axis"][1] == 0  # the plot's own axis is in view

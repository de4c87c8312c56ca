"""The site in a real browser: headless Chromium loads the index, a player page, a session
page and a hand page at a desktop and at phone widths (the test league; a league whose latest
session seats seven with long names, Hangul among them, in English and Korean; a thirty-player
standings page): no console errors, nothing wider than the window except inside a scroller (the
chart's frame, a wide table's frame, whose name column stays pinned and which shows a shadow
where it has more), every point column of a session's hands on a wide screen, and the chart
opening at its right end, every name whole, every line of its own style, a legend entry
picking its line out.

The page is measured by a script the test adds to a copy of it (the site itself has none),
which writes what it found into the harness page's DOM. One browser serves the session
(``chromium``, tests/headless.py), a tab per page."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from headless import CHROMIUM
from site_league import LEAGUE

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
  function scroller(node) {
    for (let e = node.parentElement; e; e = e.parentElement) {
      const x = getComputedStyle(e).overflowX;
      if (x === 'auto' || x === 'scroll') return e;
    }
    return null;
  }
  function box(e) {
    const r = e.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.right)];
  }
  const wide = [];
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if ((r.right > width + 1 || r.left < -1) && !scroller(e))
      wide.push(e.tagName + '.' + e.className + ' ' + Math.round(r.left) + '..' +
                Math.round(r.right));
  }
  // Each table's frame: its overflow, its cue, and whether its first column stays in view
  // (pinned) once scrolled to the far right.
  const frames = [];
  for (const f of document.querySelectorAll('.scroll')) {
    const table = f.querySelector('table');
    const entry = {table: table ? table.className : '', scrollWidth: f.scrollWidth,
                   clientWidth: f.clientWidth, shadow: getComputedStyle(f).backgroundAttachment,
                   border: getComputedStyle(f).borderTopStyle};
    const cell = f.querySelector('tbody tr > :first-child');
    if (cell && f.scrollWidth > f.clientWidth) {
      f.scrollLeft = f.scrollWidth;
      entry.pinned = Math.abs(cell.getBoundingClientRect().left
                              - f.getBoundingClientRect().left) <= 2;
      f.scrollLeft = 0;
    }
    frames.push(entry);
  }
  const frame = document.querySelector('.chart-frame');
  let chart = null;
  if (frame) {
    const inner = frame.querySelector('.chart-inner');
    const axis = frame.querySelector('.y-sticky');
    const i = inner.getBoundingClientRect();
    // every end label within the chart, none over another
    const ends = [...frame.querySelectorAll('.ends li:not(.sizer)')].map(e => {
      const r = e.getBoundingClientRect();
      return [r.left - i.left, i.right - r.right, r.top, r.bottom];
    });
    const series = [...document.querySelectorAll('.chart polyline')];
    const opacities = () => series.map(e => getComputedStyle(e).opacity);
    const before = opacities();
    const key = document.querySelector('.legend li.k1');
    key.focus();
    const picked = opacities();
    key.blur();
    chart = {frame: box(frame), inner: box(inner), svg: box(frame.querySelector('svg.plot')),
             axis: [axis.getBoundingClientRect().left, axis.getBoundingClientRect().width],
             axisBackground: getComputedStyle(axis).backgroundColor,
             scrolls: frame.scrollWidth > frame.clientWidth, ends: ends,
             styles: series.map(e => e.getAttribute('stroke') + ' ' +
                                     (e.getAttribute('stroke-dasharray') || '')),
             before: before, picked: picked};
  }
  const result = {width: width, scrollWidth: document.documentElement.scrollWidth,
                  wide: wide, frames: frames, chart: chart, errors: window.__errors};
  // Shown in the harness page (the one Chromium dumps), which holds this page in a frame.
  const target = window.parent.document;
  const out = target.createElement('pre');
  out.id = 'probe';
  out.textContent = JSON.stringify(result);
  target.body.appendChild(out);
})();
</script>"""


def load(chromium, page: Path, width: int, height: int) -> tuple[dict, str]:
    """Open a probed copy of ``page`` (beside it, so its links still resolve) in a frame of
    that size (a window at least 800px wide, as headless Chromium's is never narrower than
    500px; a frame is a true phone width for the page's media queries); the probe's findings
    and what the browser logged (its console)."""
    html = page.read_text(encoding="utf-8")
    probed = page.with_name(f"probe-{width}-{page.name}")
    probed.write_text(
        html.replace("<head>", "<head>" + PROBE_HEAD, 1).replace(
            "</body>", PROBE_BODY + "</body>", 1
        ),
        encoding="utf-8",
    )
    harness = page.with_name(f"harness-{width}-{page.name}")
    harness.write_text(
        f'<!DOCTYPE html><html><body style="margin:0"><iframe src="{probed.name}" '
        f'style="border:0;width:{width}px;height:{height}px"></iframe></body>'
        f"</html>",
        encoding="utf-8",
    )
    try:
        with chromium.open(harness.as_uri(), max(width, 800), height + 100) as tab:
            found = tab.evaluate("(document.getElementById('probe') || {}).textContent || ''")
            log = "\n".join(tab.console())
    finally:
        probed.unlink()
        harness.unlink()
    assert found, "the probe did not run: " + log[-2000:]
    probe = json.loads(found)
    assert probe["width"] == width, probe
    return probe, log


def check_page(probe: dict, log: str, where: str) -> None:
    """What every page must be in a browser: no error, nothing wider than the window but
    inside a frame that scrolls, every wide table's name column pinned."""
    assert probe["errors"] == [], where
    assert not [line for line in log.splitlines() if "CONSOLE" in line and "probe" not in line], (
        where
    )
    assert probe["wide"] == [], where
    assert probe["scrollWidth"] <= probe["width"], where
    for frame in probe["frames"]:
        assert frame["border"] == "solid", (where, frame)
        # the scroll cue: shadows fixed to the frame, covers that move with the table
        assert frame["shadow"] == "local, local, scroll, scroll", (where, frame)
        if frame["scrollWidth"] > frame["clientWidth"]:
            assert frame["pinned"], (where, frame)


def check_chart(chart: dict, width: int, where: str) -> None:
    """The chart opens at its right end; its names are whole, inside it and apart; on a
    phone its y axis stays at the frame's edge, on white; a legend entry picks a line out."""
    assert chart is not None, where
    assert abs(chart["inner"][1] - chart["frame"][1]) <= 2, (where, chart)
    for left, right, _top, _bottom in chart["ends"]:
        assert left >= -1 and right >= -1, (where, chart)
    tops = sorted((top, bottom) for _, _, top, bottom in chart["ends"])
    assert all(b[0] >= a[1] - 1 for a, b in zip(tops, tops[1:])), (where, tops)
    if width < 600:
        assert chart["scrolls"], where
        assert chart["axis"][1] > 0 and abs(chart["axis"][0] - chart["frame"][0]) <= 2
        assert chart["axisBackground"] == "rgb(255, 255, 255)", where
    else:
        assert not chart["scrolls"], where
        assert chart["axis"][1] == 0  # the plot's own axis is in view
    assert len(set(chart["styles"])) == len(chart["styles"]), where
    assert set(chart["before"]) == {"1"}, where
    assert chart["picked"][1] == "1" and set(chart["picked"][:1] + chart["picked"][2:]) == {
        "0.15"
    }, (where, chart["picked"])


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
@pytest.mark.skipif(not shutil.which("fc-list"), reason="fontconfig is not installed")
def test_the_browser_has_a_hangul_font():
    """The Korean pages are measured as a club's phone shows them, in Hangul glyphs (the
    machine has a font for Korean: fonts-noto-cjk, which .ci/run installs); without one every
    syllable is a box of another width and the widths measured are not the page's."""
    families = subprocess.run(
        ["fc-list", ":lang=ko", "family"], capture_output=True, text=True, timeout=60
    ).stdout.split()
    assert families, "no font for Korean: install fonts-noto-cjk (apt-get install fonts-noto-cjk)"


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_site_pages_in_headless_chromium(chromium, site, width, height):
    out, _, _ = site
    player = sorted((out / "players").glob("*.html"))[0]
    for page in (
        out / "index.html",
        player,
        out / "sessions" / "1.html",
        out / "statistics.html",
        out / "hands" / "31.html",
    ):
        probe, log = load(chromium, page, width, height)
        where = f"{page.relative_to(out)} at {width}px"
        check_page(probe, log, where)
        if page.name == "index.html":
            check_chart(probe["chart"], width, where)


@pytest.fixture(scope="module", params=["en", "ko"])
def wide_site(request, tmp_path_factory):
    """A league whose latest session seats seven with long names, its site in English and
    in Korean."""
    from databases import run
    from mighty_cli.site.build import build_site
    from mighty_cli.store.db import make_engine
    from site_league import make_wide_league

    folder = tmp_path_factory.mktemp("wide")
    engine = make_engine(f"sqlite:///{folder / 'league.db'}")
    make_wide_league(engine)
    out = folder / "site"
    run(engine, build_site, LEAGUE, out, timezone_name="Asia/Seoul", lang=request.param)
    engine.dispose()
    return out


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
@pytest.mark.parametrize(
    "width, height",
    [(1280, 900), (412, 915), (390, 844)],
    ids=["desktop", "phone-412", "phone-390"],
)
def test_seven_long_names_in_headless_chromium(chromium, wide_site, width, height):
    out = wide_site
    latest = max((out / "sessions").glob("*.html"), key=lambda p: int(p.stem))
    player = next(
        p
        for p in (out / "players").glob("*.html")
        if "Alexander 김-John" in p.read_text(encoding="utf-8")
    )
    for page in (out / "index.html", latest, player, out / "hands" / "1.html"):
        probe, log = load(chromium, page, width, height)
        where = f"{page.relative_to(out)} at {width}px"
        check_page(probe, log, where)
        if page.name == "index.html":
            check_chart(probe["chart"], width, where)
        if page == latest and width >= 1280:
            # a wide screen shows every player's column of the session's hands
            hands = next(f for f in probe["frames"] if f["table"] == "hands")
            assert hands["scrollWidth"] <= hands["clientWidth"], (where, hands)


@pytest.mark.chromium
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="chromium is not installed")
@pytest.mark.parametrize("width, height", [(1280, 900), (390, 844)], ids=["desktop", "phone"])
def test_thirty_players_standings_page_in_headless_chromium(
    chromium, tmp_path, monkeypatch, width, height
):
    """``standings --html`` of a tournament of thirty: thirty different lines, named in the
    legend, and the page as sound as the site's."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "render"))
    from test_html import make_page

    from mighty_cli.render.html import render_league_page

    page = tmp_path / "standings.html"
    names = tuple(f"Alexander 김-John {i}" if i % 7 == 0 else f"박서준 {i}" for i in range(30))
    page.write_text(render_league_page(make_page(names)), encoding="utf-8")
    probe, log = load(chromium, page, width, height)
    check_page(probe, log, f"standings at {width}px")
    check_chart(probe["chart"], width, f"standings at {width}px")
    assert len(probe["chart"]["styles"]) == 30

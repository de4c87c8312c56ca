"""The chart's end labels never overlap, stay near their lines and inside the plot; the
chart has axis titles; times are shown in the page's time zone."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mighty_cli.league.standings import Series
from mighty_cli.render.html import (
    LABEL_GAP,
    TimeZoneError,
    chart,
    local_time,
    spread_labels,
    time_zone,
)


@given(st.lists(st.floats(min_value=0, max_value=300, allow_nan=False), min_size=1, max_size=12))
def test_labels_never_overlap(ys):
    placed = spread_labels(ys, LABEL_GAP, 0, 300)
    ordered = sorted(placed)
    assert all(b - a >= LABEL_GAP - 0.11 for a, b in zip(ordered, ordered[1:]))
    # the labels keep the lines' order, so each stays beside its own line
    by_line = [p for _, p in sorted(zip(ys, placed), key=lambda pair: pair[0])]
    assert by_line == sorted(by_line)
    if len(ys) * LABEL_GAP <= 300:
        assert all(-0.11 <= y <= 300.11 for y in placed)


def test_labels_apart_already_stay_put():
    assert spread_labels([10, 50, 90], LABEL_GAP, 0, 300) == [10, 50, 90]


def test_close_scores_get_separate_labels():
    series = [Series(name, [0, 10, 20 + i]) for i, name in enumerate("ABCDE")]
    drawn = chart([0, 1, 2], series)
    ys = sorted(line.label_y for line in drawn.lines)
    assert all(b - a >= LABEL_GAP - 0.11 for a, b in zip(ys, ys[1:]))


@pytest.mark.parametrize("players", [10, 20, 30])
def test_every_player_has_a_line_of_its_own(players):
    series = [Series(f"P{i}", [0, i, 2 * i]) for i in range(players)]
    drawn = chart([0, 1, 2], series)
    assert len({(line.colour, line.dash) for line in drawn.lines}) == players


def test_end_labels_only_when_each_has_room():
    def drawn(players):
        return chart([0, 1, 2], [Series(f"P{i}", [0, i, i]) for i in range(players)])

    assert drawn(12).labelled and drawn(17).labelled
    assert not drawn(18).labelled  # then the legend alone names the lines
    labels = sorted(line.label_y for line in drawn(17).lines)
    assert labels[0] >= LABEL_GAP / 2 - 0.11 and labels[-1] <= 320 - LABEL_GAP / 2 + 0.11


def test_thirty_players_page_has_a_legend_and_no_end_labels():
    from test_html import Page, make_page

    from mighty_cli.render.html import render_league_page

    html = render_league_page(make_page(tuple(f"Player {i} 김" for i in range(30))))
    page = Page(html)
    assert len(page.all("polyline")) == 30
    assert len([a for a in page.all("li") if a.get("tabindex") == "0"]) == 30
    assert 'class="ends"' not in html
    styles = {(a["stroke"], a.get("stroke-dasharray")) for a in page.all("polyline")}
    assert len(styles) == 30


def test_standings_page_chart_has_axis_titles():
    from test_html import Page, make_page

    from mighty_cli.render.html import render_league_page

    page = Page(render_league_page(make_page()))
    assert {"Hand", "Cumulative score"} <= set(page.texts_in["text"])


def test_times_in_the_named_zone():
    moment = datetime(2024, 3, 5, 12, 30, tzinfo=timezone.utc)
    assert local_time(moment, time_zone("Asia/Seoul")) == "2024-03-05 21:30 KST"
    assert local_time(moment.replace(tzinfo=None), time_zone("UTC")) == "2024-03-05 12:30 UTC"


@pytest.fixture
def machine_zone(monkeypatch):
    """Sets the machine's zone (``TZ``) for a test; the process's own is back after it."""
    import time

    def set_zone(name: str) -> None:
        monkeypatch.setenv("TZ", name)
        time.tzset()

    yield set_zone
    monkeypatch.undo()
    time.tzset()


@pytest.mark.parametrize(
    "tz", ["America/New_York", ":America/New_York", "/usr/share/zoneinfo/America/New_York"]
)
def test_the_machines_zone_keeps_summer_time_apart(machine_zone, tz):
    """A machine in New York: a January evening in EST, a July one in EDT (not both in the
    offset of the day the site is built)."""
    machine_zone(tz)
    zone = time_zone(None)
    winter = local_time(datetime(2024, 1, 10, 1, 30, tzinfo=timezone.utc), zone)
    summer = local_time(datetime(2024, 7, 10, 1, 30, tzinfo=timezone.utc), zone)
    assert (winter, summer) == ("2024-01-09 20:30 EST", "2024-07-09 21:30 EDT")


def test_a_zone_the_database_does_not_name_falls_back_to_the_offset_now(machine_zone):
    machine_zone("XYZ-3")  # POSIX: three hours east of UTC, no name
    moment = datetime(2024, 3, 5, 12, 30, tzinfo=timezone.utc)
    assert local_time(moment, time_zone(None)).startswith("2024-03-05 15:30")


def test_default_zone_is_the_machines(machine_zone):
    machine_zone("Asia/Seoul")
    moment = datetime(2024, 3, 5, 12, 30, tzinfo=timezone.utc)
    assert local_time(moment, time_zone(None)).startswith("2024-03-05 21:30")


def test_unknown_zone_is_one_clear_error():
    with pytest.raises(TimeZoneError, match="time zone 'Mars/Base': unknown"):
        time_zone("Mars/Base")

"""The cumulative-score chart as plain geometry: each player's line scaled into an SVG viewBox,
a line style of its own, and where its end label goes.

A page draws it (``templates/_chart.html``): the lines in SVG, the names beside the plot in
HTML (so that the browser gives every name the room it needs, Hangul or Latin, rather than
the plot clipping it) and in a legend under it. Thirty players get thirty different lines:
ten colours, each solid, dashed and dotted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Protocol, Sequence

#: Colours for the chart's lines, distinguishable and readable on white.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22")
#: Dash patterns (SVG ``stroke-dasharray``), one per round of the palette: solid, dashed,
#: dotted; with the colours, thirty players have thirty different lines.
DASHES = ("", "7 4", "2 3")

#: The least vertical distance between two end labels, in the chart's units: 14px (a line of
#: 12px text) at the narrowest the chart is drawn (560px, on a phone).
LABEL_GAP = 18.0


class Series(Protocol):
    """A player's cumulative score after each point of the x axis (the standings' series)."""

    @property
    def name(self) -> str: ...

    @property
    def points(self) -> Sequence[int]: ...


@dataclass
class ChartLine:
    name: str
    colour: str
    points: str          # "x,y x,y ..." for an SVG polyline
    last_x: float
    last_y: float
    final: int
    label_y: float = 0.0  # where the end label goes: near last_y, never over another label
    dash: str = ""        # stroke-dasharray: "" for a solid line


@dataclass
class Chart:
    width: int
    height: int
    left: int
    top: int
    plot_width: int
    plot_height: int
    lines: list[ChartLine]
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, int]]
    zero_y: float
    #: whether the end labels fit beside the plot, each apart (else the legend alone names
    #: the lines)
    labelled: bool = True


def line_style(index: int) -> tuple[str, str]:
    """The colour and dash pattern of the chart's ``index``-th line: all different up to
    ``len(PALETTE) * len(DASHES)`` lines."""
    colour = PALETTE[index % len(PALETTE)]
    return colour, DASHES[index // len(PALETTE) % len(DASHES)]


def chart(xs: Sequence[int], series: Sequence[Series], width: int = 720,
          height: int = 320) -> Optional[Chart]:
    """Scale cumulative-score series into an SVG viewBox (None when there is nothing to draw)."""
    if len(xs) < 2 or not series:
        return None
    # Room for the tick labels, the axis titles and the leaders to the names, which stand
    # beside the plot in HTML.
    left, top, right, bottom = 52, 26, 30, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for line in series for v in line.points] + [0]
    low, high = min(values), max(values)
    if low == high:
        high = low + 1
    x_low, x_high = xs[0], xs[-1] if xs[-1] != xs[0] else xs[0] + 1

    def sx(x: float) -> float:
        return round(left + (x - x_low) / (x_high - x_low) * plot_w, 1)

    def sy(y: float) -> float:
        return round(top + (high - y) / (high - low) * plot_h, 1)

    lines = []
    for index, line in enumerate(series):
        points = " ".join(f"{sx(x)},{sy(y)}" for x, y in zip(xs, line.points))
        colour, dash = line_style(index)
        lines.append(ChartLine(line.name, colour, points, sx(xs[-1]), sy(line.points[-1]),
                               line.points[-1], dash=dash))
    # The labels stand in a column of their own beside the plot, from its top to its bottom
    # (half a label in from each edge).
    low_label, high_label = LABEL_GAP / 2, height - LABEL_GAP / 2
    for drawn, y in zip(lines, spread_labels([line.last_y for line in lines], LABEL_GAP,
                                             low_label, high_label)):
        drawn.label_y = y
    y_ticks = [(sy(v), v) for v in _ticks(low, high)]
    x_ticks = [(sx(v), v) for v in _ticks(x_low, x_high) if x_low <= v <= x_high]
    labelled = len(lines) * LABEL_GAP <= high_label - low_label + LABEL_GAP
    return Chart(width, height, left, top, plot_w, plot_h, lines, y_ticks, x_ticks, sy(0),
                 labelled)


def spread_labels(ys: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Label positions as near ``ys`` as possible with at least ``gap`` between any two, in
    the lines' order, and within ``low``..``high`` when they fit: labels that would overlap
    are pushed apart around their common centre (the least squares placement of a cluster),
    a cluster past either end is moved in, and clusters merge until none overlap."""
    if not ys:
        return []
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    fits = len(ys) * gap <= high - low + gap

    def place(first: int, count: int) -> float:
        wanted = sum(ys[order[first + k]] - k * gap for k in range(count)) / count
        if fits:  # keep the whole cluster inside the plot
            wanted = min(max(wanted, low), high - (count - 1) * gap)
        return wanted

    # Each cluster: [first index into order, count, top position]
    clusters: list[list] = []
    for position in range(len(order)):
        clusters.append([position, 1, place(position, 1)])
        while len(clusters) > 1:
            first, count, top = clusters[-2]
            _, count2, top2 = clusters[-1]
            if top + count * gap <= top2 + 1e-9:
                break
            clusters[-2:] = [[first, count + count2, place(first, count + count2)]]
    result = [0.0] * len(ys)
    for first, count, top in clusters:
        for k in range(count):
            result[order[first + k]] = top + k * gap
    return [round(y, 1) for y in result]


def _ticks(low: float, high: float, count: int = 5) -> list[int]:
    """Round tick values spanning low..high."""
    span = max(1.0, high - low)
    raw = span / count
    magnitude = 10 ** len(str(int(raw))) // 10 or 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    start = int(low // step) * step
    return [v for v in range(start, int(high) + step, step) if low <= v <= high]

"""The site tests' league (every kind of hand, a markup name, a correction, a voided hand)
and a small HTML parser to read its pages."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from databases import run

ROOT = Path(__file__).resolve().parents[2]
EVIL = "<script>alert(1)</script>"
REFEREED = ("run", "joker-call", "back-run", "no-trump", "trump-change")
LEAGUE = "화요 <리그>"


class Page(HTMLParser):
    """Tags with their attributes, and the text inside each element (datasette's habit:
    pages are parsed, never compared whole)."""

    def __init__(self, html: str):
        super().__init__()
        self.html = html
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[tuple[str, dict]] = []
        self.texts_in: dict[str, list[str]] = {}
        self.rows: list[tuple[dict, list[str]]] = []  # each <tr>: attributes, cell texts
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag == "tr":
            self.rows.append((attrs, []))
        if tag in ("td", "th") and self.rows:
            self.rows[-1][1].append("")
        if tag not in ("meta", "link", "br", "img", "input", "line", "polyline"):
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        if any(t == tag for t, _ in self.stack):
            while self.stack and self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data):
        for tag in {t for t, _ in self.stack}:
            self.texts_in.setdefault(tag, []).append(data)
        if self.rows and any(t in ("td", "th") for t, _ in self.stack):
            self.rows[-1][1][-1] += data

    def all(self, tag, **attrs):
        return [
            a
            for name, a in self.tags
            if name == tag and all(a.get(k) == v for k, v in attrs.items())
        ]

    def text(self, tag) -> str:
        return " ".join(self.texts_in.get(tag, []))

    def rows_of(self, cls: str) -> list[tuple[dict, list[str]]]:
        """The rows of the table(s) of that class."""
        html = self.html
        result = []
        for part in html.split(f'<table class="{cls}"')[1:]:
            result.extend(Page("<table" + part.split("</table>")[0] + "</table>").rows)
        return result


def make_league(engine, name: str = "화요 <리그>") -> None:
    """The test league: a season of recorded hands, refereed hands, a markup name, a
    correction and a voided hand."""
    from mighty_cli.engine.records import load_record
    from mighty_cli.store.interchange.imports import import_record
    from mighty_cli.store.ledger.corrections import amend_hand, void_hand
    from mighty_cli.store.ledger.hands import record_hand
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.sessions import start_session

    run(engine, create_league, name, "standard")
    run(engine, import_record, name, load_record(ROOT / "examples" / "season.toml"))
    for example in REFEREED:
        run(engine, import_record, name, load_record(ROOT / "examples" / f"{example}.toml"))
    run(engine, start_session, name, ["Ana", "Bo", "Cy", "Di", EVIL], day="2024-04-01")
    for declarer, taken in (("Ana", 16), (EVIL, 11), ("Bo", 20)):
        run(
            engine,
            record_hand,
            name,
            declarer=declarer,
            contract="14S",
            friend="Cy" if declarer != "Cy" else "Di",
            friend_call="SA",
            taken=taken,
            who="t",
        )
    run(engine, amend_hand, name, 36, who="t", why="miscounted", taken=15)
    run(engine, void_hand, name, 38, who="t", why="misdeal")


def read(folder: Path, url: str) -> Page:
    return Page((folder / url).read_text(encoding="utf-8"))


#: A table of seven with long names, Hangul among them: the widest session a club has.
LONG_NAMES = (
    "Alexander 김-John",
    "박서준 Benjamin-Lee",
    "Christopher Montgomery",
    "최지우",
    "Dmitri Ivanov-Kim",
    "이영희 Eleanor",
    "Eve",
)


def make_wide_league(engine, name: str = "화요 <리그>") -> None:
    """A league whose latest session seats seven with long names (two sit out each hand),
    after the refereed examples (so hand pages exist)."""
    from mighty_cli.engine.errors import MightyError
    from mighty_cli.engine.records import load_record
    from mighty_cli.store.interchange.imports import import_record
    from mighty_cli.store.ledger.hands import record_hand
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.sessions import start_session

    run(engine, create_league, name, "standard")
    for example in REFEREED:
        run(engine, import_record, name, load_record(ROOT / "examples" / f"{example}.toml"))
    run(engine, start_session, name, list(LONG_NAMES), day="2024-05-07")
    for number in range(14):
        # two of the seven sit out each hand: the first declarer and friend who play
        for declarer, friend in (
            (LONG_NAMES[(number + i) % 7], LONG_NAMES[(number + i + j) % 7])
            for i in range(7)
            for j in range(1, 7)
        ):
            try:
                run(
                    engine,
                    record_hand,
                    name,
                    declarer=declarer,
                    contract=f"{13 + number % 5}S",
                    friend=friend,
                    friend_call="SA",
                    taken=11 + (number * 7) % 10,
                    who="t",
                )
                break
            except MightyError:
                continue

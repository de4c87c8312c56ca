"""What the tablet referee's tests share: the page read as a tablet sees it (its forms, the
buttons it offers, the prompt, what the last tap said), a tablet that taps through a hand by
the page's own buttons, and the same hand typed at the terminal referee."""

from __future__ import annotations

import random
import re
import sqlite3
from dataclasses import dataclass, field
from html.parser import HTMLParser

from click.testing import CliRunner


@dataclass
class Form:
    action: str
    classes: str
    hidden: dict[str, str] = field(default_factory=dict)
    buttons: list[tuple[str, str, str]] = field(default_factory=list)  # name, value, class
    checkboxes: list[str] = field(default_factory=list)
    selects: dict[str, list[str]] = field(default_factory=dict)
    radios: dict[str, list[str]] = field(default_factory=dict)
    selected: dict[str, str] = field(default_factory=dict)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.texts: dict[str, list[str]] = {}
        self.capture: str | None = None
        self.depth = 0

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.form = Form(a.get("action", ""), a.get("class", ""))
            self.forms.append(self.form)
        elif self.form is not None and tag == "input":
            kind = a.get("type", "text")
            if kind == "hidden":
                self.form.hidden[a["name"]] = a.get("value", "")
            elif kind == "checkbox":
                self.form.checkboxes.append(a["name"])
            elif kind == "radio":
                self.form.radios.setdefault(a["name"], []).append(a.get("value", ""))
        elif self.form is not None and tag == "button" and "name" in a:
            self.form.buttons.append((a["name"], a.get("value", ""), a.get("class", "")))
        elif self.form is not None and tag == "select":
            self.select = a["name"]
            self.form.selects[self.select] = []
        elif self.form is not None and tag == "option" and self.select:
            self.form.selects[self.select].append(a.get("value", "\0"))
            if "selected" in a:
                self.form.selected[self.select] = "\0"
        if a.get("id") in ("prompt", "said") or (tag == "li" and self.capture == "said"):
            if a.get("id"):
                self.capture = a["id"]
                self.texts.setdefault(self.capture, [])
            if tag == "li" or a.get("id") == "prompt":
                self.texts[self.capture].append("")

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "p" and self.capture == "prompt":
            self.capture = None
        elif tag == "ul" and self.capture == "said":
            self.capture = None

    def handle_data(self, data):
        if (
            self.select
            and self.form is not None
            and self.form.selects[self.select]
            and self.form.selects[self.select][-1] == "\0"
        ):
            self.form.selects[self.select][-1] = data.strip()
            if self.form.selected.get(self.select) == "\0":
                self.form.selected[self.select] = data.strip()
        if self.capture and self.texts.get(self.capture):
            self.texts[self.capture][-1] += data


class Page:
    """A referee page as a tablet shows it."""

    def __init__(self, html: str, status: int = 200) -> None:
        self.html, self.status = html, status
        reader = _Reader()
        reader.feed(html)
        self.forms = reader.forms
        self.prompt = "".join(reader.texts.get("prompt", [])).strip()
        self.said = [line.strip() for line in reader.texts.get("said", [])]

    @property
    def at(self) -> str:
        return next(f.hidden["at"] for f in self.forms if "at" in f.hidden)

    def form(self, kind: str) -> Form:
        return next(f for f in self.forms if kind in f.classes.split())

    def has(self, kind: str) -> bool:
        return any(kind in f.classes.split() for f in self.forms)

    def cards(self, kind: str = "play", greyed: bool = False) -> list[str]:
        """The lines of the card buttons of a form (the playable ones, or the greyed)."""
        return [
            value
            for name, value, cls in self.form(kind).buttons
            if name == "line" and "card" in cls.split() and ("greyed" in cls) == greyed
        ]


def typed_line(fields: dict[str, str], to_move: str | None = None) -> str:
    """The line the terminal referee is typed for a tap's fields (as the server makes it)."""
    if "suit" in fields:
        said = f"{fields['number']}{fields['suit']}"
        return (
            said
            if not fields.get("bidder") or fields["bidder"] == to_move
            else f"{fields['bidder']} {said}"
        )
    line = fields.get("line", "")
    if line == "miss":
        return f"miss {fields['player']}"
    if line == "player":
        return f"player:{fields['player']}"
    if line == "discard":
        return " ".join(name[2:].split("~")[0] for name in fields if name.startswith("d_"))
    if line == "call2":
        return "+".join(name[2:] for name in fields if name.startswith("c_"))
    if line.startswith("card:"):
        return f"{line[5:]} {fields.get('holder', '')}".strip()
    return fields.get("text") or line


class Tablet:
    """A tablet at a table's referee page (a Starlette TestClient, or anything with its
    ``get``/``post``): each tap posts what a button of the page sends."""

    def __init__(self, client, table: str = "1") -> None:
        self.client, self.table = client, table
        self.page: Page | None = None
        self.lines: list[str] = []  # what the taps entered, as the terminal is typed
        self.taps = 0

    @property
    def address(self) -> str:
        return f"/tables/{self.table}/referee"

    def open(self) -> Page:
        answer = self.client.get(self.address)
        self.page = Page(answer.text, answer.status_code)
        return self.page

    def start(
        self, code: str, who: str = "Ref", seed: int | None = None, take: bool = False
    ) -> Page:
        fields = {"code": code, "who": who}
        if seed is not None:
            fields["seed"] = str(seed)
        if take:
            fields["take"] = "1"
        answer = self.client.post(self.address + "/start", data=fields, follow_redirects=True)
        self.page = Page(answer.text, answer.status_code)
        return self.page

    def tap(self, **fields: str) -> Page:
        """One tap: the fields a button of the current page sends, with the page's ``at``."""
        assert self.page is not None
        fields = {"at": self.page.at, **fields}
        line = typed_line(fields)
        answer = self.client.post(self.address, data=fields)
        self.taps += 1
        self.page = Page(answer.text, answer.status_code)
        if answer.status_code == 200:
            self.lines.append(line)
        return self.page


def play_through(
    tablet: Tablet, rng: random.Random, bids: bool = True, stop=lambda page: False
) -> Page:
    """Tap through the hand by the page's own buttons until it is stored (or ``stop``): the
    opener bids the lowest contract (else passes), the others pass; the declarer discards
    the first cards offered and calls the first friend offered; each player plays a card the
    page offers."""
    page = tablet.page
    assert page is not None
    bid = bids
    while not stop(page):
        if page.has("election"):
            form = page.form("election")
            suits = [v for n, v, c in form.buttons if n == "suit"]
            if bid and suits:
                bid = False
                number = form.selected.get("number", form.selects["number"][0])
                page = tablet.tap(number=number, suit=suits[0])
            else:
                page = tablet.tap(line="pass")
        elif page.has("elimination"):
            form = page.form("elimination")
            lines = [v for n, v, c in form.buttons if n == "line" and "greyed" not in c]
            if "holder" in form.selects:
                page = tablet.tap(
                    line=rng.choice(lines), holder=rng.choice(form.selects["holder"][1:])
                )
            else:
                page = tablet.tap(line=rng.choice(lines))
        elif page.has("exchange"):
            form = page.form("exchange")
            count = int(
                re.search(
                    r"(\d+)",
                    page.html.split('class="entry exchange"')[1].split('<p class="sub">')[1],
                ).group(1)
            )
            chosen = dict.fromkeys(form.checkboxes[:count], "1")
            page = tablet.tap(line="discard", **chosen)
        elif page.has("friend"):
            form = page.form("friend")
            calls = [v for n, v, c in form.buttons if n == "line" and v != "call2"]
            if form.checkboxes:  # two cards called at once
                page = tablet.tap(line="call2", **dict.fromkeys(form.checkboxes[:2], "1"))
            else:
                page = tablet.tap(line=calls[0])
        elif page.has("play"):
            page = tablet.tap(line=rng.choice(page.cards()))
        elif any(v == "deal" for f in page.forms for n, v, c in f.buttons):
            page = tablet.tap(line="deal")
        else:
            return page
        assert page.status == 200, (page.status, page.said, page.prompt)
        if any("saved to league" in line or "저장" in line for line in page.said):
            return page
    return page


def terminal(db: str, lines: list[str], *extra: str, league: str = "cup", table: str = "1") -> str:
    """The terminal referee of the same table typed the same lines (then quit): its output."""
    from mighty_cli.cli import cli

    args = ["referee", "--league", league, "--db", db, *extra]
    if table.startswith("s"):
        args += ["--session", table[1:]]
    else:
        args += ["--table", table]
    result = CliRunner().invoke(
        cli, args, input="\n".join([*lines, "quit"]) + "\n", catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return result.output


def stored_hands(db: str) -> list[tuple]:
    """The league's stored hands, as compared between the tablet and the terminal: every
    column that says what was played and scored (not when, nor by whom)."""
    path = db.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        hands = connection.execute(
            "SELECT number, status, voided, dealer_id, declarer_id, friend_id, deal_miss_id, "
            "contract, friend_call, taken, success, base, multiplier, doublings, run, back_run, "
            "pot_after, full, record_toml, note, eliminated_seat FROM hand ORDER BY number"
        ).fetchall()
        players = connection.execute(
            "SELECT hand.number, hand_player.* FROM hand_player JOIN hand ON hand.id = "
            "hand_player.hand_id ORDER BY hand.number, hand_player.player_id"
        ).fetchall()
    return hands + [row[:1] + row[2:] for row in players]


def live_record(db: str) -> str | None:
    path = db.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        row = connection.execute("SELECT record_toml FROM live_hand").fetchone()
    return row[0] if row else None


# --- a hand played out by the engine, tapped on the page -------------------------------------

PROPOSAL = re.compile(
    r"hand \d+: dealer (\S+), opener (\S+)(?:, sitting out [^;]+)?; "
    r"playing ([^\n(]+)"
)


def proposal(page: Page) -> tuple[str, str, list[str]]:
    """The dealer, opener and players of the hand a page begins (its first lines)."""
    found = PROPOSAL.search("\n".join(page.said))
    assert found, page.said
    dealer, opener, players = found.groups()
    return dealer, opener, [name.strip() for name in players.strip().split(",")]


def engine_lines(rules, players: list[str], dealer: str, opener: str, seed: int) -> list[str]:
    """What a referee types for a random legal hand of a real deal (not seen by the tool:
    open cards), finished (no deal miss): the election, the elimination calls with who held
    the card, the friend call, every card (the ghost's too)."""
    from mighty_cli.engine import hand as engine
    from mighty_cli.engine.cards import format_bid, format_card
    from mighty_cli.engine.hand.draft import seeded_deal

    for attempt in range(seed, seed + 300):
        rng = random.Random(attempt)
        state = engine.new_hand(
            rules, players, dealer, seeded_deal(rules, attempt, players), opener=opener
        )
        while state.phase not in ("done", "deal_miss", "redeal"):
            if state.phase == "redistribution":
                action = engine.random_redistribution(state, rng)
            else:
                actions = [
                    a
                    for a in engine.legal_actions(state)
                    if not isinstance(a, engine.DeclareDealMiss)
                ]
                action = rng.choice(actions)
            state = engine.apply(state, action)
        if state.phase == "done":
            break
    lines = []
    by_player = rules.table.eliminate_by == "player"
    for action in state.history:
        if isinstance(action, engine.BidCall):
            lines.append("pass" if action.bid is None else format_bid(action.bid).lower())
        elif isinstance(action, engine.Eliminate):
            if by_player or action.card is None:
                lines.append(action.player)
            else:
                lines.append(f"{format_card(action.card).lower()} {action.player or 'kitty'}")
        elif isinstance(action, engine.ChangeContract):
            lines.append(format_bid(action.contract).lower())
        elif isinstance(action, engine.CallFriend):
            lines.append(engine.format_friend_call(action.call))
        elif isinstance(action, engine.Play):
            lines.append(engine.format_play(action).lower())
    return lines


def tap_lines(tablet: Tablet, lines: list[str]) -> Page:
    """Tap each line by the page's own button for it (asserting the page offers it)."""
    page = tablet.page
    assert page is not None
    for line in lines:
        if page.has("election"):
            form = page.form("election")
            if line == "pass":
                page = tablet.tap(line="pass")
            else:
                number, suit = re.fullmatch(r"(\d+)(s|d|h|c|nt)", line).groups()
                assert number in form.selects["number"], (line, form.selects)
                page = tablet.tap(number=number, suit=suit)
        elif page.has("elimination"):
            card, _space, holder = line.partition(" ")
            if holder:
                page = tablet.tap(line=f"card:{card}", holder=holder)
            else:
                page = tablet.tap(line=card)
        elif page.has("contract") and re.fullmatch(r"\d+(s|d|h|c|nt)", line):
            number, suit = re.fullmatch(r"(\d+)(s|d|h|c|nt)", line).groups()
            page = tablet.tap(number=number, suit=suit)
        elif page.has("friend"):
            offered = [v for n, v, c in page.form("friend").buttons if n == "line"]
            if line.startswith("player:") and page.has("player-call"):
                page = tablet.tap(line="player", player=line[7:])
            elif "+" in line:
                page = tablet.tap(
                    line="call2", **{f"c_{card.lower()}": "1" for card in line.split("+")}
                )
            else:
                word = line.lower()
                assert word in offered or (word == "player:" + "x") or page.has("friend"), (
                    line,
                    offered,
                )
                page = tablet.tap(line=word if word in offered else line)
        elif page.has("play"):
            assert line in page.cards(), (line, page.prompt, page.cards())
            page = tablet.tap(line=line)
        else:
            raise AssertionError(f"no prompt for {line!r}: {page.prompt}")
        assert page.status == 200, (line, page.status, page.said, page.prompt)
    return page

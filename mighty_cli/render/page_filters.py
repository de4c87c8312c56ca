"""The filters the pages' templates use, each one Python call where a template loop or macro
would cost many (a site renders thousands of pages): cards as coloured faces (``SA`` ->
``♠A``), a trick's cards with its winner and point cards marked, signed scores, bids in the
cards' notation, a player's part in a hand, the friend call's words, a player's name as a link
to the player's page. Words come in the page's language, through the ``gettext`` the page's
environment passes (:func:`mighty_cli.render.html.environment`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Optional

from markupsafe import Markup

from ..engine.cards import parse_bid
from ..engine.errors import MightyError
from ..engine.translation import N_, _
from .escaping import escape
from .text import friend_call_text

if TYPE_CHECKING:
    from jinja2.runtime import Context

#: A catalog's gettext: a message in the page's language.
Translate = Callable[[str], str]


def score_html(value: Optional[int]) -> Markup:
    """A signed score in a span coloured by its sign (``–`` for none): a filter, as cheap as
    a table of thousands of hands needs."""
    if value is None:
        return Markup('<span class="pm">–</span>')
    if not isinstance(value, int):  # a number only: nothing else becomes markup
        raise TypeError(_("score: expected a whole number, not {kind}").format(
                            kind=type(value).__name__))
    if value > 0:
        return Markup(f'<span class="pos">+{value}</span>')
    if value < 0:
        return Markup(f'<span class="neg">{value}</span>')
    return Markup("<span>0</span>")


#: Answers a remembered filter keeps at most (a club's template may pass any values).
_MEMO_LIMIT = 4096
_SUIT_SYMBOLS = dict(zip("SDHC", "♠◆♥♣"))


def remembered(function):
    """``function`` remembering its answers, for arguments that are plain text or None (at most
    :data:`_MEMO_LIMIT`): a filter a site asks thousands of times of a few dozen values (a hand
    page shows some two hundred cards of fifty-odd kinds; every contract is one of some
    forty). Other arguments (a club's template passes what it likes, markup included) are
    answered afresh each time."""
    answers: dict = {}

    def kept(*args):
        for x in args:  # a loop, not all(): this runs some two hundred times a page
            if type(x) is not str and x is not None:
                return function(*args)
        answer = answers.get(args)
        if answer is None:
            answer = function(*args)
            if len(answers) < _MEMO_LIMIT:
                answers[args] = answer
        return answer

    return functools.update_wrapper(kept, function)


@remembered
def card_face(text: str) -> str:
    """A card as a page shows it: ``SA`` -> ``♠A``, ``D10`` -> ``◆10``, ``JK/H`` ->
    ``JK/♥``."""
    text = str(text)
    symbols = _SUIT_SYMBOLS
    if text[:1].upper() in symbols and not text.upper().startswith("JK"):
        text = symbols[text[0].upper()] + text[1:]
    if "/" in text:
        head, _, suit = text.partition("/")
        text = head + "/" + symbols.get(suit[:1].upper(), suit[:1]) + suit[1:]
    return text


@remembered
def card_class(text: str) -> str:
    """The colour class of a card on a page: ``red``, ``black`` or ``joker``."""
    upper = str(text).upper()
    return "red" if upper[:1] in "DH" else "joker" if upper.startswith("JK") else "black"


@remembered
def _span(card: str, extra: str = "", title: Optional[str] = None) -> str:
    """One card as the pages mark it up: its colour class, its face, who played it (once per
    kind of span: a hand page has some two hundred)."""
    return (f'<span class="{extra}{card_class(card)}"'
            + ("" if title is None else f' title="{escape(title)}"')
            + f">{escape(card_face(card))}</span>")


def card_spans(cards):
    """A list of cards as one ``<span class="cards">`` of coloured faces: what a hand page
    shows for a deal, the kitty, the discards (one Python call instead of a template loop per
    card)."""
    return Markup('<span class="cards">' + " ".join([_span(card) for card in cards])
                  + "</span>")


#: A played card's extra classes: (the trick's winning card, a point card).
_PLAY_CLASSES = {(False, False): "", (True, False): "winner ", (False, True): "point ",
                 (True, True): "winner point "}


def trick_spans(trick):
    """A trick's cards in order, each with who played it; the winning card (``winner``) and
    the point cards (``point``: a play's third item, where given) marked by class."""
    return Markup(" ".join(_played(trick)))


#: Played cards' spans as made: (card, classes, who played it) -> the span.
_PLAYED: dict = {}


def _played(trick: Any) -> list[str]:
    """A trick's plays as spans, each kind made once (a site shows a few hundred kinds
    thousands of times): a dictionary looked up here, not a remembered function called."""
    winner, classes, made = trick.winner, _PLAY_CLASSES, _PLAYED
    spans = []
    for play in trick.plays:
        who, card = play[0], play[1]
        extra = classes[bool(who) and who == winner, len(play) > 2 and bool(play[2])]
        if type(card) is not str or type(who) is not str:  # a club's values: made afresh
            spans.append(_span(card, extra, str(who)))
            continue
        key = (card, extra, who)
        span = made.get(key)
        if span is None:
            span = _span(card, extra, who)
            if len(made) < _MEMO_LIMIT:
                made[key] = span
        spans.append(span)
    return spans


def trick_rows(tricks):
    """A hand page's table of tricks, a row each: its number, who led, the cards in order
    (as :func:`trick_spans`), who won, the point cards in it (``–`` where unknown)."""
    names: dict = {}  # each player's name escaped once (ten tricks name the same five)

    def name(text: Any) -> str:
        text = text or "–"
        escaped = names.get(text)
        if escaped is None:
            escaped = names[text] = escape(text)
        return escaped

    return Markup("".join([
        f'<tr><td class="num">{_number(trick.number)}</td>'
        f'<td class="led">{name(trick.leader)}</td>'
        f'<td class="cards">{" ".join(_played(trick))}</td>'
        f'<td class="won">{name(trick.winner)}</td>'
        f'<td class="num">{_number("–" if trick.points is None else trick.points)}</td></tr>\n'
        for trick in tricks]))


def _number(value: Any) -> str:
    """A count in a page's markup: a whole number as it is (nothing in it to escape), any
    other value escaped."""
    return str(value) if type(value) is int else escape(value)


#: A player's part in a hand, as a page names it (store.models.HandPlayer.role): a filter,
#: not a macro, as a hand page names five.
ROLE_LABELS = {"declarer": N_("Declarer"), "friend": N_("Friend"),
               "opponent": N_("opposition (야당)"), "eliminated": N_("eliminated"),
               "out": N_("Sitting out")}

def role_label(role: str, gettext: Optional[Translate] = None) -> str:
    """A player's part in a hand as a page names it (``declarer`` -> ``Declarer``; ``–`` for
    a part the tool does not know)."""
    return (gettext or _)(ROLE_LABELS[role]) if role in ROLE_LABELS else "–"


#: An election's calls that are not bids, as a page names them.
CALL_WORDS = {"pass": N_("pass"), "deal-miss": N_("deal miss")}


def election_calls(election, gettext=None):
    """An election's calls in order, as a hand page tells them: each player's name and call
    (``pass``, ``deal miss``, or the bid in the cards' notation, :func:`bid_face`),
    separated by ``·``."""
    translate = gettext or _
    return Markup(" · ".join([
        f"{escape(name)} "
        f"{escape(translate(CALL_WORDS[bid]) if bid in CALL_WORDS else bid_face(bid, translate))}"
        for name, bid in election]))


#: A no-trump bid on a page (the trump's word first, as a suit's symbol is).
NO_TRUMP_BID = N_("no-trump %(number)s")


def bid_face(text: object, gettext: Optional[Translate] = None) -> str:
    """A bid or contract as a page shows it, in the notation of its cards: ``14S`` ->
    ``♠14``, ``15NT`` -> ``노기루다 15`` (``no-trump 15``) in ``gettext``'s language; what is
    not a bid comes back as it is."""
    try:
        bid = parse_bid(str(text))
    except MightyError:
        return str(text)
    if bid.trump is None:
        return (gettext or _)(NO_TRUMP_BID) % {"number": bid.number}
    return f"{_SUIT_SYMBOLS['SDHC'[bid.trump]]}{bid.number}"


#: The kinds of friend call (``store.stats.CALL_KINDS``) as the pages name them.
CALL_LABELS = {"mighty": N_("Mighty call"), "joker": N_("joker call"), "card": N_("other card"),
               "first-trick": N_("first trick (초구)"), "last-trick": N_("last trick (막구)"),
               "player": N_("named player"), "none": N_("no friend (노프렌드)")}
NOT_RECORDED = N_("not recorded")
CARD_FRIEND = N_("card friend %(card)s")
PLAYER_FRIEND = N_("player friend (너 프렌드)")


def call_label(kind: Any, gettext: Optional[Translate] = None) -> str:
    """A kind of friend call as a page names it (``joker`` -> ``joker call``)."""
    return (gettext or _)(CALL_LABELS.get(kind, NOT_RECORDED))


def friend_called(outcome: Any, gettext: Optional[Translate] = None) -> str:
    """How a hand's friend was called, as its page says it: the card for a card call
    (``card friend ♠A``; both of a two-card call, ``♠A+◆K``), else the kind of call."""
    translate = gettext or _
    call = outcome.friend_call or ""
    if call and (outcome.call_kind == "card" or "+" in call):  # two cards: both shown
        return translate(CARD_FRIEND) % {"card": friend_call_text(call, translate)}
    if outcome.call_kind == "player":
        return translate(PLAYER_FRIEND)
    return call_label(outcome.call_kind, translate)


def player_link(context: Context, name: str, root: Optional[str] = None) -> Markup:
    """A player's name linking to the player's page (relative to ``root``, by default the
    page's), or the name alone for someone the league does not list (``ids``). Each link is
    made once (a hand page links some fifteen names, of the same dozen)."""
    root = context["root"] if root is None else root
    ids, links = context["ids"], _LINKS
    key = (root, name, ids.get(name))
    try:
        return links[key]
    except (KeyError, TypeError):
        pass
    player_id = key[2]
    if player_id is None:
        link = escape(name)
    else:
        link = Markup(f'<a href="{escape(root)}{escape(context["pages"].player_url(player_id))}">'
                      f'{escape(name)}</a>')
    if len(links) < _MEMO_LIMIT:
        links[key] = link
    return link


#: Player links as made: (the page's root, the name, the player's id) -> the link.
_LINKS: dict = {}


def deal_rows(context, deal):
    """A hand page's deal, a row each: the player (linked) and the cards dealt."""
    return Markup("".join([f"<tr><th>{player_link(context, name)}</th>"
                           f"<td>{card_spans(cards)}</td></tr>\n" for name, cards in deal]))


def seat_rows(context, outcome, gettext=None):
    """A hand page's scores, a row each: the player (linked), the part played, what the
    contract and the pot moved (where the pot moved at all) and the change of score."""
    rows, pot_moved = [], outcome.pot_moved
    for seat in outcome.seats:
        moved = (f'<td class="num">{score_html(seat.points)}</td>'
                 f'<td class="num">{score_html(seat.pot)}</td>') if pot_moved else ""
        rows.append(f'<tr class="{escape(seat.role)}"><td>{player_link(context, seat.name)}'
                    f'</td><td>{escape(role_label(seat.role, gettext))}</td>{moved}'
                    f'<td class="num delta">{score_html(seat.delta)}</td></tr>\n')
    return Markup("".join(rows))

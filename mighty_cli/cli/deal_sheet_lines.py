"""``mighty round deals``' text: a duplicate round's deal sheet for a terminal (at most 100
columns), each deal's stacks seat by seat, each hand in its suits' columns as a director lays
it out (:mod:`mighty_cli.tournament.deal_sheet`); ``--html`` is ``deal_sheet.html``."""

from __future__ import annotations

import click

from ..i18n import N_, _, ngettext
from ..render.text import display_width, pad
from ..tournament.deal_sheet import COLUMN_SYMBOLS

#: The widest line the sheet prints (names are wrapped to it; a hand of 17 cards fits).
SHEET_WIDTH = 100

#: The other stacks' labels (``tournament.deal_sheet.EXTRA_PILES``).
PILE_LABELS = {"dummy": N_("dummy (은실)"), "ghost": N_("Ghost"), "kitty": N_("Kitty"),
               "undealt": N_("Aside")}


def sheet_lines(sheet) -> list[str]:
    """The deal sheet as lines: a heading, the legend, then per table size its tables (the
    players by seat) and each deal: who deals, opens and sits out, then each seat's hand and
    the other stacks in columns (♠ ♥ ◆ ♣, the jokers), the mighty marked ``*``."""
    lines = [ngettext("Deal sheet of round {number} of {league} ({ruleset}, seed {seed}): "
                      "{count} deal.",
                      "Deal sheet of round {number} of {league} ({ruleset}, seed {seed}): "
                      "{count} deals.", sheet.deals).format(
                          number=sheet.round, league=sheet.league, ruleset=sheet.ruleset,
                          seed=sheet.seed, count=sheet.deals)]
    for note in [legend(sheet)] + shape_notes(sheet.shape):
        lines += wrapped(note)
    for size in sheet.sizes:
        lines.append("")
        lines.append(ngettext("Tables of {size} player:", "Tables of {size} players:",
                              size.size).format(size=size.size))
        for table in size.tables:
            seats = ", ".join(f"{seat} {name}" for seat, name in enumerate(table.players, 1))
            lines += wrapped(_("Table {table}: {seats}").format(table=table.table, seats=seats),
                             "  ", "    ")
        for deal in size.deals:
            lines.append("")
            lines += deal_lines(sheet, deal)
    return lines


def wrapped(text: str, first: str = "", indent: str = "") -> list[str]:
    """Text wrapped at spaces to :data:`SHEET_WIDTH` terminal columns (a Hangul syllable
    takes two: click's wrapping measures so, ``mighty_cli.i18n``)."""
    return click.wrap_text(text, SHEET_WIDTH, initial_indent=first,
                           subsequent_indent=indent).splitlines()


def legend(sheet) -> str:
    """What the sheet's seats, columns and marks mean."""
    if sheet.alternate_label is None:
        marked = _("* marks the mighty ({mighty}).").format(mighty=sheet.mighty_label)
    else:
        marked = _("* marks the mighty ({mighty}; {alternate} when {suit} is trump).").format(
            mighty=sheet.mighty_label, alternate=sheet.alternate_label,
            suit=sheet.mighty_suit)
    return _("Seats count clockwise from each table's first dealer; each hand by suit, ♠ ♥ ◆ "
             "♣, high to low, then the jokers; {marked}").format(marked=marked)


def shape_notes(shape) -> list[str]:
    """What a table shape deals besides the hands and the kitty, a sentence each."""
    notes = []
    if shape.ghost:
        notes.append(_("The ghost's pile is in its dealt order, its top card first."))
    if shape.eliminated:
        notes.append(ngettext(
            "After the election the declarer eliminates {count} player: the hand and the kitty "
            "are dealt out, {each} cards to each other player and {declarer} to the declarer.",
            "After the election the declarer eliminates {count} players: their hands and the "
            "kitty are dealt out, {each} cards to each other player and {declarer} to the "
            "declarer.", shape.eliminated).format(count=shape.eliminated, each=shape.each,
                                                  declarer=shape.declarer))
    return notes


def deal_lines(sheet, deal) -> list[str]:
    """One deal: who deals, opens and sits out, then a line per stack: a hand or a kitty in
    its suits' columns, the ghost's pile in its dealt order."""
    heading = _("Deal {deal}: seat {dealer} deals, seat {opener} opens").format(
        deal=deal.number, dealer=deal.dealer, opener=deal.opener)
    if deal.sitting_out:
        heading += "; " + ngettext("seat {seats} sits out", "seats {seats} sit out",
                                   len(deal.sitting_out)).format(
                                       seats=", ".join(map(str, deal.sitting_out)))
    stacks: list[tuple[str, object]] = []  # (label, cards), None for a seat sitting out
    for seat in deal.seats:
        stacks.append((_("Seat {seat}").format(seat=seat.seat), seat.cards))
        if seat.friend_hand is not None:
            stacks.append((_("Seat {seat}'s friend hand").format(seat=seat.seat),
                           seat.friend_hand))
    stacks += [(_(PILE_LABELS[name]), cards if name != "ghost" else
                " ".join(symbol + face.text + ("*" if face.mighty else "")
                         for symbol, face in sheet.in_order(cards)))
               for name, cards in deal.piles]
    laid = {label: sheet.columns(cards) for label, cards in stacks
            if cards is not None and not isinstance(cards, str)}
    widths = [max((display_width(cell(columns[k], k)) for columns in laid.values()),
                  default=0) for k in range(len(COLUMN_SYMBOLS))]
    label_width = max(display_width(label) for label, _cards in stacks)
    lines = [heading]
    for label, cards in stacks:
        if cards is None:
            text = _("sits out")
        elif isinstance(cards, str):  # the ghost's pile, as dealt
            text = cards
        else:
            text = "  ".join(pad(cell(column, k), widths[k])
                             for k, column in enumerate(laid[label]) if widths[k]).rstrip()
        lines.append("  " + pad(label, label_width) + "  " + text)
    return lines


def cell(column, index: int) -> str:
    """A column of a laid-out hand: the suit's symbol and its ranks (``♠ A* K 10``), the
    jokers by name; empty where the hand holds none."""
    if not column:
        return ""
    faces = " ".join(face.text + ("*" if face.mighty else "") for face in column)
    return f"{COLUMN_SYMBOLS[index]} {faces}".strip()

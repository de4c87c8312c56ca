"""An evening at the table opened from what the front end asks (:class:`~.evening_options.
EveningOptions`): a new table (the players present, the ruleset, a seed or a deal file, a save
file), a saved evening record resumed (its finished hands, and its last hand where it
stopped), or a league's table (:mod:`.league_evening`). :func:`open_evening` gives the
:class:`~.evening.Evening` and the lines to show before its first prompt."""

from __future__ import annotations

from pathlib import Path

from ..engine.records import load_record, record_ruleset, replay
from ..engine.ruleset import load_ruleset
from ..engine.translation import _, ngettext
from .books import SaveFile
from .evening import Evening
from .evening_options import (
    KEPT,
    EveningOptions,
    deals_from,
    first_hand,
    one_of,
    present_players,
)
from .league_evening import RESUMED, open_league_evening
from .referee_session import deal_cards
from .table_errors import TableUsageError


def open_evening(opts: EveningOptions, who: str = "") -> tuple[Evening, list[str]]:
    """The evening the options describe, and what to show before the first prompt; ``who``
    writes a league's hands."""
    deals = deals_from(opts.deal_file) if opts.deal_file else []
    save = SaveFile(opts.save_file) if opts.save_file else None
    resume_path = Path(opts.resume) if opts.resume else None
    if save is not None and resume_path is not None and save.path == resume_path:
        save.owned = True
    if save is not None:
        save.claim()  # before anything is played
    if opts.league:
        if save is None and resume_path is not None:
            save = SaveFile(resume_path, owned=True)  # the record resumed is kept going
        return open_league_evening(opts, who, deals, save, resume_path)
    if opts.resume is not None and resume_path is None:
        raise TableUsageError(
            _("--resume without a FILE needs --league (the league's hand in progress)")
        )
    if resume_path is not None:
        return open_file(opts, resume_path, deals, save)
    rules = load_ruleset(opts.ruleset_name or "standard")
    if opts.players is None and deals and opts.deal_file is not None:
        first = load_record(opts.deal_file)
        opts.players = ",".join(
            next(h for h in first.hands if "deal" in h).get("players", first.players)
        )
    if opts.players is None:
        raise TableUsageError(
            _("name the players: --players A,B,C,D,E (six or seven take turns to sit out)")
        )
    present = present_players(opts.players, rules)
    evening = Evening(
        rules,
        opts.ruleset_name or "standard",
        present,
        first_dealer=one_of(opts.dealer, present, "--dealer"),
        seed=opts.seed,
        deals=deals,
        save=save,
        interactive=bool(opts.interactive),
    )
    lines = [
        _("{title} ({ruleset}); present {players}").format(
            title=rules.meta.title, ruleset=rules.name, players=", ".join(present)
        )
    ]
    lines += first_hand(evening, opts)
    if save is not None:  # the evening's record exists from the start: --resume finds it
        evening.write_save()
        lines.append(_(KEPT).format(path=save.path))
    return evening, lines


def open_file(
    opts: EveningOptions, path: Path, deals: list[dict], save: SaveFile | None
) -> tuple[Evening, list[str]]:
    """Resume an evening record: its finished hands, and its last hand where it stopped."""
    record = load_record(path)
    rules = record_ruleset(record)
    if opts.ruleset_name and load_ruleset(opts.ruleset_name).name != rules.name:
        raise TableUsageError(
            _("--ruleset {given}: {path} is refereed under {ruleset}").format(
                given=opts.ruleset_name, path=path, ruleset=rules.name
            )
        )
    result = replay(record, rules)
    save = save or SaveFile(path, owned=True)
    finished = [
        dict(h)
        for h, o in zip(record.hands, result.hands, strict=False)
        if o.status != "in_progress"
    ]
    for hand, outcome in zip(finished, result.hands, strict=False):
        hand.setdefault("players", list(outcome.players))
        hand.setdefault("dealer", outcome.dealer)
    evening = Evening(
        rules,
        record.ruleset,
        list(record.players),
        seed=opts.seed,
        deals=deals,
        save=save,
        interactive=bool(opts.interactive),
        finished=finished,
        ruleset_toml=record.extra.get("ruleset_toml"),
    )
    lines = [
        ngettext(
            "{title} ({ruleset}); present {players}; resumed {path} ({count} finished hand)",
            "{title} ({ruleset}); present {players}; resumed {path} ({count} finished hands)",
            len(finished),
        ).format(
            title=rules.meta.title,
            ruleset=rules.name,
            players=", ".join(record.players),
            path=path,
            count=len(finished),
        )
    ]
    last = result.hands[-1] if result.hands else None
    if last is not None and last.status == "in_progress":
        raw = record.hands[-1]
        deal = deal_cards(raw["deal"], rules) if "deal" in raw else None
        lines.append(_(RESUMED).format(number=len(finished) + 1))
        dealer = raw.get("dealer", last.dealer)
        assert dealer is not None  # (a hand in progress has its dealer)
        lines += evening.resume_hand(
            list(last.players),
            dealer,
            deal,
            last.state,
            opener=raw.get("opener"),
        )
        return evening, lines
    lines += first_hand(evening, opts)
    return evening, lines

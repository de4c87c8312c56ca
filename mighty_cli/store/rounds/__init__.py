"""Rounds: every table of a club night at once, each table a session of the ledger
(:mod:`.round_tables`: start, reseat, end; seated by :mod:`.round_seating`, read back as
:mod:`.round_layout`'s, looked up by :mod:`.round_lookups`), planned ahead
(:mod:`.planned_rounds`), a table's seating changed mid-round (:mod:`.round_seat`), substitutes (:mod:`.substitutes`), duplicate
rounds' results (:mod:`.duplicate`), the round's board and the tournament's table
(:mod:`.round_board`, :mod:`.tournament_view`). Built on :mod:`mighty_cli.store.ledger`."""

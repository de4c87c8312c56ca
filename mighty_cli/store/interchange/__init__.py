"""A league in and out of the store: hand records imported (:mod:`.imports`, written in batches
by :mod:`.import_batch` through :mod:`.bulk`, the rows' columns :mod:`.import_columns`, a
session imported twice refused by :mod:`.reimport_check`), exported as TOML, JSON or CSV
(:mod:`.exports`, with :mod:`.export_chunks` and :mod:`.export_text`) and read back
(:mod:`.formats`); backups and restores of every table (:mod:`.backup`, what a restore checks
in :mod:`.restore_rows` and :mod:`.restore_checks`, with :mod:`.restore_hand_checks` and
:mod:`.restore_findings`). Built on :mod:`mighty_cli.store.ledger`; importing needs nothing of
exporting."""

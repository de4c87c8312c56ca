"""The league's ledger: players and leagues (:mod:`.lookups`, :mod:`.leagues`), sessions and who
sits where (:mod:`.sessions`, :mod:`.open_tables`, :mod:`.table_hands`), hands recorded and
entered (:mod:`.hands`, :mod:`.table_entry`, a duplicate round's deal checked by
:mod:`.duplicate_deals`), corrected (:mod:`.corrections`) and counted (:mod:`.totals`,
:mod:`.queries`, :mod:`.stats`). Each operation works inside the caller's transaction; import it
from the module that defines it."""

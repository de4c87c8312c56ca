"""The bounds every input stays within, in one place: files, formulas and stored points.

Clubs share rulesets and hand records, so every file is untrusted input. These limits are far
above anything a real club writes, and each one turns a file that would exhaust memory, the
stack or the CPU into one clear error. docs/site-and-backups.md ("Limits") lists them for users.
"""

#: The most points one player can win or lose in one hand (declarer, friend or opponent, after
#: doublings, scale and shares). The same on SQLite and PostgreSQL: a ruleset whose scores could
#: leave this range fails ``mighty ruleset check``, and nothing outside it is ever stored.
POINTS_LIMIT = 1_000_000_000

#: A custom scoring formula: characters, tokens and nesting of parentheses and calls.
FORMULA_MAX_LENGTH = 1_000
FORMULA_MAX_TOKENS = 200
FORMULA_MAX_DEPTH = 32
#: Every number a formula meets, literal or intermediate, stays within this magnitude, and a
#: fraction's denominator too, so arithmetic stays cheap whatever the formula says.
FORMULA_VALUE_LIMIT = 10**12

#: File sizes, checked before parsing (``/dev/zero`` is a file too).
RULESET_MAX_BYTES = 1 << 20  # 1 MiB: the standard ruleset is about 20 kB
RECORD_LINE_MAX_BYTES = 1 << 20  # one line of a streamed record (an export's lines are short)
RECORD_MAX_BYTES = 64 << 20  # 64 MiB: a 100,000-hand season is about 20 MB
RECORD_BLOCK_MAX_BYTES = 16 << 20  # one hand of a streamed record (or its header): a few kB
#: A club's template file, and a page any template renders (a 100,000-hand standings page is
#: about 3 MB): beyond them the page stops with one line and nothing is written.
TEMPLATE_MAX_BYTES = 1 << 20
PAGE_MAX_CHARACTERS = 64 << 20
#: Tables and arrays nested deeper than this in a ruleset or a record are refused.
TOML_MAX_DEPTH = 12

#: A seed (``round start``/``round reseat --seed``, a duplicate round's deals, ``referee
#: --seed``, ``deal``, ``simulate``): a whole number of at most 39 digits, so that with its sign
#: it fits the 40 characters a league stores it in, the same on SQLite and PostgreSQL; a larger
#: one is a usage error at the option, and a restore refuses one.
SEED_MAX_DIGITS = 39
SEED_LIMIT = 10**SEED_MAX_DIGITS - 1

#: The deals a duplicate round's deal sheet lays out (``round deals --deals N``; by default
#: the ruleset's session.hands_per_session, else a score slip's lines, at most this): a club's
#: night plays some ten to thirty.
DEAL_SHEET_MAX_DEALS = 100

"""Loading rulesets: bundled files, ``extends`` chains and origins, validation, formulas."""

from __future__ import annotations

import builtins
import re
from fractions import Fraction

import pytest
import tomli_w

from mighty_cli.engine.errors import RulesetError
from mighty_cli.engine.ruleset import (
    ALIASES,
    BUNDLED_NAMES,
    Ruleset,
    bundled_dir,
    bundled_names,
    diff_rulesets,
    iter_options,
    load_ruleset,
    load_ruleset_with_origins,
    option_docs,
    ruleset_from_toml,
)
from mighty_cli.engine.ruleset.formulas import compile_expression

CLUB_RULESETS = [name for name in BUNDLED_NAMES if name != "standard"]


def write(folder, name: str, text: str):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(text: str, label: str = "club.toml") -> str:
    """The one-line message a ruleset text is rejected with."""
    with pytest.raises(RulesetError) as caught:
        ruleset_from_toml(text, label=label)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{label}: ")
    return message


# --- the bundled rulesets ------------------------------------------------------------------


def test_every_bundled_ruleset_is_shipped():
    assert bundled_names()[: len(BUNDLED_NAMES)] == list(BUNDLED_NAMES)


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_bundled_ruleset_loads(name):
    rules = load_ruleset(name)
    assert rules.name == name
    assert rules.meta.title and rules.meta.description and rules.meta.source


@pytest.mark.parametrize("name", CLUB_RULESETS)
def test_club_ruleset_extends_standard(name):
    loaded = load_ruleset_with_origins(name)
    assert loaded.chain == (f"{name}.toml", "standard.toml")


@pytest.mark.parametrize("name", CLUB_RULESETS)
def test_club_title_has_the_korean_or_japanese_name(name):
    title = load_ruleset(name).meta.title
    assert re.search(r"[\uac00-\ud7a3\u3040-\u30ff]", title), title


@pytest.mark.parametrize("name", CLUB_RULESETS)
def test_club_ruleset_sets_only_what_differs_from_standard(name):
    loaded = load_ruleset_with_origins(name)
    standard = load_ruleset("standard").to_dict()
    own = loaded.ruleset.to_dict()
    for key, origin in loaded.origins.items():
        if origin != f"{name}.toml" or key.startswith("meta."):
            continue
        mine, theirs = own, standard
        for part in key.split("."):
            mine, theirs = mine[part], theirs[part]
        assert mine != theirs, f"{name}.toml sets {key} to the standard value {mine!r}"


@pytest.mark.parametrize("name", CLUB_RULESETS)
def test_every_option_a_club_sets_cites_its_source(name):
    """Each option line has a comment above it (past other option lines) naming a seed."""
    lines = (bundled_dir("rulesets") / f"{name}.toml").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# "), "a ruleset file starts with a header comment"
    table = ""
    for number, line in enumerate(lines):
        if line.startswith("["):
            table = line
            continue
        if not re.match(r"^[a-z_0-9]+ = ", line) or table in ("", "[meta]"):
            continue
        above = number - 1
        while above >= 0 and re.match(r"^[a-z_0-9]+ = ", lines[above]):
            above -= 1
        comments = []
        while above >= 0 and lines[above].startswith("#"):
            comments.append(lines[above])
            above -= 1
        assert any(re.search(r"\b00[0-3]\b", c) for c in comments), (
            f"{name}.toml line {number + 1} ({line}) has no source comment"
        )


@pytest.mark.parametrize(
    "alias, name",
    [
        ("서울과고", "seoul-science"),
        ("SKKU", "sungkyunkwan"),
        ("002", "simple"),
        ("default", "standard"),
        ("민사", "minsa"),
    ],
)
def test_aliases_find_the_bundled_ruleset(alias, name):
    assert ALIASES[alias.lower() if alias.isascii() else alias] == name
    assert load_ruleset(alias).name == name


def test_unknown_ruleset_name_lists_the_bundled_ones():
    with pytest.raises(RulesetError, match=r"unknown ruleset 'nowhere': expected one of standard,"):
        load_ruleset("nowhere")


def test_missing_ruleset_file():
    with pytest.raises(RulesetError, match=r"ruleset file 'no/such.toml' not found"):
        load_ruleset("no/such.toml")


@pytest.mark.parametrize("name", BUNDLED_NAMES)
def test_ruleset_survives_a_toml_round_trip(name):
    """An embedded ruleset (league, record) written out as plain TOML loads back the same."""
    rules = load_ruleset(name)
    again = ruleset_from_toml(tomli_w.dumps(rules.to_dict()), label="embedded").ruleset
    assert again == rules


def test_option_docs_cover_every_option():
    docs = option_docs()
    assert set(docs) == {key for key, _ in iter_options()}
    assert all(entry["doc"] for entry in docs.values())
    assert docs["election.opener"]["choices"]


def test_standard_file_lists_every_option_with_its_default():
    loaded = load_ruleset_with_origins("standard")
    assert loaded.chain == ("standard.toml",)
    assert diff_rulesets(loaded.ruleset, Ruleset()) == []
    assert {k for k, origin in loaded.origins.items() if origin == "standard.toml"} == {
        key for key, _ in iter_options()
    }


# --- extends chains and origins ------------------------------------------------------------


def test_extends_chain_records_where_each_option_was_set(tmp_path):
    write(tmp_path, "parent.toml", 'extends = "seoul-science"\n[election]\nmax_bid = 0\n')
    child = write(
        tmp_path,
        "child.toml",
        'extends = "parent.toml"\n[meta]\ntitle = "Our club"\n[scoring]\nformula = "over_ten"\n',
    )
    loaded = load_ruleset_with_origins(child)
    assert loaded.chain == ("child.toml", "parent.toml", "seoul-science.toml", "standard.toml")
    rules = loaded.ruleset
    assert (rules.election.min_bid, rules.election.max_bid, rules.scoring.formula) == (
        14,
        0,
        "over_ten",
    )
    assert loaded.origins["scoring.formula"] == "child.toml"
    assert loaded.origins["election.max_bid"] == "parent.toml"
    assert loaded.origins["election.min_bid"] == "seoul-science.toml"
    assert loaded.origins["election.opener_may_pass"] == "standard.toml"


def test_meta_is_never_inherited(tmp_path):
    child = write(tmp_path, "our-club.toml", 'extends = "sinchon"\n')
    rules = load_ruleset(child)
    assert rules.name == "our-club"
    assert rules.meta.title == "our-club"
    assert rules.meta.source == ""
    assert rules.election.min_bid == 14


def test_a_file_without_extends_extends_standard(tmp_path):
    loaded = load_ruleset_with_origins(write(tmp_path, "bare.toml", "[election]\nmin_bid = 12\n"))
    assert loaded.chain == ("bare.toml", "standard.toml")
    assert loaded.ruleset.election.min_bid == 12


def test_embedded_ruleset_may_extend_a_bundled_one():
    loaded = ruleset_from_toml('extends = "gwangju"\n[scoring]\ncap = 50\n', label="league")
    assert loaded.chain == ("league", "gwangju.toml", "standard.toml")
    assert loaded.ruleset.point_card_total == 21
    assert loaded.origins["scoring.cap"] == "league"


def test_extends_cycle_is_an_error(tmp_path):
    write(tmp_path, "a.toml", 'extends = "b.toml"\n')
    write(tmp_path, "b.toml", 'extends = "a.toml"\n')
    with pytest.raises(
        RulesetError,
        match=r"^b\.toml: extends: 'a\.toml' extends this file again "
        r"\(a cycle\)$",
    ):
        load_ruleset(tmp_path / "a.toml")


def test_a_file_that_extends_itself_is_a_cycle(tmp_path):
    with pytest.raises(RulesetError, match="a cycle"):
        load_ruleset(write(tmp_path, "self.toml", 'extends = "self.toml"\n'))


def test_error_in_a_parent_names_the_parent_file(tmp_path):
    write(tmp_path, "parent.toml", "[election]\nmin_bid = 99\n")
    child = write(tmp_path, "child.toml", 'extends = "parent.toml"\n')
    with pytest.raises(RulesetError, match=r"^parent\.toml: election\.min_bid = 99"):
        load_ruleset(child)


def test_extends_an_unknown_ruleset_names_the_file_and_the_key():
    message = load_error('extends = "nosuch"\n')
    assert message.startswith("club.toml: extends = 'nosuch': unknown ruleset 'nosuch'")


def test_extends_must_be_a_string():
    assert load_error("extends = 3\n") == (
        "club.toml: extends: expected a ruleset name or path (a string)"
    )


def test_changed_file_is_reloaded(tmp_path):
    path = write(tmp_path, "club.toml", "[election]\nmin_bid = 12\n")
    assert load_ruleset(path).election.min_bid == 12
    path.write_text("[election]\nmin_bid = 14\n", encoding="utf-8")
    import os

    os.utime(path, (1, 1))  # a different mtime, whatever the file system's resolution
    assert load_ruleset(path).election.min_bid == 14


# --- validation ----------------------------------------------------------------------------


def test_unknown_key_names_the_key_and_the_known_ones():
    message = load_error("[election]\nminimum = 3\n")
    assert message.startswith(
        "club.toml: unknown key 'election.minimum' (expected one of: min_bid, max_bid,"
    )


def test_unknown_table():
    assert "unknown key 'elections'" in load_error("[elections]\nmin_bid = 13\n")


def test_table_given_as_a_value():
    assert load_error("election = 3\n") == "club.toml: election: expected a table [election]"


@pytest.mark.parametrize(
    "text, expected",
    [
        ('[election]\nmin_bid = "13"\n', "election.min_bid = '13': expected a whole number"),
        ("[election]\nmin_bid = 13.0\n", "election.min_bid = 13.0: expected a whole number"),
        ("[election]\nmin_bid = true\n", "election.min_bid = True: expected a whole number"),
        (
            "[election]\nopener_may_pass = 1\n",
            "election.opener_may_pass = 1: expected true or false",
        ),
        ('[deal_miss]\nthreshold = "half"\n', "deal_miss.threshold = 'half': expected a number"),
        ("[meta]\ntitle = 3\n", "meta.title = 3: expected a string"),
        ("[cards]\nmighty = 14\n", 'cards.mighty = 14: expected a card such as "SA" or "C3"'),
    ],
)
def test_wrong_type(text, expected):
    assert load_error(text) == f"club.toml: {expected}"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[election]\nmin_bid = 0\n", "election.min_bid = 0: expected a value from 1 to 40"),
        ("[scoring.run]\nfactor = 0\n", "scoring.run.factor = 0: expected a value from 1 to 16"),
        (
            "[scoring.back_run]\nthreshold = 50\n",
            'scoring.back_run.threshold = 50: expected a number of point cards from 1 to 42, or "bid"',
        ),
    ],
)
def test_value_out_of_range(text, expected):
    assert load_error(text) == f"club.toml: {expected}"


def test_min_bid_above_max_bid():
    assert load_error("[election]\nmin_bid = 18\nmax_bid = 16\n") == (
        "club.toml: election.min_bid = 18 is above election.max_bid = 16: the minimum bid cannot "
        "exceed the maximum"
    )


def test_min_bid_above_max_bid_is_checked_after_merging():
    # min_bid = 14 comes from seoul-science, max_bid from this file
    assert load_error('extends = "seoul-science"\n[election]\nmax_bid = 13\n') == (
        "club.toml: election.min_bid = 14 is above election.max_bid = 13: the minimum bid cannot "
        "exceed the maximum"
    )


# C11 exists now (서울과고's rank 11), refused as not in a 53-card deck: test_rank_eleven.py
@pytest.mark.parametrize("card", ["C1", "C12", "S0", "X3", "C 3"])
def test_joker_call_card_must_exist(card):
    message = load_error(f'[cards]\njoker_call = "{card}"\n')
    assert message == (
        f"club.toml: cards.joker_call = {card!r}: expected a card that exists "
        f"(a suit S D H C and a rank 2-10 J Q K A)"
    )


def test_joker_call_card_cannot_be_the_joker():
    assert load_error('[cards]\njoker_call = "JK"\n') == (
        'club.toml: cards.joker_call = "JK": the joker-call card must be a suited card'
    )


def test_joker_call_card_cannot_be_mighty():
    assert load_error('[cards]\njoker_call_alternate = "DA"\n') == (
        "club.toml: cards.joker_call_alternate = 'DA' is also a Mighty card"
    )


@pytest.mark.parametrize("key", ["mighty", "mighty_alternate"])
def test_mighty_cannot_be_the_joker(key):
    assert load_error(f'[cards]\n{key} = "JK"\n') == (
        f'club.toml: cards.{key} = "JK": the joker cannot be Mighty'
    )


def test_card_options_are_stored_in_canonical_notation():
    rules = ruleset_from_toml('[cards]\njoker_call = "♣2"\njoker_call_alternate = "h2"\n').ruleset
    assert (rules.cards.joker_call, rules.cards.joker_call_alternate) == ("C2", "H2")


def test_bad_choice_lists_the_choices():
    assert load_error('[election]\nopener = "youngest"\n') == (
        "club.toml: election.opener = 'youngest': expected one of 'dealer', 'previous_declarer', "
        "'previous_declarer_if_made_else_friend', 'after_dealer'"
    )


def test_session_may_keep_the_same_dealer():
    rules = ruleset_from_toml('[session]\nnext_dealer = "same"\n').ruleset
    assert rules.session.next_dealer == "same"


@pytest.mark.parametrize(
    "value", ['["S", "D", "H"]', '["S", "S", "H", "C"]', '["S", "D", "H", "X"]', '"SDHC"']
)
def test_suit_order_needs_each_suit_once(value):
    assert "election.suit_order" in load_error(f"[election]\nsuit_order = {value}\n")


def test_rank_weights_only_for_point_ranks():
    assert "expected a table of weights for the ranks A, K, Q, J, 10" in load_error(
        "[deal_miss]\nrank_weights = { A = 1.0, 9 = 1.0 }\n"
    )


def test_card_weights_keys_must_be_cards():
    assert "deal_miss.card_weights" in load_error("[deal_miss]\ncard_weights = { S1 = 1.0 }\n")


def test_card_weights_accept_notation():
    rules = ruleset_from_toml('[deal_miss]\ncard_weights = { sj = 1.0, "♥J" = 1.0 }\n').ruleset
    assert rules.to_dict()["deal_miss"]["card_weights"] == {"SJ": 1.0, "HJ": 1.0}


def test_custom_formula_needs_both_halves():
    assert load_error('[scoring]\nformula = "custom"\nsuccess = "taken - 10"\n') == (
        'club.toml: scoring.formula = "custom" needs both scoring.success and scoring.failure '
        "expressions"
    )


def test_expressions_only_with_the_custom_formula():
    assert 'used only with scoring.formula = "custom"' in load_error(
        '[scoring]\nsuccess = "taken - 10"\nfailure = "bid - taken"\n'
    )


@pytest.mark.parametrize(
    "formula, problem",
    [
        ("taken -", "expected a number, a variable or '(' but found 'the end'"),
        ("taken ** 2", "found '*'"),
        ("(taken - 10", "expected ')'"),
        ("points - 10", "unknown name 'points'"),
        ("__import__('os')", "is not allowed"),
        ("bid.real", "'.' is not allowed"),
        ("pow(bid, 2)", "unknown name 'pow'"),
    ],
)
def test_bad_expression_names_the_key(formula, problem):
    message = load_error(
        f'[scoring]\nformula = "custom"\nsuccess = "{formula}"\nfailure = "bid - taken"\n'
    )
    assert message.startswith("club.toml: scoring.success: ")
    assert problem in message


def test_friend_needs_some_kind_of_call():
    assert "no kind of friend call is allowed" in load_error(
        "[friend]\ncard = false\nno_friend = false\nfirst_trick = false\n"
    )


def test_no_trump_discount_needs_no_trump():
    assert load_error("[election]\nno_trump_allowed = false\nno_trump_discount = 1\n") == (
        "club.toml: election.no_trump_discount = 1 but no-trump is not allowed "
        "(election.no_trump_allowed = false)"
    )


def test_invalid_toml():
    assert load_error("[election\n").startswith("club.toml: not valid TOML:")


# --- the formula language ------------------------------------------------------------------

ENV = {"bid": 15, "taken": 16, "opposition": 4, "minimum": 13, "max_bid": 20, "total": 20}


@pytest.mark.parametrize(
    "text, value",
    [
        ("2 + 3 * 4", 14),
        ("(2 + 3) * 4", 20),
        ("8 - 2 - 1", 5),
        ("8 / 2 / 2", 2),
        ("-2 * 3", -6),
        ("- 2 + 3", 1),
        ("2 - -3", 5),
        ("- -3", 3),
        ("+4", 4),
        ("2 * -3", -6),
        ("-(taken - bid)", -1),
        ("2 * (bid - minimum) + (taken - bid)", 5),
    ],
)
def test_precedence_and_unary_minus(text, value):
    assert compile_expression(text)(ENV) == value


@pytest.mark.parametrize(
    "text, value",
    [
        ("abs(bid - taken)", 1),
        ("min(bid, taken, 3)", 3),
        ("max(1, opposition)", 4),
        ("floor(7 / 2)", 3),
        ("ceil(7 / 2)", 4),
        ("floor(-7 / 2)", -4),
        ("ceil(-7 / 2)", -3),
        ("max_bid + total", 40),
    ],
)
def test_functions_and_variables(text, value):
    assert compile_expression(text)(ENV) == value


def test_arithmetic_is_exact():
    assert compile_expression("(taken - 10) / 4")(ENV) == Fraction(3, 2)
    assert compile_expression("1 / 3 + 1 / 3 + 1 / 3")(ENV) == 1
    assert compile_expression("0.1 + 0.2")(ENV) == Fraction(3, 10)


@pytest.mark.parametrize(
    "text, problem",
    [
        ("", "the formula is empty"),
        ("1 2", "unexpected '2'"),
        ("min(1)", "at least 2"),
        ("abs(1, 2)", "abs() takes 1"),
        ("floor 3", "expected '('"),
        ("x", "unknown name 'x'"),
        ("open", "unknown name 'open'"),
        ("lambda", "unknown name 'lambda'"),
        ("bid[0]", "'[' is not allowed"),
        ('"a"', "'\"' is not allowed"),
        ("bid; 1", "';'"),
    ],
)
def test_expression_rejects_what_it_does_not_know(text, problem):
    with pytest.raises(ValueError) as caught:
        compile_expression(text)
    assert problem in str(caught.value)


def test_division_by_zero_is_reported_at_evaluation():
    formula = compile_expression("taken / (bid - bid)")
    with pytest.raises(ZeroDivisionError, match="division by zero in a scoring formula"):
        formula(ENV)


def test_expressions_never_evaluate_python(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the formula language must not call eval/exec/compile")

    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, forbidden)
    assert compile_expression("max(taken - 10, 0) * 2")(ENV) == 12
    with pytest.raises(ValueError):
        compile_expression("__import__('os').system('echo hacked')")

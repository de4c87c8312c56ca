"""A small, safe arithmetic language for clubs' own scoring formulas (never ``eval``).

Grammar: numbers, the variables a formula may use, ``+ - * /``, unary minus, parentheses and
the functions ``abs min max floor ceil``. Arithmetic is exact (``fractions.Fraction``), so a
club's ``(taken - 10) / 2`` scores the same on every machine. An expression is compiled once to
a tree of closures and evaluated many times.

Formulas come from shared ruleset files, so they are bounded (:mod:`.limits`): their length,
token count and nesting when compiled, and the magnitude of every number they meet when
evaluated; a formula beyond a bound is a ``ValueError`` when compiled and a
:class:`~.errors.ScoringError` when evaluated, never a crash or minutes of arithmetic.

    >>> compile_expression("2 * (bid - minimum) + (taken - bid)")(
    ...     {"bid": 15, "minimum": 13, "taken": 16})
    Fraction(5, 1)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from fractions import Fraction

from ..errors import ScoringError
from ..limits import (
    FORMULA_MAX_DEPTH,
    FORMULA_MAX_LENGTH,
    FORMULA_MAX_TOKENS,
    FORMULA_VALUE_LIMIT,
)
from ..translation import _, ngettext

#: The variables a scoring formula may use.
VARIABLES = ("bid", "taken", "opposition", "minimum", "max_bid", "total")
FUNCTIONS: dict[str, tuple[int, Callable[..., Fraction]]] = {
    "abs": (1, lambda x: abs(x)),
    "floor": (1, lambda x: Fraction(math.floor(x))),
    "ceil": (1, lambda x: Fraction(math.ceil(x))),
    "min": (-2, min),  # negative arity: at least that many arguments
    "max": (-2, max),
}

Compiled = Callable[[Mapping[str, int]], Fraction]
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


def compile_expression(text: str, variables: tuple[str, ...] = VARIABLES) -> Compiled:
    """Compile an expression; a ``ValueError`` names what is wrong and where."""
    if len(text) > FORMULA_MAX_LENGTH:
        raise ValueError(
            _("the formula is {length} characters long: at most {most} are allowed").format(
                length=len(text), most=FORMULA_MAX_LENGTH
            )
        )
    tokens = _tokenize(text)
    if len(tokens) > FORMULA_MAX_TOKENS:
        raise ValueError(
            _(
                "the formula has {count} numbers, names and operators: at most {most} are allowed"
            ).format(count=len(tokens), most=FORMULA_MAX_TOKENS)
        )
    parser = _Parser(text, tokens, variables)
    tree = parser.expression()
    if parser.pos != len(tokens):
        raise ValueError(
            _("unexpected {token} in formula {formula}").format(
                token=repr(tokens[parser.pos][1]), formula=repr(text)
            )
        )
    return tree


def _tokenize(text: str) -> list[tuple[str, str]]:
    tokens = []
    for number, name, other in _TOKEN.findall(text):
        if number:
            tokens.append(("num", number))
        elif name:
            tokens.append(("name", name))
        elif other.strip():
            if other not in "+-*/(),":
                raise ValueError(
                    _(
                        "{token} is not allowed in formula {formula} (use numbers, "
                        "{variables}, + - * / ( ) and {functions})"
                    ).format(
                        token=repr(other),
                        formula=repr(text),
                        variables=", ".join(VARIABLES),
                        functions=", ".join(FUNCTIONS),
                    )
                )
            tokens.append(("op", other))
    if not tokens:
        raise ValueError(_("the formula is empty"))
    return tokens


class _Parser:
    def __init__(self, text: str, tokens: list[tuple[str, str]], variables: tuple[str, ...]):
        self.text, self.tokens, self.variables, self.pos = text, tokens, variables, 0
        self.depth = 0

    def nested(self) -> None:
        """Count one more level of nesting (parentheses, function calls, signs)."""
        self.depth += 1
        if self.depth > FORMULA_MAX_DEPTH:
            raise ValueError(
                _(
                    "the formula nests more than {most} levels deep (parentheses, "
                    "function calls and signs)"
                ).format(most=FORMULA_MAX_DEPTH)
            )

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def take(self, value: str) -> bool:
        if self.peek() == ("op", value):
            self.pos += 1
            return True
        return False

    def expect(self, value: str) -> None:
        if not self.take(value):
            found = repr(self.peek()[1] or _("the end"))
            raise ValueError(
                _("expected {expected} but found {found} in formula {formula}").format(
                    expected=repr(value), found=found, formula=repr(self.text)
                )
            )

    def expression(self) -> Compiled:
        terms = [(1, self.term())]
        while True:
            if self.take("+"):
                terms.append((1, self.term()))
            elif self.take("-"):
                terms.append((-1, self.term()))
            else:
                return terms[0][1] if len(terms) == 1 else _sum(terms)

    def term(self) -> Compiled:
        left = self.unary()
        factors = []
        while True:
            if self.take("*"):
                factors.append((False, self.unary()))
            elif self.take("/"):
                factors.append((True, self.unary()))
            else:
                return _product(left, factors) if factors else left

    def unary(self) -> Compiled:
        if self.take("-"):
            self.nested()
            inner = self.unary()
            self.depth -= 1
            return lambda env: -inner(env)
        if self.take("+"):
            self.nested()
            inner = self.unary()
            self.depth -= 1
            return inner
        return self.atom()

    def atom(self) -> Compiled:
        kind, value = self.peek()
        if kind == "num":
            self.pos += 1
            constant = Fraction(value)
            if abs(constant) > FORMULA_VALUE_LIMIT or constant.denominator > FORMULA_VALUE_LIMIT:
                raise ValueError(
                    _(
                        "the number {number} is too large or too fine for a formula "
                        "(at most {most:,} and 12 decimals)"
                    ).format(
                        number=value[:20] + ("..." if len(value) > 20 else ""),
                        most=FORMULA_VALUE_LIMIT,
                    )
                )
            return lambda env: constant
        if kind == "name":
            self.pos += 1
            if value in FUNCTIONS:
                return self.call(value)
            if value not in self.variables:
                raise ValueError(
                    _(
                        "unknown name {name} in formula {formula} (variables: "
                        "{variables}; functions: {functions})"
                    ).format(
                        name=repr(value),
                        formula=repr(self.text),
                        variables=", ".join(self.variables),
                        functions=", ".join(FUNCTIONS),
                    )
                )
            return lambda env: _bounded(Fraction(env[value]))
        if self.take("("):
            self.nested()
            inner = self.expression()
            self.expect(")")
            self.depth -= 1
            return inner
        found = repr(value or _("the end"))
        raise ValueError(
            _("expected a number, a variable or '(' but found {found} in formula {formula}").format(
                found=found, formula=repr(self.text)
            )
        )

    def call(self, name: str) -> Compiled:
        arity, function = FUNCTIONS[name]
        self.expect("(")
        self.nested()
        args = [self.expression()]
        while self.take(","):
            args.append(self.expression())
        self.expect(")")
        self.depth -= 1
        if (arity > 0 and len(args) != arity) or (arity < 0 and len(args) < -arity):
            if arity > 0:
                message = ngettext(
                    "{name}() takes {count} argument in formula {formula}",
                    "{name}() takes {count} arguments in formula {formula}",
                    arity,
                )
            else:
                message = ngettext(
                    "{name}() takes at least {count} argument in formula {formula}",
                    "{name}() takes at least {count} arguments in formula {formula}",
                    -arity,
                )
            raise ValueError(message.format(name=name, count=abs(arity), formula=repr(self.text)))
        return lambda env: Fraction(function(*(arg(env) for arg in args)))


def _sum(terms: list[tuple[int, Compiled]]) -> Compiled:
    """A chain of + and - evaluated in a loop (a long sum never deepens the stack)."""

    def evaluate(env: Mapping[str, int]) -> Fraction:
        total = Fraction(0)
        for sign, term in terms:
            total = _bounded(total + term(env) if sign > 0 else total - term(env))
        return total

    return evaluate


def _product(first: Compiled, factors: list[tuple[bool, Compiled]]) -> Compiled:
    """A chain of * and / evaluated in a loop, left to right."""

    def evaluate(env: Mapping[str, int]) -> Fraction:
        value = first(env)
        for divide, factor in factors:
            value = _bounded(_divide(value, factor(env)) if divide else value * factor(env))
        return value

    return evaluate


def _bounded(value: Fraction) -> Fraction:
    """The value, if its magnitude and denominator are within the formula's bounds."""
    numerator, denominator = value.numerator, value.denominator
    if denominator > FORMULA_VALUE_LIMIT or abs(numerator) > FORMULA_VALUE_LIMIT * denominator:
        raise ScoringError(
            _(
                "a scoring formula reached {magnitude}: its numbers must stay "
                "within ±{most:,} with at most 12 decimals"
            ).format(magnitude=_magnitude(value), most=FORMULA_VALUE_LIMIT)
        )
    return value


def _magnitude(value: Fraction) -> str:
    if abs(value) > FORMULA_VALUE_LIMIT:
        digits = len(str(abs(value.numerator) // value.denominator))
        return ngettext("a number of {count} digit", "a number of {count} digits", digits).format(
            count=digits
        )
    return _("a fraction with a {count}-digit denominator").format(
        count=len(str(value.denominator))
    )


def _divide(a: Fraction, b: Fraction) -> Fraction:
    if b == 0:
        raise ZeroDivisionError(_("division by zero in a scoring formula"))
    return a / b

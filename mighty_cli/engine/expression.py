"""A small, safe arithmetic language for clubs' own scoring formulas (never ``eval``).

Grammar: numbers, the variables a formula may use, ``+ - * /``, unary minus, parentheses and
the functions ``abs min max floor ceil``. Arithmetic is exact (``fractions.Fraction``), so a
club's ``(taken - 10) / 2`` scores the same on every machine. An expression is compiled once to
a tree of closures and evaluated many times.

    >>> compile_expression("2 * (bid - minimum) + (taken - bid)")(
    ...     {"bid": 15, "minimum": 13, "taken": 16})
    Fraction(5, 1)
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Callable, Mapping

#: The variables a scoring formula may use.
VARIABLES = ("bid", "taken", "opposition", "minimum", "max_bid", "total")
FUNCTIONS: dict[str, tuple[int, Callable[..., Fraction]]] = {
    "abs": (1, lambda x: abs(x)),
    "floor": (1, lambda x: Fraction(math.floor(x))),
    "ceil": (1, lambda x: Fraction(math.ceil(x))),
    "min": (-2, min),   # negative arity: at least that many arguments
    "max": (-2, max),
}

Compiled = Callable[[Mapping[str, int]], Fraction]
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z_0-9]*)|(.))")


def compile_expression(text: str, variables: tuple[str, ...] = VARIABLES) -> Compiled:
    """Compile an expression; a ``ValueError`` names what is wrong and where."""
    tokens = _tokenize(text)
    parser = _Parser(text, tokens, variables)
    tree = parser.expression()
    if parser.pos != len(tokens):
        raise ValueError(f"unexpected {tokens[parser.pos][1]!r} in formula {text!r}")
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
                raise ValueError(f"{other!r} is not allowed in formula {text!r} (use numbers, "
                                 f"{', '.join(VARIABLES)}, + - * / ( ) and "
                                 f"{', '.join(FUNCTIONS)})")
            tokens.append(("op", other))
    if not tokens:
        raise ValueError("the formula is empty")
    return tokens


class _Parser:
    def __init__(self, text: str, tokens: list[tuple[str, str]], variables: tuple[str, ...]):
        self.text, self.tokens, self.variables, self.pos = text, tokens, variables, 0

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def take(self, value: str) -> bool:
        if self.peek() == ("op", value):
            self.pos += 1
            return True
        return False

    def expect(self, value: str) -> None:
        if not self.take(value):
            found = self.peek()[1] or "the end"
            raise ValueError(f"expected {value!r} but found {found!r} in formula {self.text!r}")

    def expression(self) -> Compiled:
        left = self.term()
        while True:
            if self.take("+"):
                left = _binary(left, self.term(), lambda a, b: a + b)
            elif self.take("-"):
                left = _binary(left, self.term(), lambda a, b: a - b)
            else:
                return left

    def term(self) -> Compiled:
        left = self.unary()
        while True:
            if self.take("*"):
                left = _binary(left, self.unary(), lambda a, b: a * b)
            elif self.take("/"):
                left = _binary(left, self.unary(), _divide)
            else:
                return left

    def unary(self) -> Compiled:
        if self.take("-"):
            inner = self.unary()
            return lambda env: -inner(env)
        if self.take("+"):
            return self.unary()
        return self.atom()

    def atom(self) -> Compiled:
        kind, value = self.peek()
        if kind == "num":
            self.pos += 1
            constant = Fraction(value)
            return lambda env: constant
        if kind == "name":
            self.pos += 1
            if value in FUNCTIONS:
                return self.call(value)
            if value not in self.variables:
                raise ValueError(f"unknown name {value!r} in formula {self.text!r} (variables: "
                                 f"{', '.join(self.variables)}; functions: {', '.join(FUNCTIONS)})")
            return lambda env: Fraction(env[value])
        if self.take("("):
            inner = self.expression()
            self.expect(")")
            return inner
        found = value or "the end"
        raise ValueError(f"expected a number, a variable or '(' but found {found!r} in formula "
                         f"{self.text!r}")

    def call(self, name: str) -> Compiled:
        arity, function = FUNCTIONS[name]
        self.expect("(")
        args = [self.expression()]
        while self.take(","):
            args.append(self.expression())
        self.expect(")")
        if (arity > 0 and len(args) != arity) or (arity < 0 and len(args) < -arity):
            need = arity if arity > 0 else f"at least {-arity}"
            raise ValueError(f"{name}() takes {need} argument(s) in formula {self.text!r}")
        return lambda env: Fraction(function(*(arg(env) for arg in args)))


def _binary(left: Compiled, right: Compiled, op: Callable[[Fraction, Fraction], Fraction]) -> Compiled:
    return lambda env: op(left(env), right(env))


def _divide(a: Fraction, b: Fraction) -> Fraction:
    if b == 0:
        raise ZeroDivisionError("division by zero in a scoring formula")
    return a / b

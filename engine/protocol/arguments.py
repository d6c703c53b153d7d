"""Reading command arguments: every parser raises CommandError, whose message is the '?' reply."""
from __future__ import annotations

from typing import Optional

from ..rules import parse_colour

MAX_DIGITS = 15  # the protocol's whole numbers: times, counts, depths (a seed may have 20)


class CommandError(Exception):
    """A command that cannot be carried out; the message is the '?' reply."""


def arity(args: list[str], low: int, high: Optional[int] = None, usage: str = "") -> None:
    high = low if high is None else high
    if not low <= len(args) <= high:
        raise CommandError(f"wrong number of arguments; usage: {usage}")


def whole_number(text: str, what: str, low: int = 0, high: Optional[int] = None,
                 of: str = "") -> int:
    """ASCII digits only (str.isdigit() also takes '²'), within [low, high];
    without `high`, at most MAX_DIGITS digits."""
    digits = text.isascii() and text.isdigit() and len(text) <= (MAX_DIGITS if high is None else 24)
    if digits and low <= int(text) and (high is None or int(text) <= high):
        return int(text)
    if high is not None:
        wanted = f"a whole number from {low} to {high}"
    else:
        wanted = f"a whole number from {low}" if low else "a whole number"
    raise CommandError(f"bad {what} {text!r}{f' for {of}' if of else ''}: {wanted}")


def colour(text: str) -> int:
    try:
        return parse_colour(text)
    except ValueError as e:
        raise CommandError(str(e)) from None

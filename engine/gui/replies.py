"""The engine's replies the session reads besides the board: `status`'s fields and the range of
an option in `option`'s list."""
from __future__ import annotations

from typing import Optional


def parse_fields(text: str) -> dict:
    """`status`'s key=value words."""
    return dict(word.split("=", 1) for word in text.split() if "=" in word)


def parse_int_option(listing: str, name: str) -> Optional[tuple[int, int]]:
    """(low, high) of an int option in `option`'s list (`level 20 int 1..20`), None if absent."""
    for line in listing.split("\n"):
        words = line.split()
        if len(words) == 4 and words[0] == name and words[2] == "int":
            low, _, high = words[3].partition("..")
            if low.isdigit() and high.isdigit():
                return int(low), int(high)
    return None

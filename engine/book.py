"""The opening book (option book, protocol.md 6.1): moves for a game's first moves, built
from self-play by scripts/book and shipped in engine/data.

A game with a book names its file (its GameSpec.book_file in engine/games), the point maps that keep its rules
(symmetries) and how a position reads as a key (book_key).  The book stores each position
once, in its canonical orientation (the smallest key over the symmetries), so positions
that differ only by a rotation or a mirror pool their games; a stored move is mapped back
to the board as it stands and checked by the rules like any other.  The file is read on
first use.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Optional

from .bounded_read import MIB, read_text
from .registry import SPECS
from .rules import IllegalMove

MAX_BOOK_BYTES = 16 * MIB  # far above any book scripts/book writes (the shipped one is 1 KB)

log = logging.getLogger("engine.book")


@dataclass(frozen=True)
class Entry:
    move: str     # in the canonical orientation
    games: int    # build games that reached the position
    score: float  # the move's mean result for its mover in them (win 1, draw 1/2, loss 0)

    def line(self, key: str) -> str:
        """The entry as one line of a book file: key, move, games, score."""
        return f"{key} {self.move} {self.games} {self.score:.3f}"


def canonical(game) -> Optional[tuple[str, tuple[int, ...]]]:
    """(key, point map) of the current position's canonical orientation; None where the
    game has no book or the book covers no position like this one."""
    best = None
    for perm in game.symmetries:
        key = game.book_key(perm)
        if key is None:
            return None
        if best is None or key < best[0]:
            best = (key, perm)
    return best


def canonical_move(game, move) -> Optional[tuple[str, str]]:
    """(key, move text) of the current position and `move` in canonical orientation.  In a
    position that is its own mirror image the move takes the smallest text among its
    images, so that moves that are the same up to symmetry pool their games."""
    found = canonical(game)
    if found is None:
        return None
    key = found[0]
    texts = [game.move_text(game.map_move(move, perm))
             for perm in game.symmetries if game.book_key(perm) == key]
    return key, min(texts)


def inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    back = [0] * len(perm)
    for point, image in enumerate(perm):
        back[image] = point
    return tuple(back)


def parse(text: str) -> dict[str, Entry]:
    """A book file's entries by key; `#` starts a comment line.  ValueError names a bad line."""
    entries = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        try:
            key, move, games, score = fields
            entries[key] = Entry(move, int(games), float(score))
        except ValueError:
            raise ValueError(f"book line {number}: expected 'key move games score', "
                             f"not {line!r}") from None
    return entries


@lru_cache(maxsize=None)
def load(file_name: str) -> dict[str, Entry]:
    """The shipped book engine/data/<file_name> (empty, with a warning, if it is unreadable)."""
    try:
        with resources.as_file(resources.files(__package__).joinpath("data", file_name)) as path:
            return parse(read_text(str(path), MAX_BOOK_BYTES))
    except (OSError, ValueError) as e:  # InputError is a ValueError
        log.warning("no opening book: %s", e)
        return {}


def book_file_of(game: str) -> Optional[str]:
    """The game's book in engine/data, None when it has none (or is not registered)."""
    spec = SPECS.get(game)
    return spec.book_file if spec is not None else None


def lookup(game) -> Optional[tuple[object, Entry]]:
    """The book's move for the current position (rules-checked) and its entry, or None."""
    book_file = book_file_of(game.name)
    if book_file is None or game.over:
        return None
    found = canonical(game)
    if found is None:
        return None
    key, perm = found
    entry = load(book_file).get(key)
    if entry is None:
        return None
    try:
        move = game.check_move(game.map_move(game.parse_move(entry.move), inverse(perm)))
    except IllegalMove as e:
        log.error("book move %s for %s is illegal (%s); searching instead", entry.move, key, e)
        return None
    return move, entry

"""The engine's options: one schema, each field with its default and its range or choices.

Stockfish style (`Option(1, 1, 512, on_threads)`): the table below is the only
place an option is declared, with its side effect (an on-change hook, run when `option`
sets it; a hook that fails leaves the old value); `option` lists and sets options from it.
"""
from __future__ import annotations

from dataclasses import Field, dataclass, field, fields
from typing import Callable, Optional

from .. import core, levels
from ..games import DEFAULT_GAME
from ..splitmix64 import MASK64
from .arguments import CommandError, whole_number

OnChange = Callable[["Options"], None]


def number(default: int, low: int, high: int, on_change: Optional[OnChange] = None):
    return field(default=default, metadata={"range": (low, high), "on_change": on_change})


def number_in(default: int, bounds: Callable[["Options"], tuple[int, int]], on_change: Optional[OnChange] = None):
    """An int option whose range depends on the other options (elo: on the game)."""
    return field(default=default, metadata={"range": bounds, "on_change": on_change})


def choice(default: str, *choices: str):
    return field(default=default, metadata={"choices": choices})


def allocate_hash(options: "Options") -> None:
    """The transposition table is set up now, not on the next search's clock."""
    if core.AVAILABLE:
        try:
            core.set_hash(options.hash)
        except core.CoreError as e:
            raise CommandError(str(e)) from None


def level_set(options: "Options") -> None:
    options.elo = levels.elos(options.game)[options.level]


def elo_set(options: "Options") -> None:
    options.level = levels.nearest_level(options.game, options.elo)
    level_set(options)  # the chosen level's own Elo, not the number given


def in_range(text: str, low: int, high: int, name: str) -> int:
    """A whole number within [low, high]; a leading '-' only where low < 0 (option elo)."""
    if low >= 0:
        return whole_number(text, "value", low, high, of=name)
    digits = text[1:] if text.startswith("-") else text
    if digits.isascii() and digits.isdigit() and len(digits) <= 24:
        value = -int(digits) if text.startswith("-") else int(digits)
        if low <= value <= high:
            return value
    raise CommandError(f"bad value {text!r} for {name}: a whole number from {low} to {high}")


@dataclass
class Options:
    threads: int = number(1, 1, 64)
    hash: int = number(64, 1, 4096, allocate_hash)  # MB
    seed: int = number(0, 0, MASK64)
    movetime: int = number(0, 0, 86_400_000)  # ms; 0 = none
    depth: int = number(0, 0, 99)             # 0 = no limit
    nodes: int = number(0, 0, 10 ** 15)       # 0 = no limit
    player: str = choice("core", "core", "python", "random")
    info: str = choice("on", "on", "off")
    keephash: str = choice("off", "off", "on")  # on: newgame & co. keep the hash table
    solver: str = choice("off", "off", "on")    # on: a small endgame's exact result and line before
                                                # the search, for analysis (protocol.md 6.1)
    multipv: int = number(1, 1, 10)           # candidates analyze reports (core MAX_MULTIPV)
    ponder: str = choice("off", "off", "on")  # search on the opponent's time (engine/ponder.py)
    book: str = choice("off", "off", "on")    # genmove plays the game's opening book (engine/book.py)
    level: int = number(levels.FULL, 1, levels.FULL, level_set)  # genmove's strength (engine/levels.py)
    # the level's measured Elo in the current game; setting it picks that game's nearest level
    elo: int = number_in(0, lambda options: levels.elo_range(options.game), elo_set)
    game: str = DEFAULT_GAME  # not an option: the server's current game, whose levels elo reads

    def __post_init__(self) -> None:
        level_set(self)

    def for_game(self, name: str) -> None:
        """The server's game is now `name`: the level stays, its Elo is that game's."""
        self.game = name
        level_set(self)

    def bounds(self, option: Field) -> tuple[int, int]:
        """An int option's (low, high) now (elo's is the current game's)."""
        bounds = option.metadata["range"]
        return bounds(self) if callable(bounds) else bounds

    def listing(self) -> str:
        """One line per option: name, value, type and range or choices."""
        lines = []
        for f in option_fields(self):
            value = getattr(self, f.name)
            if "range" in f.metadata:
                low, high = self.bounds(f)
                lines.append(f"{f.name} {value} int {low}..{high}")
            else:
                lines.append(f"{f.name} {value} choice {'|'.join(f.metadata['choices'])}")
        return "\n".join(lines)

    def set(self, name: str, text: str) -> None:
        """Set option `name` (any case) from text; CommandError if either is bad."""
        spec = next((f for f in option_fields(self) if f.name == name.lower()), None)
        if spec is None:
            raise CommandError(f"unknown option {name!r}; 'option' lists them")
        if "range" in spec.metadata:
            low, high = self.bounds(spec)
            value = in_range(text, low, high, spec.name)
            before = getattr(self, spec.name)
            setattr(self, spec.name, value)
            hook = spec.metadata["on_change"]
            if hook is not None:
                try:
                    hook(self)
                except CommandError:
                    setattr(self, spec.name, before)
                    raise
            return
        choices = spec.metadata["choices"]
        if text.lower() not in choices:
            raise CommandError(f"bad value {text!r} for {spec.name}: one of {', '.join(choices)}")
        setattr(self, spec.name, text.lower())


def option_fields(options: Options) -> list[Field]:
    """The fields that are options (a range or choices), not the server's state beside them."""
    return [f for f in fields(options) if "range" in f.metadata or "choices" in f.metadata]

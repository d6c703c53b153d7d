"""The game registry: one GameSpec per game, looked up by name, like Pygments' lexers.

A leaf: it imports nothing else of the engine at its top, so every module may import it (the
rules, the core bindings, the levels, the book, the records) with no import circle.  The
built-in games load on the first lookup, from BUILT_IN, a static list of module names; a game
from another package registers itself when `--game-module` imports it (load_module); no entry
points, since reading every installed package's metadata costs more than the engine's whole
start-up.  What a consumer asks of a game beyond its rules (the GUI's looks, the tools'
positions, a bot's move form) is kept by that consumer, beside its code.
docs/adding-a-game.md walks through a new game.
"""
from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, TypeVar

if TYPE_CHECKING:
    from .rules import GameBase

# the built-in games' modules, each with a GameSpec named SPEC; the first is the default game
BUILT_IN: tuple[str, ...] = ("engine.games.dvonn", "engine.games.tzaar")
DEFAULT_GAME = "dvonn"

CoreAction = tuple[str, int, int]  # (kind, from, to) as engine/core.py decodes a core move


def _no_extra(stack: str) -> int:
    return 0


@dataclass(frozen=True)
class CoreCodec:
    """How a game's positions and moves cross to the compiled core (csrc/CONTRACT.md)."""
    top_codes: str                  # the core's piece code k is top_codes[k]
    kinds: tuple[str, ...]          # the core's move kind k is kinds[k]
    phase: Callable[[Any], int]     # the rules object's phase code
    to_move: Callable[[Any, list[CoreAction]], Any]  # the actions of one move (a whole turn) as a move
    action_text: Callable[[Any, CoreAction], str]    # one action (a PV entry) as text
    extra: Callable[[str], int] = _no_extra          # the per-point extra byte of a stack


@dataclass
class GameSpec:
    """Everything the engine knows about one game besides its rules."""
    rules: type["GameBase"]
    core: Optional[CoreCodec] = None  # None: no compiled core, the Python player plays
    record_formats: tuple[Any, ...] = ()  # engine/records/base.py RecordFormat, detection order
    write_littlegolem: Optional[Callable[[Any], str]] = None  # the record in LittleGolem's format
    source_notation: Optional[Callable[[Any, str], str]] = None  # a move as the record's source writes it
    book_file: Optional[str] = None  # its opening book in engine/data (engine/book.py); None: no book
    example_record: Optional[str] = None  # its shipped record in engine/data/examples (gipf-review --example)
    levels: Optional[dict[int, Any]] = None  # engine/levels.py Level per level 1..19; None: all full strength

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def title(self) -> str:
        return self.rules.title


_Value = TypeVar("_Value")
_state = "unloaded"  # then "loading" (lookups see what is registered so far), then "loaded"


_loading = threading.RLock()  # another thread's first lookup waits for the games; this thread's own passes


def _load_games() -> None:
    """Register the built-in games (once)."""
    global _state
    if _state == "loaded":
        return
    with _loading:
        if _state != "unloaded":  # loaded meanwhile, or this very thread is importing them
            return
        _state = "loading"
        try:
            for module in BUILT_IN:
                register(importlib.import_module(module).SPEC)
        except BaseException:
            _state = "unloaded"
            raise
        _state = "loaded"


class _Registered(MutableMapping[str, _Value]):
    """A name -> value table that loads the games before any lookup."""

    def __init__(self) -> None:
        self._table: dict[str, _Value] = {}

    def __getitem__(self, name: str) -> _Value:
        _load_games()
        return self._table[name]

    def __setitem__(self, name: str, value: _Value) -> None:
        self._table[name] = value

    def __delitem__(self, name: str) -> None:
        del self._table[name]

    def __iter__(self) -> Iterator[str]:
        _load_games()
        return iter(self._table)

    def __len__(self) -> int:
        _load_games()
        return len(self._table)

    def __contains__(self, name: object) -> bool:
        _load_games()
        return name in self._table

    def __repr__(self) -> str:
        return repr(dict(self.items()))


SPECS: _Registered[GameSpec] = _Registered()
GAMES: _Registered[type[GameBase]] = _Registered()  # name -> rules class, for the many callers that need only that


def register(spec: GameSpec) -> GameSpec:
    """Add a game (once: a second spec under the same name is an error); the built-in games
    come first."""
    _load_games()
    name = spec.name
    if not name or name != name.lower() or not name.isidentifier():
        raise ValueError(f"a game's name is a lower-case identifier, not {name!r}")
    if name in SPECS and SPECS[name] is not spec:
        raise ValueError(f"the game {name!r} is already registered")
    SPECS[name] = spec
    GAMES[name] = spec.rules
    return spec


def spec(name: str) -> GameSpec:
    """The spec of a registered game (KeyError if there is none)."""
    return SPECS[name]


def get_game(name: str) -> GameSpec:
    """The spec of a registered game by name (ValueError naming the games if there is none)."""
    found = SPECS.get(name)
    if found is None:
        raise ValueError(f"no game {name!r}; the games are {', '.join(SPECS)}")
    return found


def titles() -> str:
    """The registered games' titles as words: "DVONN and TZAAR" (for descriptions)."""
    names = [s.title for s in SPECS.values()]
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]


def load_module(module: str) -> list[str]:
    """Import a module whose import registers games; the names it added (ValueError if none)."""
    known, before = module in sys.modules, set(SPECS)
    importlib.import_module(module)
    added = [name for name in SPECS if name not in before]
    if not added and not known:
        raise ValueError(f"importing {module} registered no game")
    return added

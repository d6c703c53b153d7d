"""The games the engine plays: one GameSpec per game, registered once.

A game is its folder engine/games/<game>/ (rules, board, core codec, record formats, GUI
drawing data, opening book name), whose package registers its spec here, plus one name in
BUILT_IN.  Everything else (server, search, core bindings, records, review, GUI, tools) asks
the registry instead of testing which game it is.  Another package can register a game too: its import calls
``register`` (the engine's ``--game-module``).  docs/adding-a-game.md walks through it.
"""
from __future__ import annotations

import importlib
import sys
from dataclasses import asdict, dataclass
from typing import Any, Callable, Optional

from ..rules import GameBase
from .tool_data import ToolData

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


@dataclass(frozen=True)
class PieceLook:
    """How the web GUI draws a piece letter: colours, the words a legend and a screen reader
    use, and the symbol that tells kinds of one colour apart by shape."""
    fill: str
    ink: str                    # the height number and the symbol
    colour: str                 # "white", "black", "red": what the piece is called and whose it is
    kind: str = ""              # "Tzarra": the piece's kind, "" where colour says it all
    symbol: str = ""            # "", "dot" or "ring-dot"


@dataclass(frozen=True)
class GuiData:
    """What the web GUI draws for a game, sent to the page with every state (engine/gui)."""
    pieces: dict[str, PieceLook]  # piece letter (protocol.md showboard) -> its look
    notes: str                  # the legend's words for the marks on the board

    def to_json(self) -> dict:
        return {"pieces": {letter: asdict(look) for letter, look in self.pieces.items()},
                "notes": self.notes}


@dataclass
class GameSpec:
    """Everything the engine knows about one game besides its rules."""
    rules: type[GameBase]
    core: Optional[CoreCodec] = None  # None: no compiled core, the Python player plays
    record_formats: tuple[Any, ...] = ()  # engine/records/base.py RecordFormat, detection order
    write_littlegolem: Optional[Callable[[Any], str]] = None  # the record in LittleGolem's format
    source_notation: Optional[Callable[[Any, str], str]] = None  # a move as the record's source writes it
    gui: Optional[GuiData] = None  # None: the GUI draws grey pieces with their letters
    book_file: Optional[str] = None  # its opening book in engine/data (engine/book.py); None: no book
    tools: ToolData = ToolData()  # what the tools (engine/tools) ask of it; the default: nothing
    levels: Optional[dict[int, Any]] = None  # engine/levels.py Level per level 1..19; None: all full strength

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def title(self) -> str:
        return self.rules.title


SPECS: dict[str, GameSpec] = {}
GAMES: dict[str, type[GameBase]] = {}  # name -> rules class, for the many callers that need only that


def register(spec: GameSpec) -> GameSpec:
    """Add a game (once: a second spec under the same name is an error)."""
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


BUILT_IN = ("dvonn", "tzaar")  # the packages under engine/games/, the first the default game
for _package in BUILT_IN:
    importlib.import_module(f"{__name__}.{_package}")
DEFAULT_GAME = BUILT_IN[0]

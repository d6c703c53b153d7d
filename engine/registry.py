"""The game registry: one GameSpec per game, and the names registered.

A leaf: it imports nothing else of the engine, so every module may import it at its top (the
rules, the core bindings, the levels, the book, the GUI) with no import circle.  The built-in
games are registered by one call, engine.games.load_built_in(); a game from another package
registers itself when `--game-module` imports it (load_module).  docs/adding-a-game.md walks
through a new game.
"""
from __future__ import annotations

import importlib
import sys
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Optional

if TYPE_CHECKING:
    from .rules import GameBase

# --- what the shared tools (engine/tools) ask of a game, as its GameSpec.tools -----------------
# Every field's default means "this game has none": a game without bench positions is not
# benchmarked, one without a LittleGolem move form is not played there, and so on.  Named
# tuples, not dataclasses: the engine imports these at start-up and never uses them, and a
# named tuple class costs less than half of what a frozen dataclass does to create.


class BenchPlan(NamedTuple):
    """gipf-bench's positions: random games (random.Random(seed), the Python rules) cut after
    each of `cuts` plies, and which of them each stage searches, as (from ply, depth)."""
    seeds: range
    cuts: tuple[int, ...]
    perft: tuple[int, int]
    smp: tuple[int, int]             # the 2-threads-against-1 time to depth
    fixed: tuple[int, int]           # --fixed-depth and --against


class ProtocolScenario(NamedTuple):
    """A gipf-bench-protocol round trip: after `newgame <game>` and `replay <moves>` (none when
    empty), `play` then `undo`; play None: the first of Black's legal moves."""
    label: str                       # "placement": printed after the game's name
    moves: str
    play: Optional[str]


class SolverRecords(NamedTuple):
    """gipf-bench-solver's finished games: a folder under the shared records, and the word for
    one record move (a whole turn where a turn is more than one action)."""
    folder: str
    unit: str = "moves"


class LineNotation(NamedTuple):
    """A one-move-per-line contest protocol's moves (gipf-match --b-codecup)."""
    contest: str                     # "CodeCup 2011"
    to_move: Callable[[str], str]    # a line as our move text (ValueError if it is not a move)
    from_move: Callable[[str], str]  # our move text as a line
    player: Callable[[str, str], Any]  # (command, name): a started player process speaking it


class ToolData(NamedTuple):
    """A game's GameSpec.tools."""
    bench: Optional[BenchPlan] = None
    protocol_scenarios: tuple[ProtocolScenario, ...] = ()
    big_turn_after: Optional[str] = None  # gipf-bench-protocol (c): legal_moves after White's this first move
    solver_records: Optional[SolverRecords] = None
    littlegolem_move: Optional[Callable[[str], str]] = None  # a move as LittleGolem's move form takes it
    codecup: Optional[LineNotation] = None


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
    rules: type["GameBase"]
    core: Optional[CoreCodec] = None  # None: no compiled core, the Python player plays
    record_formats: tuple[Any, ...] = ()  # engine/records/base.py RecordFormat, detection order
    write_littlegolem: Optional[Callable[[Any], str]] = None  # the record in LittleGolem's format
    source_notation: Optional[Callable[[Any, str], str]] = None  # a move as the record's source writes it
    gui: Optional[GuiData] = None  # None: the GUI draws grey pieces with their letters
    book_file: Optional[str] = None  # its opening book in engine/data (engine/book.py); None: no book
    example_record: Optional[str] = None  # its shipped record in engine/data/examples (gipf-review --example)
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

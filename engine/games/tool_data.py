"""What the shared tools (engine/tools) ask of a game, as its GameSpec.tools.

Every field's default means "this game has none": a game without bench positions is not
benchmarked, one without a LittleGolem move form is not played there, and so on.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional


@dataclass(frozen=True)
class BenchPlan:
    """gipf-bench's positions: random games (random.Random(seed), the Python rules) cut after
    each of `cuts` plies, and which of them each stage searches, as (from ply, depth)."""
    seeds: range
    cuts: tuple[int, ...]
    perft: tuple[int, int]
    smp: tuple[int, int]             # the 2-threads-against-1 time to depth
    fixed: tuple[int, int]           # --fixed-depth and --against


@dataclass(frozen=True)
class ProtocolScenario:
    """A gipf-bench-protocol round trip: after `newgame <game>` and `replay <moves>` (none when
    empty), `play` then `undo`; play None: the first of Black's legal moves."""
    label: str                       # "placement": printed after the game's name
    moves: str
    play: Optional[str]


@dataclass(frozen=True)
class SolverRecords:
    """gipf-bench-solver's finished games: a folder under the shared records, and the word for
    one record move (a whole turn where a turn is more than one action)."""
    folder: str
    unit: str = "moves"


@dataclass(frozen=True)
class LineNotation:
    """A one-move-per-line contest protocol's moves (gipf-match --b-codecup)."""
    contest: str                     # "CodeCup 2011"
    to_move: Callable[[str], str]    # a line as our move text (ValueError if it is not a move)
    from_move: Callable[[str], str]  # our move text as a line


@dataclass(frozen=True)
class ToolData:
    bench: Optional[BenchPlan] = None
    protocol_scenarios: tuple[ProtocolScenario, ...] = ()
    big_turn_after: Optional[str] = None  # gipf-bench-protocol (c): legal_moves after White's this first move
    solver_records: Optional[SolverRecords] = None
    littlegolem_move: Optional[Callable[[str], str]] = None  # a move as LittleGolem's move form takes it
    codecup: Optional[LineNotation] = None

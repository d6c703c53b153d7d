"""What the shared tools (engine/tools) ask of a game, as its GameSpec.tools.

Every field's default means "this game has none": a game without bench positions is not
benchmarked, one without a LittleGolem move form is not played there, and so on.  Named
tuples, not dataclasses: the engine imports this at start-up and never uses it, and a
named tuple class costs less than half of what a frozen dataclass does to create.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Optional


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


class ToolData(NamedTuple):
    """A game's GameSpec.tools."""
    bench: Optional[BenchPlan] = None
    protocol_scenarios: tuple[ProtocolScenario, ...] = ()
    big_turn_after: Optional[str] = None  # gipf-bench-protocol (c): legal_moves after White's this first move
    solver_records: Optional[SolverRecords] = None
    littlegolem_move: Optional[Callable[[str], str]] = None  # a move as LittleGolem's move form takes it
    codecup: Optional[LineNotation] = None

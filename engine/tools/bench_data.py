"""What the benchmarks (gipf-bench, gipf-bench-protocol, gipf-bench-solver) ask of each game,
kept beside them rather than in the game registry: a game with no entry here is left out of
that benchmark."""
from __future__ import annotations

from typing import NamedTuple, Optional


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


_DVONN_POINTS = ("A1 B1 C1 D1 E1 F1 G1 H1 I1 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 A3 B3 C3 D3 E3 F3 G3 H3 "
                 "I3 J3 K3 B4 C4 D4 E4 F4 G4 H4 I4 J4 K4 C5 D5 E5 F5 G5 H5 I5 J5 K5")

BENCH_PLANS: dict[str, BenchPlan] = {
    # cut after 20 plies (placement), 49 (the first stack move), 58 and 66; perft on late
    # positions (depth 1 is mostly call overhead), the searches in movement
    "dvonn": BenchPlan(seeds=range(11, 15), cuts=(20, 49, 58, 66), perft=(45, 3), smp=(49, 7), fixed=(49, 7)),
    # the fixed layout's random games cut after 3, 6, 9 and 12 turns (a ply is a turn here)
    "tzaar": BenchPlan(seeds=range(21, 25), cuts=(3, 6, 9, 12), perft=(12, 2), smp=(0, 4), fixed=(1, 5)),
}

PROTOCOL_SCENARIOS: dict[str, tuple[ProtocolScenario, ...]] = {
    "dvonn": (ProtocolScenario("placement", "D3 E3 F3 A1", "play w B1"),
              ProtocolScenario("movement", _DVONN_POINTS, "play w E1-F1")),
    "tzaar": (ProtocolScenario("opening", "", "play w A5xA4"),
              ProtocolScenario("turn", "A5xA4", None)),  # the pair's move is found at run time
}

# gipf-bench-protocol (c): legal_moves after White's this first move
BIG_TURN_AFTER: dict[str, str] = {
    "tzaar": "A5xA4",  # Black's first turn then has ~6,000 moves; random layouts more
}

SOLVER_RECORDS: dict[str, SolverRecords] = {
    "dvonn": SolverRecords("dvonn-boardspace", "moves"),  # the Boardspace games
    "tzaar": SolverRecords("littlegolem", "turns"),
}

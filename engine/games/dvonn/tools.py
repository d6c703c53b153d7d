"""What the shared tools ask of DVONN (engine/registry.py ToolData)."""
from __future__ import annotations

from ...registry import BenchPlan, LineNotation, ProtocolScenario, SolverRecords, ToolData
from .littlegolem import site_move
from .notation import codecup_to_move, move_to_codecup


def _codecup_player(command: str, name: str):
    # imported here: the client's process handling is for a match, not for the engine's start-up
    from .line_player import LinePlayer
    return LinePlayer(command, name)


_ALL_POINTS = ("A1 B1 C1 D1 E1 F1 G1 H1 I1 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 A3 B3 C3 D3 E3 F3 G3 H3 "
               "I3 J3 K3 B4 C4 D4 E4 F4 G4 H4 I4 J4 K4 C5 D5 E5 F5 G5 H5 I5 J5 K5")

TOOLS = ToolData(
    # cut after 20 plies (placement), 49 (the first stack move), 58 and 66; perft on late
    # positions (depth 1 is mostly call overhead), the searches in movement
    bench=BenchPlan(seeds=range(11, 15), cuts=(20, 49, 58, 66), perft=(45, 3), smp=(49, 7), fixed=(49, 7)),
    protocol_scenarios=(ProtocolScenario("placement", "D3 E3 F3 A1", "play w B1"),
                        ProtocolScenario("movement", _ALL_POINTS, "play w E1-F1")),
    solver_records=SolverRecords("dvonn-boardspace", "moves"),  # the Boardspace games
    littlegolem_move=site_move,
    codecup=LineNotation("CodeCup 2011", codecup_to_move, move_to_codecup, _codecup_player),
)

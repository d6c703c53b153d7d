"""What the shared tools ask of TZAAR (engine/registry.py ToolData)."""
from __future__ import annotations

from ...registry import BenchPlan, ProtocolScenario, SolverRecords, ToolData
from .littlegolem import site_move

TOOLS = ToolData(
    # the fixed layout's random games cut after 3, 6, 9 and 12 turns (a ply is a turn here)
    bench=BenchPlan(seeds=range(21, 25), cuts=(3, 6, 9, 12), perft=(12, 2), smp=(0, 4), fixed=(1, 5)),
    protocol_scenarios=(ProtocolScenario("opening", "", "play w A5xA4"),
                        ProtocolScenario("turn", "A5xA4", None)),  # the pair's move is found at run time
    big_turn_after="A5xA4",  # Black's first turn then has ~6,000 moves; random layouts more
    solver_records=SolverRecords("littlegolem", "turns"),
    littlegolem_move=site_move,
)

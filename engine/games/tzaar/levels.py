"""TZAAR's strength levels (engine/levels.py): each level's search, candidates, temperature and
share of random moves, and its Elo relative to full strength, measured 2026-12-02 in the matches
docs/levels.md gives with the command that reruns them."""
from __future__ import annotations

from ...levels import Level, LevelTable, check_table

LEVELS: LevelTable = check_table({
    1: Level(2, 0, 10, 1000.0, -1625, random=1.0),
    2: Level(2, 0, 10, 1000.0, -1536, random=0.85),
    3: Level(2, 0, 10, 1000.0, -1428, random=0.7),
    4: Level(2, 0, 10, 1000.0, -1305, random=0.55),
    5: Level(2, 0, 10, 1000.0, -1249, random=0.4),
    6: Level(2, 0, 10, 1000.0, -1193, random=0.25),
    7: Level(2, 0, 10, 1000.0, -1093, random=0.1),
    8: Level(4, 0, 10, 1000.0, -1008, random=0.2),
    9: Level(4, 0, 10, 1000.0, -919, random=0.1),
    10: Level(4, 0, 10, 1000.0, -849, random=0.03),
    11: Level(4, 0, 10, 250.0, -745),
    12: Level(4, 0, 10, 80.0, -634),
    13: Level(0, 16384, 3, 10.0, -538),
    14: Level(0, 24576, 3, 6.0, -438),
    15: Level(0, 49152, 3, 4.0, -342),
    16: Level(0, 73728, 2, 3.0, -297),
    17: Level(0, 196608, 2, 2.0, -186),
    18: Level(0, 262144, 1, 1.0, -144),
    19: Level(0, 655360, 1, 1.0, -74),
})

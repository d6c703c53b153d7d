"""DVONN's strength levels (engine/levels.py): each level's search, candidates and
temperature, and its Elo relative to full strength."""
from __future__ import annotations

from ...levels import Level, LevelTable, check_table

# Elo: matches of 2026-12-01, each level against the next and level 19 against full strength at
# 1,000,000 nodes per move, chained down from full strength (docs/levels.md).
LEVELS: LevelTable = check_table({
    1: Level(2, 0, 10, 1000.0, -2135),
    2: Level(2, 0, 10, 500.0, -2093),
    3: Level(2, 0, 10, 250.0, -1933),
    4: Level(2, 0, 10, 165.0, -1842),
    5: Level(2, 0, 10, 110.0, -1719),
    6: Level(2, 0, 10, 75.0, -1610),
    7: Level(2, 0, 10, 50.0, -1502),
    8: Level(2, 0, 10, 33.0, -1338),
    9: Level(2, 0, 10, 22.0, -1240),
    10: Level(3, 0, 8, 25.0, -1091),
    11: Level(3, 0, 6, 15.0, -1015),
    12: Level(4, 0, 6, 20.0, -892),
    13: Level(4, 0, 5, 14.0, -805),
    14: Level(0, 6144, 4, 10.0, -737),
    15: Level(0, 10240, 4, 8.0, -642),
    16: Level(0, 16384, 3, 7.0, -542),
    17: Level(0, 69632, 3, 4.0, -355),
    18: Level(0, 112640, 2, 3.0, -244),
    19: Level(0, 290816, 2, 2.0, -127),
})

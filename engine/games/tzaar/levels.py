"""TZAAR's strength levels (engine/levels.py): each level's search, candidates and
temperature, and its Elo relative to full strength."""
from __future__ import annotations

from ...levels import Level, LevelTable, check_table

LEVELS: LevelTable = check_table({
    1: Level(2, 0, 10, 1000.0, -1900),
    2: Level(2, 0, 10, 500.0, -1800),
    3: Level(2, 0, 10, 250.0, -1700),
    4: Level(2, 0, 10, 165.0, -1600),
    5: Level(2, 0, 10, 110.0, -1500),
    6: Level(2, 0, 10, 75.0, -1400),
    7: Level(2, 0, 10, 50.0, -1300),
    8: Level(2, 0, 10, 33.0, -1200),
    9: Level(2, 0, 10, 22.0, -1100),
    10: Level(4, 0, 8, 25.0, -1000),
    11: Level(4, 0, 6, 15.0, -900),
    12: Level(4, 0, 6, 20.0, -800),
    13: Level(4, 0, 5, 14.0, -700),
    14: Level(0, 6144, 4, 10.0, -600),
    15: Level(0, 10240, 4, 8.0, -500),
    16: Level(0, 16384, 3, 7.0, -400),
    17: Level(0, 69632, 3, 4.0, -300),
    18: Level(0, 112640, 2, 3.0, -200),
    19: Level(0, 290816, 2, 2.0, -100),
})

"""TZAAR's strength levels (engine/levels.py): each level's search, candidates, temperature and
share of random moves, and its Elo relative to full strength."""
from __future__ import annotations

from ...levels import Level, LevelTable, check_table

LEVELS: LevelTable = check_table({
    1: Level(2, 0, 10, 1000.0, -1700, random=1.0),
    2: Level(2, 0, 10, 1000.0, -1600, random=0.85),
    3: Level(2, 0, 10, 1000.0, -1500, random=0.7),
    4: Level(2, 0, 10, 1000.0, -1400, random=0.55),
    5: Level(2, 0, 10, 1000.0, -1300, random=0.4),
    6: Level(2, 0, 10, 1000.0, -1200, random=0.25),
    7: Level(2, 0, 10, 1000.0, -1100, random=0.1),
    8: Level(4, 0, 10, 1000.0, -1000, random=0.2),
    9: Level(4, 0, 10, 1000.0, -900, random=0.1),
    10: Level(4, 0, 10, 1000.0, -800),
    11: Level(4, 0, 10, 250.0, -700),
    12: Level(4, 0, 10, 100.0, -600),
    13: Level(4, 0, 10, 40.0, -500),
    14: Level(0, 32768, 3, 5.0, -400),
    15: Level(0, 57344, 2, 3.0, -300),
    16: Level(0, 102400, 2, 3.0, -250),
    17: Level(0, 184320, 2, 2.0, -200),
    18: Level(0, 327680, 2, 2.0, -150),
    19: Level(0, 573440, 2, 2.0, -100),
})

"""The DVONN board: 49 points in five rows."""
from __future__ import annotations

from ...hexgrid import COLUMNS, make_board

# DVONN: columns A-K (c = 0..10), rows 1-5 (r = 0..4); neighbours (c±1, r),
# (c, r±1), (c+1, r+1), (c-1, r-1).  Canonical order: row 1 A..I, row 2 A..J,
# row 3 A..K, row 4 B..K, row 5 C..K (49 points).
DVONN_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
DVONN_BOARD = make_board(
    ((c, r, f"{COLUMNS[c]}{r + 1}")
     for r in range(5) for c in range(max(0, r - 2), min(10, r + 8) + 1)),
    DVONN_DIRECTIONS)

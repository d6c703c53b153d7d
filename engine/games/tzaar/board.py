"""The TZAAR board: 60 points around a central hole."""
from __future__ import annotations

from ...hexgrid import COLUMNS, make_board

# TZAAR: columns A-I, x = column - 4 (-4..4); y runs -4..4 with |x+y| <= 4; the
# number of a point counts up from the lower end of its column.  (0, 0) = E5 is
# the hole: it is not a point, so rays stop there.  Directions as LittleGolem's
# axial system: (±1, 0), (0, ±1), (+1, -1), (-1, +1).  Canonical order: column
# by column A..I, each bottom to top, the hole skipped (60 points).
TZAAR_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def _tzaar_points():
    for x in range(-4, 5):
        low = max(-4, -4 - x)
        high = min(4, 4 - x)
        for y in range(low, high + 1):
            if (x, y) != (0, 0):
                yield x, y, f"{COLUMNS[x + 4]}{y - low + 1}"


TZAAR_BOARD = make_board(_tzaar_points(), TZAAR_DIRECTIONS)
TZAAR_HOLE_NAME = "E5"

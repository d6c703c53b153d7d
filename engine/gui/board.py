"""Reads the engine's `showboard` drawing into what the page draws: points, places, contents, labels.

The drawing is the engine's own layout of its board, so the page carries no board geometry. It is
labelled in one of the two styles of protocol.md §5.4: every row ends with its first and last point
(`C5-K5`), or a last line of column letters with each column numbered from 1 at its lower end.
Places are in units of the distance between neighbouring points, y growing downwards as in SVG.
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field

from ..registry import GAMES
from .looks import LOOKS

ROW_LABEL = re.compile(r"\s+([A-Z])(\d+)-([A-Z])(\d+)$")
COLUMN_LEGEND = re.compile(r"\s*[A-Z](\s+[A-Z])*\s*")
# A cell: '.', the hole '()', or a top letter, the height and maybe '*'. Cells are right-aligned in
# fixed widths, so a wide one ('W10*' in four columns) touches its left neighbour: no spaces between.
CELL = re.compile(r"\.|\(\)|[A-Za-z]\d+\*?")
WORD = re.compile(r"\S+")
STACK = re.compile(r"([A-Za-z])(\d+)(\*?)")
HEX_ROW_HEIGHT = math.sqrt(3) / 2  # rows (or columns) of a hex grid are this far apart


@dataclass
class Point:
    name: str
    x: float
    y: float
    top: str | None = None      # the drawing's letter of the top piece; None when empty
    height: int = 0
    marked: bool = False        # a '*' after the height: a red piece inside the stack (DVONN)
    hole: bool = False          # '()': a place that is not a point (TZAAR's centre)


@dataclass
class Board:
    points: list[Point]
    labels: list[dict] = field(default_factory=list)   # {"text", "x", "y"}
    footer: str = ""

    def to_json(self) -> dict:
        return {"points": [asdict(p) for p in self.points], "labels": self.labels,
                "footer": self.footer}


def parse_showboard(text: str) -> Board:
    """The reply text of `showboard` (drawing lines, then the footer line) as a Board."""
    lines = text.split("\n")
    if len(lines) < 2:
        raise ValueError("a showboard reply has a drawing and a footer line")
    drawing, footer = lines[:-1], lines[-1]
    if any(ROW_LABEL.search(line) for line in drawing):
        points = _rows_style(drawing)
    elif COLUMN_LEGEND.fullmatch(drawing[-1]):
        points = _columns_style(drawing)
    else:
        raise ValueError("showboard drawing without row labels or a column legend")
    return Board(points=points, labels=_edge_labels(points), footer=footer)


def _cell(name: str, x: float, y: float, token: str) -> Point:
    if token == ".":
        return Point(name, x, y)
    if token == "()":
        return Point(name, x, y, hole=True)
    match = STACK.fullmatch(token)
    assert match is not None, "a token CELL matched is '.', '()' or a stack"
    return Point(name, x, y, match.group(1), int(match.group(2)), bool(match.group(3)))


def _tokens(line: str, pattern: re.Pattern = CELL) -> list[tuple[int, str]]:
    """(column of the last character, text) of each cell."""
    return [(end, text) for _, end, text in _spans(line, pattern)]


def _spans(line: str, pattern: re.Pattern = CELL) -> list[tuple[int, int, str]]:
    """(first column, last column, text) of each cell."""
    if pattern.sub("", line).strip():
        raise ValueError(f"unreadable showboard line {line.strip()[:80]!r}")
    return [(m.start(), m.end() - 1, m.group()) for m in pattern.finditer(line)]


def _rows_style(drawing: list[str]) -> list[Point]:
    rows = []
    for index, line in enumerate(drawing):
        label = ROW_LABEL.search(line)
        if not label:
            raise ValueError(f"showboard row without its label: {line!r}")
        first, first_no, last, last_no = label.groups()
        if first_no != last_no:
            raise ValueError(f"a row label names two rows: {label.group().strip()!r}")
        cells = _tokens(line[:label.start()])
        letters = [chr(c) for c in range(ord(first), ord(last) + 1)]
        if len(cells) != len(letters):
            raise ValueError(f"row {first_no} has {len(cells)} cells, its label says {len(letters)}")
        rows.append((index, first_no, letters, cells))
    step = min(b[0] - a[0] for _, _, _, cells in rows for a, b in zip(cells, cells[1:]))
    return [_cell(f"{letter}{number}", column / step, index * HEX_ROW_HEIGHT, token)
            for index, number, letters, cells in rows
            for letter, (column, token) in zip(letters, cells)]


def _columns_style(drawing: list[str]) -> list[Point]:
    legend = {end: letter for end, letter in _tokens(drawing[-1], WORD)}
    order = sorted(legend)
    by_column: dict[int, list[tuple[int, str]]] = {end: [] for end in order}
    for index, line in enumerate(drawing[:-1]):
        for start, end, token in _spans(line):
            # the letter stands under the cell's usual last character; a tall stack ('c12')
            # runs on to the right of it
            under = [column for column in order if start <= column <= end]
            if len(under) != 1:
                raise ValueError(f"showboard cell {token!r} is under no column letter")
            by_column[under[0]].append((index, token))
    points = []
    for column_no, end in enumerate(order):
        cells = sorted(by_column[end], reverse=True)  # numbered from the lower end up
        for number, (index, token) in enumerate(cells, start=1):
            # a column's neighbouring points are two drawing lines apart
            points.append(_cell(f"{legend[end]}{number}", column_no * HEX_ROW_HEIGHT, index / 2,
                                token))
    return points


def _edge_labels(points: list[Point]) -> list[dict]:
    """Each letter one step beyond its point 1 end, each number one step beyond its first letter."""
    places = {p.name: (p.x, p.y) for p in points if not p.hole}

    def split(name: str) -> tuple[str, int]:
        return name[0], int(name[1:])

    labels = []
    for key_of, order_of in ((lambda n: split(n)[0], lambda n: split(n)[1]),
                             (lambda n: split(n)[1], lambda n: split(n)[0])):
        groups: dict = {}
        for name in places:
            groups.setdefault(key_of(name), []).append(name)
        steps = {}
        for key, names in groups.items():
            names.sort(key=order_of)
            if len(names) > 1:
                (x0, y0), (x1, y1) = places[names[0]], places[names[1]]
                steps[key] = (x0 - x1, y0 - y1)
        keys = sorted(groups)
        for i, key in enumerate(keys):
            # a one-point group (TZAAR's 9) continues the step of the group nearest to it
            step = steps.get(key) or next(steps[k] for k in sorted(
                steps, key=lambda k: abs(keys.index(k) - i)))
            x, y = places[groups[key][0]]
            labels.append({"text": str(key), "x": round(x + step[0], 4), "y": round(y + step[1], 4)})
    return labels


def game_choices() -> list[dict]:
    """The games of the registry as the page's game selector offers them."""
    return [{"name": name, "title": cls.title, "openings": cls.has_openings} for name, cls in GAMES.items()]


def game_look(game: str) -> dict | None:
    """How the page draws a game's pieces and what its legend says (engine/gui/looks.py);
    None for a game without that data (the page draws plain pieces with their letters)."""
    look = LOOKS.get(game)
    return look.to_json() if look is not None else None

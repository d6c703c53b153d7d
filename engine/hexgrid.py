"""Hex-grid geometry shared by the games' boards.

The games live on a hexagonal grid addressed by axial coordinates (x, y).
A board is a fixed set of points; each point gets a dense index 0..N-1 in the
game's canonical order.  Everything else (neighbours, rays) is precomputed
once per board, so the rules modules do only table look-ups.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import product
from typing import Iterable, Sequence


@dataclass(frozen=True)
class HexBoard:
    """A set of points on an axial hex grid with precomputed adjacency and rays.

    ``directions`` are the six unit steps; index d and index d ^ 1 are opposite.
    ``rays[i][d]`` lists the points met walking from point i in direction d,
    in order, until the walk leaves the board (a ``blocked`` point ends a ray
    without being part of it: TZAAR's central hole).
    """

    coords: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    directions: tuple[tuple[int, int], ...]
    blocked: frozenset = frozenset()
    # derived from the above in __post_init__
    index: dict[tuple[int, int], int] = field(init=False, repr=False, compare=False)
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False, compare=False)
    by_name: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {xy: i for i, xy in enumerate(self.coords)}
        neighbours: list[tuple[int, ...]] = []
        rays: list[tuple[tuple[int, ...], ...]] = []
        for (x, y) in self.coords:
            cell_neighbours: list[int] = []
            cell_rays: list[tuple[int, ...]] = []
            for dx, dy in self.directions:
                ray: list[int] = []
                cx, cy = x + dx, y + dy
                while (cx, cy) in index:
                    ray.append(index[(cx, cy)])
                    cx, cy = cx + dx, cy + dy
                cell_rays.append(tuple(ray))
                if ray and self.coords[ray[0]] == (x + dx, y + dy):
                    cell_neighbours.append(ray[0])
            neighbours.append(tuple(cell_neighbours))
            rays.append(tuple(cell_rays))
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "neighbours", tuple(neighbours))
        object.__setattr__(self, "rays", tuple(rays))
        object.__setattr__(self, "by_name", {n: i for i, n in enumerate(self.names)})

    @property
    def size(self) -> int:
        return len(self.coords)

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Every map of the board onto itself that keeps the grid's lines, as point
        permutations (perm[i] = the image of point i), the identity first.

        Found, not listed: each integer linear map that permutes the six directions
        (so it keeps neighbours and straight lines) and, moved by one translation,
        takes the point set onto itself.  DVONN's board has four (identity, the 180°
        rotation and the two mirror axes), the regular TZAAR hexagon twelve."""
        steps = set(self.directions)
        found = []
        for a, b, c, d in product((-1, 0, 1), repeat=4):
            def linear(x, y, a=a, b=b, c=c, d=d):
                return a * x + b * y, c * x + d * y
            if {linear(*step) for step in steps} != steps:
                continue
            mapped = [linear(x, y) for x, y in self.coords]
            (ox, oy), (mx, my) = min(self.coords), min(mapped)  # a translation keeps the minimum
            moved = [(x + ox - mx, y + oy - my) for x, y in mapped]
            if set(moved) == set(self.coords):
                found.append(tuple(self.index[xy] for xy in moved))
        identity = tuple(range(self.size))
        return tuple(sorted(found, key=lambda perm: perm != identity))

    def parse_point(self, text: str) -> int:
        """Point index for a name such as ``D3`` (case-insensitive); ValueError if none."""
        i = self.by_name.get(text.strip().upper()) if text.isascii() else None
        if i is None:
            raise ValueError(f"no such point: {text!r}")
        return i


def make_board(points: Iterable[tuple[int, int, str]],
               directions: Sequence[tuple[int, int]]) -> HexBoard:
    pts = list(points)
    return HexBoard(coords=tuple((x, y) for x, y, _ in pts),
                    names=tuple(n for _, _, n in pts),
                    directions=tuple(directions))


COLUMNS = "ABCDEFGHIJK"

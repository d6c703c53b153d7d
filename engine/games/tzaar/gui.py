"""How the web GUI draws TZAAR's pieces (protocol.md showboard letters a b c White, A B C Black):
the three kinds are told apart by shape (Tzaar ring and dot, Tzarra dot, Tott plain), not colour."""
from __future__ import annotations

from ...registry import GuiData, PieceLook

WHITE = dict(fill="#f7f2e4", ink="#2b2b2b", colour="white")
BLACK = dict(fill="#262626", ink="#f0d070", colour="black")
KINDS = (("Tzaar", "ring-dot"), ("Tzarra", "dot"), ("Tott", ""))

GUI = GuiData(
    pieces={letter: PieceLook(**colour, kind=kind, symbol=symbol)
            for letters, colour in (("abc", WHITE), ("ABC", BLACK))
            for letter, (kind, symbol) in zip(letters, KINDS)},
    notes="number: stack height · Tzaar: ring and dot, Tzarra: dot, Tott: plain · orange: last move · "
          "blue ring: a stack you can move · green: what it can capture or stack on")

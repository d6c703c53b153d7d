"""How the web GUI draws DVONN's pieces (protocol.md showboard letters W, B, R)."""
from __future__ import annotations

from ...registry import GuiData, PieceLook

WHITE = dict(fill="#f7f2e4", ink="#2b2b2b", colour="white")
BLACK = dict(fill="#262626", ink="#f0d070", colour="black")

GUI = GuiData(
    pieces={"W": PieceLook(**WHITE), "B": PieceLook(**BLACK),
            "R": PieceLook(fill="#c62828", ink="#ffffff", colour="red", kind="DVONN piece")},
    notes="number: stack height · red ring: a red (DVONN) piece inside the stack · orange: last move · "
          "blue ring: a stack you can move · green: where to")

"""How the web GUI draws each game's pieces and what its legend says (protocol.md showboard
letters), kept here beside the GUI's code rather than in the game registry.  A game with no
entry in LOOKS (one registered from outside, say) is drawn as grey pieces with their letters;
its module may add its own look to LOOKS."""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class PieceLook:
    """How the page draws a piece letter: colours, the words a legend and a screen reader use,
    and the symbol that tells kinds of one colour apart by shape."""
    fill: str
    ink: str                    # the height number and the symbol
    colour: str                 # "white", "black", "red": what the piece is called and whose it is
    kind: str = ""              # "Tzarra": the piece's kind, "" where colour says it all
    symbol: str = ""            # "", "dot" or "ring-dot"


@dataclass(frozen=True)
class GuiData:
    """What the page draws for a game, sent to it with every state."""
    pieces: dict[str, PieceLook]  # piece letter (protocol.md showboard) -> its look
    notes: str                  # the legend's words for the marks on the board

    def to_json(self) -> dict:
        return {"pieces": {letter: asdict(look) for letter, look in self.pieces.items()},
                "notes": self.notes}


WHITE = dict(fill="#f7f2e4", ink="#2b2b2b", colour="white")
BLACK = dict(fill="#262626", ink="#f0d070", colour="black")
TZAAR_KINDS = (("Tzaar", "ring-dot"), ("Tzarra", "dot"), ("Tott", ""))  # told apart by shape, not colour

LOOKS: dict[str, GuiData] = {
    "dvonn": GuiData(  # W, B and the red R
        pieces={"W": PieceLook(**WHITE), "B": PieceLook(**BLACK),
                "R": PieceLook(fill="#c62828", ink="#ffffff", colour="red", kind="DVONN piece")},
        notes="number: stack height · red ring: a red (DVONN) piece inside the stack · orange: last move · "
              "blue ring: a stack you can move · green: where to"),
    "tzaar": GuiData(  # a b c White, A B C Black
        pieces={letter: PieceLook(**colour, kind=kind, symbol=symbol)
                for letters, colour in (("abc", WHITE), ("ABC", BLACK))
                for letter, (kind, symbol) in zip(letters, TZAAR_KINDS)},
        notes="number: stack height · Tzaar: ring and dot, Tzarra: dot, Tott: plain · orange: last move · "
              "blue ring: a stack you can move · green: what it can capture or stack on"),
}

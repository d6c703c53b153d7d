"""Game records: read and write DVONN and TZAAR games played elsewhere.

Formats (see records/README.md in the shared data for every quirk):

* Boardspace DVONN SGF: a stream of user-interface actions, one per node
  (``; P0[17 dropb D 3]``), which this module turns into whole moves.
* LittleGolem DVONN text: ``Event [..] White [..] Black [..] 1. g2 c1 ...``.
* LittleGolem TZAAR SGF: ``(;FF[TZAAR]...POS[..];W[qmrl];B[okol-popn];...)``.

Every reader returns a :class:`GameRecord` whose moves are in the engine's
notation (DVONN ``D3`` / ``E3-F3`` / ``pass``; TZAAR whole turns such as
``G4xC6 F2+F1``).  The writers produce the LittleGolem formats, and
:func:`replay` plays a record through the rules modules.

A malformed record raises :class:`RecordError`, naming the SGF action or the
move number at fault.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Optional, Union

from .dvonn import DvonnGame
from .hexgrid import DVONN_BOARD, TZAAR_BOARD
from .rules import IllegalMove
from .tzaar import TzaarGame

DVONN_POINTS = DVONN_BOARD.size          # 49 placements fill the board
TZAAR_PIECES = "abcABC"                  # White a b c, Black A B C (Tzaar, Tzarra, Tott)
LITTLEGOLEM_SITE = "www.littlegolem.net"
LITTLEGOLEM_SGF_SOURCE = "https://www.littlegolem.net"

SOURCE_BOARDSPACE = "boardspace-sgf"
SOURCE_LITTLEGOLEM_DVONN = "littlegolem-dvonn"
SOURCE_LITTLEGOLEM_TZAAR = "littlegolem-tzaar"

SIDES = ("w", "b")

# What a LittleGolem record can carry; GameRecord.same_game compares these.
GAME_FIELDS = ("game", "white", "black", "opening", "moves", "resigned_by")


class RecordError(ValueError):
    """A record that cannot be read, written or replayed; the message says where and why.

    ``move_number`` (1-based index into ``GameRecord.moves``) and ``action``
    (the Boardspace action sequence number) are set when known.
    """

    def __init__(self, message: str, *, move_number: Optional[int] = None,
                 action: Optional[int] = None) -> None:
        super().__init__(message)
        self.move_number = move_number
        self.action = action


@dataclass
class GameRecord:
    """One game: who played, the opening, and every move in the engine's notation.

    ``moves`` holds DVONN moves (49 placements, then stack moves and passes;
    White makes both the 49th placement and the first stack move) or TZAAR
    whole turns.  ``opening`` is None for the standard layout (and always for
    DVONN), else the 60 TZAAR stacks in canonical point order.  The result is
    never stored: :func:`replay` computes it.
    """

    game: str                                   # 'dvonn' | 'tzaar'
    moves: list[str] = field(default_factory=list)
    white: Optional[str] = None
    black: Optional[str] = None
    opening: Optional[list[str]] = None
    resigned_by: Optional[str] = None           # 'w' | 'b' | None
    source: str = ""                            # one of the SOURCE_* names
    date: Optional[str] = None
    event: Optional[str] = None
    result_text: Optional[str] = None           # free text as saved (Boardspace RE)

    def same_game(self, other: "GameRecord") -> bool:
        """Equal in everything that a LittleGolem record can carry over."""
        return all(getattr(self, f) == getattr(other, f) for f in GAME_FIELDS)


# ---------------------------------------------------------------------------
# Text decoding
# ---------------------------------------------------------------------------

def decode_text(data: Union[str, bytes]) -> str:
    """Text of a record file: UTF-8 if it is valid UTF-8, else Latin-1.

    Boardspace also writes some characters as byte 0xF0 and two hex digits
    (Cyrillic: U+04xx); those are turned back into characters.  Moves are
    always ASCII, so a wrong guess can only garble free text.
    """
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    try:
        return data.decode("utf-8").lstrip("\ufeff")
    except UnicodeDecodeError:
        return _unescape_boardspace(data.decode("latin-1"))


def _unescape_boardspace(text: str) -> str:
    """Byte 0xF0 (read as Latin-1 'ð') + two hex digits -> U+04xx."""
    head, *rest = text.split("\xf0")
    out = [head]
    for piece in rest:
        code = piece[:2]
        if len(code) == 2 and _is_hex(code):
            out.append(chr(0x400 + int(code, 16)) + piece[2:])
        else:
            out.append("\xf0" + piece)
    return "".join(out)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)


# ---------------------------------------------------------------------------
# SGF (just enough of it: nodes of properties, the main line of the first tree)
# ---------------------------------------------------------------------------

@dataclass
class SgfNode:
    """One SGF node: its properties in file order, one (ident, value) per value."""

    props: list[tuple[str, str]] = field(default_factory=list)
    line: int = 0

    def get(self, ident: str) -> Optional[str]:
        for name, value in self.props:
            if name == ident:
                return value
        return None

    def values(self, ident: str) -> list[str]:
        return [value for name, value in self.props if name == ident]


class _SgfScanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self._line, self._counted = 1, 0

    def line(self) -> int:
        """Line number of the current position (counted incrementally)."""
        self._line += self.text.count("\n", self._counted, self.pos)
        self._counted = self.pos
        return self._line

    def error(self, message: str) -> RecordError:
        return RecordError(f"SGF line {self.line()}: {message}")

    def skip_space(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _SPACE:
            pos += 1
        self.pos = pos

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos:self.pos + 1]

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = self.peek() or "the end of the file"
            raise self.error(f"expected {char!r}, found {found!r}")
        self.pos += 1

    def game_tree(self) -> list[SgfNode]:
        """Parse '(' nodes subtrees ')'; return the main line (first variations)."""
        self.expect("(")
        nodes: list[SgfNode] = []
        while self.peek() == ";":
            nodes.append(self.node())
        variations = []
        while self.peek() == "(":
            variations.append(self.game_tree())
        self.expect(")")
        return nodes + (variations[0] if variations else [])

    def node(self) -> SgfNode:
        self.expect(";")
        node = SgfNode(line=self.line())
        while self.peek().isalnum():
            ident = self.identifier()
            if self.peek() != "[":
                raise self.error(f"property {ident} has no value")
            while self.peek() == "[":
                node.props.append((ident, self.value()))
        return node

    def identifier(self) -> str:
        text, start = self.text, self.pos
        end = start
        while end < len(text) and text[end].isalnum():
            end += 1
        self.pos = end
        return text[start:end]

    def value(self) -> str:
        """A bracketed value; backslash escapes the next character."""
        self.expect("[")
        text, pos = self.text, self.pos
        parts = []
        while True:
            end = text.find("]", pos)
            if end < 0:
                raise self.error("a property value is not closed with ']'")
            escape = text.find("\\", pos, end)
            if escape < 0:
                parts.append(text[pos:end])
                self.pos = end + 1
                return "".join(parts)
            parts.append(text[pos:escape] + text[escape + 1:escape + 2])
            pos = escape + 2


_SPACE = frozenset(" \t\r\n\v\f")


def parse_sgf(text: str) -> list[SgfNode]:
    """The nodes of the first game tree's main line; anything after it is ignored."""
    scanner = _SgfScanner(text)
    if scanner.peek() != "(":
        raise scanner.error("an SGF record starts with '('")
    return scanner.game_tree()


def _sgf_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


# ---------------------------------------------------------------------------
# DVONN move notation
# ---------------------------------------------------------------------------

def dvonn_point(text: str) -> str:
    """Canonical DVONN point name ('d3' -> 'D3'); RecordError if not on the board."""
    name = text.strip().upper()
    if name not in DVONN_BOARD.by_name:
        raise RecordError(f"{text!r} is not a DVONN point (A1..K5)")
    return name


def dvonn_canonical(move: str) -> str:
    """Our notation, canonical: 'D3', 'E3-F3' or 'pass' (accepts any case, 'e3f3')."""
    text = move.strip()
    if text.lower() == "pass":
        return "pass"
    if "-" in text:
        src, _, dst = text.partition("-")
        return f"{dvonn_point(src)}-{dvonn_point(dst)}"
    if len(text) == 4:
        return f"{dvonn_point(text[:2])}-{dvonn_point(text[2:])}"
    return dvonn_point(text)


def dvonn_to_littlegolem(move: str) -> str:
    """'E3-F3' -> 'e3f3', 'D3' -> 'd3', 'pass' -> 'pass'."""
    return dvonn_canonical(move).replace("-", "").lower()


def dvonn_from_littlegolem(token: str) -> str:
    """'e3f3' -> 'E3-F3', 'd3' -> 'D3', 'pass' -> 'pass'."""
    text = token.strip()
    if text.lower() == "pass":
        return "pass"
    if len(text) == 4:
        return f"{dvonn_point(text[:2])}-{dvonn_point(text[2:])}"
    if len(text) == 2:
        return dvonn_point(text)
    raise RecordError(f"{token!r} is not a LittleGolem DVONN move (d3, e3f3 or pass)")


def _boardspace_point(name: str) -> str:
    return f"{name[0]} {name[1:]}"


def dvonn_to_boardspace(move: str) -> str:
    """The single Boardspace action for a move: 'dropb D 3', 'move E 3 F 3', 'pass'."""
    text = dvonn_canonical(move)
    if text == "pass":
        return "pass"
    if "-" in text:
        src, dst = text.split("-")
        return f"move {_boardspace_point(src)} {_boardspace_point(dst)}"
    return f"dropb {_boardspace_point(text)}"


def dvonn_from_boardspace(action: str) -> str:
    """'dropb D 3' -> 'D3', 'move E 3 F 3' -> 'E3-F3', 'pass' -> 'pass'."""
    words = action.split()
    if words == ["pass"]:
        return "pass"
    if len(words) == 3 and words[0] == "dropb":
        return dvonn_point(words[1] + words[2])
    if len(words) == 5 and words[0] == "move":
        return f"{dvonn_point(words[1] + words[2])}-{dvonn_point(words[3] + words[4])}"
    raise RecordError(f"{action!r} is not a Boardspace DVONN move action "
                      "(dropb C R, move C1 R1 C2 R2 or pass)")


def dvonn_mover(moves_before: int) -> str:
    """Who makes DVONN move number moves_before + 1: 'w' or 'b'.

    Placements alternate from White (so White makes the 49th), then White
    also makes the first stack move; passes are moves, so sides alternate.
    """
    if moves_before < DVONN_POINTS:
        return SIDES[moves_before % 2]
    return SIDES[(moves_before - DVONN_POINTS) % 2]


def _is_placement(move: str) -> bool:
    return move != "pass" and "-" not in move


# ---------------------------------------------------------------------------
# TZAAR move notation
# ---------------------------------------------------------------------------

_LG_ORIGIN = ord("o")   # LittleGolem letters k..s stand for -4..+4


def tzaar_point(text: str) -> str:
    """Canonical TZAAR point name ('g4' -> 'G4'); RecordError if not on the board."""
    name = text.strip().upper()
    if name not in TZAAR_BOARD.by_name:
        raise RecordError(f"{text!r} is not a TZAAR point (A1..I5, E5 is the hole)")
    return name


def tzaar_point_to_littlegolem(name: str) -> str:
    x, y = TZAAR_BOARD.coords[TZAAR_BOARD.by_name[tzaar_point(name)]]
    return chr(_LG_ORIGIN + x) + chr(_LG_ORIGIN + y)


def tzaar_point_from_littlegolem(text: str) -> str:
    if len(text) != 2:
        raise RecordError(f"{text!r} is not a LittleGolem TZAAR point (two letters k..s)")
    xy = (ord(text[0].lower()) - _LG_ORIGIN, ord(text[1].lower()) - _LG_ORIGIN)
    index = TZAAR_BOARD.index.get(xy)
    if index is None:
        raise RecordError(f"{text!r} is not a LittleGolem TZAAR point (oo is the hole)")
    return TZAAR_BOARD.names[index]


def _split_tzaar_action(action: str) -> tuple[str, str, str]:
    """'G4xC6' -> ('G4', 'x', 'C6'); also '+' (stack) and '-' (kind unknown)."""
    text = action.strip()
    for sign in "x+-":
        src, found, dst = text.lower().partition(sign)
        if found:
            return tzaar_point(src), sign, tzaar_point(dst)
    raise RecordError(f"{action!r} is not a TZAAR action (G4xC6, F2+F1 or pass)")


def tzaar_canonical(turn: str) -> str:
    """Our notation, canonical: 'G4xC6 F2+F1', 'H2xD1 pass', 'G4xC6'."""
    actions = []
    for action in turn.split():
        if action.lower() == "pass":
            actions.append("pass")
        else:
            src, sign, dst = _split_tzaar_action(action)
            actions.append(f"{src}{sign}{dst}")
    if not 1 <= len(actions) <= 2:
        raise RecordError(f"{turn!r} is not a TZAAR turn (one or two actions)")
    return " ".join(actions)


def tzaar_to_littlegolem(turn: str) -> str:
    """'G4xC6 F2+F1' -> 'qnmr-plpk': each action from+to, joined by '-'; 'pass' stays."""
    parts = []
    for action in tzaar_canonical(turn).split():
        if action == "pass":
            parts.append("pass")
        else:
            src, _, dst = _split_tzaar_action(action)
            parts.append(tzaar_point_to_littlegolem(src) + tzaar_point_to_littlegolem(dst))
    return "-".join(parts)


def tzaar_from_littlegolem(text: str, cells: list[str], side: int) -> str:
    """A LittleGolem TZAAR turn in our notation, deciding capture or stack from the board.

    ``cells`` is the board before the turn (stacks in canonical point order),
    ``side`` the mover (0 White, 1 Black).  The first action is a capture; the
    second is a stack if its target is the mover's own (after the first capture).
    """
    parts = text.strip().split("-")
    if not 1 <= len(parts) <= 2 or parts[0] == "pass":
        raise RecordError(f"{text!r} is not a LittleGolem TZAAR turn (e.g. prqq or prqq-kplp)")
    src, dst = _littlegolem_tzaar_action(parts[0])
    actions = [f"{src}x{dst}"]
    if len(parts) == 2:
        if parts[1].lower() == "pass":
            actions.append("pass")
        else:
            after = _after_capture(cells, src, dst)
            src2, dst2 = _littlegolem_tzaar_action(parts[1])
            own = _colour(after[TZAAR_BOARD.by_name[dst2]]) == side
            actions.append(f"{src2}{'+' if own else 'x'}{dst2}")
    return " ".join(actions)


def _littlegolem_tzaar_action(text: str) -> tuple[str, str]:
    if len(text) != 4:
        raise RecordError(f"{text!r} is not a LittleGolem TZAAR action (four letters k..s)")
    return tzaar_point_from_littlegolem(text[:2]), tzaar_point_from_littlegolem(text[2:])


def _after_capture(cells: list[str], src: str, dst: str) -> list[str]:
    after = list(cells)
    i, j = TZAAR_BOARD.by_name[src], TZAAR_BOARD.by_name[dst]
    after[j], after[i] = after[i], ""
    return after


def _colour(stack: str) -> Optional[int]:
    """0 White, 1 Black, None for an empty point (TZAAR stacks never mix colours)."""
    if not stack:
        return None
    return 0 if stack[-1].islower() else 1


def tzaar_opening_from_pos(pos: str) -> list[str]:
    """LittleGolem POS[...] (60 letters, canonical point order) -> 60 one-letter stacks."""
    letters = pos.strip()
    if len(letters) != TZAAR_BOARD.size or not set(letters) <= set(TZAAR_PIECES):
        raise RecordError(f"POS must be {TZAAR_BOARD.size} letters from {TZAAR_PIECES!r}, "
                          f"got {len(letters)} characters")
    return list(letters)


def tzaar_opening_to_pos(opening: list[str]) -> str:
    if len(opening) != TZAAR_BOARD.size or any(len(s) != 1 or s not in TZAAR_PIECES
                                               for s in opening):
        raise RecordError("a POS opening is 60 single pieces (a b c A B C)")
    return "".join(opening)


# ---------------------------------------------------------------------------
# Boardspace DVONN SGF
# ---------------------------------------------------------------------------

_RACK = "rack"   # the source of a piece picked from a player's rack (a placement)


@dataclass
class _BoardspaceTurn:
    """What the acting player has done since the last `done`."""

    source: Optional[str] = None     # _RACK or the point a stack was lifted from
    dropped: Optional[str] = None    # where the piece/stack last went down
    in_hand: bool = False            # a piece or stack is lifted and not yet dropped
    passed: bool = False

    def move(self) -> str:
        """The effective move at `done`: (source, last drop), or a pass."""
        if self.in_hand:
            raise ValueError("done with a piece still in hand")
        if self.source is None:
            return "pass"
        if self.passed:
            raise ValueError("a pass after a move in the same turn")
        if self.source == _RACK:
            return self.dropped
        return f"{self.source}-{self.dropped}"


class _BoardspaceReader:
    """Turns the Boardspace action stream into moves."""

    def __init__(self) -> None:
        self.moves: list[str] = []
        self.turn = _BoardspaceTurn()
        self.resigned_by: Optional[str] = None
        self.editing = False

    def action(self, seq: int, player: str, words: list[str]) -> None:
        name, args = words[0].lower(), words[1:]
        handler = getattr(self, f"_do_{name}", None)
        if handler is None:
            raise RecordError(f"action {seq}: unknown action {name!r}", action=seq)
        if self.editing and name in ("pickb", "dropb", "move", "pick", "drop"):
            raise RecordError(f"action {seq}: {name} after 'edit' changes the board "
                              "outside the rules; such a record cannot be replayed", action=seq)
        try:
            handler(player, args)
        except ValueError as e:
            raise RecordError(f"action {seq} ({' '.join(words)}): {e}",
                              action=seq, move_number=len(self.moves) + 1) from None

    # --- the actions ---------------------------------------------------------
    def _do_start(self, player: str, args: list[str]) -> None:
        if self.moves or args not in ([], ["P0"]):
            raise ValueError("a game starts once, with P0 (White)")

    def _do_pick(self, player: str, args: list[str]) -> None:
        """A piece taken from the rack: a placement (the last drop still counts until replaced)."""
        _rack_args(args)
        if self.turn.source not in (None, _RACK):
            raise ValueError("a rack piece picked while a stack is being moved")
        self.turn.source, self.turn.in_hand = _RACK, True

    def _do_drop(self, player: str, args: list[str]) -> None:
        """A piece put back on the rack: no effect, except cancelling a placement not yet made."""
        _rack_args(args)
        turn = self.turn
        turn.in_hand = False
        if turn.dropped is None:
            turn.source = None

    def _do_dropb(self, player: str, args: list[str]) -> None:
        point = _boardspace_args_point(args)
        turn = self.turn
        if turn.source is None:              # a placement straight from the rack
            turn.source = _RACK
        elif turn.source != _RACK and not turn.in_hand:
            raise ValueError("no stack is lifted")
        turn.in_hand = False
        if point == turn.source:             # back where it was lifted: no move
            turn.source = turn.dropped = None
        else:
            turn.dropped = point

    def _do_pickb(self, player: str, args: list[str]) -> None:
        point = _boardspace_args_point(args)
        turn = self.turn
        if turn.in_hand:
            raise ValueError("a stack lifted while another is in hand")
        if turn.dropped == point:            # lifting again what was just dropped
            turn.dropped = None
        elif turn.source is None:
            turn.source = point
        else:
            raise ValueError("a second stack lifted in the same turn")
        turn.in_hand = True

    def _do_move(self, player: str, args: list[str]) -> None:
        if len(args) != 4 or self.turn.source is not None:
            raise ValueError("'move C1 R1 C2 R2' is a whole move, alone in its turn")
        self.turn.source = _boardspace_args_point(args[:2])
        self.turn.dropped = _boardspace_args_point(args[2:])

    def _do_pass(self, player: str, args: list[str]) -> None:
        self.turn.passed = True

    def _do_reset(self, player: str, args: list[str]) -> None:
        self.turn = _BoardspaceTurn()

    def _do_edit(self, player: str, args: list[str]) -> None:
        self.editing = True

    def _do_resign(self, player: str, args: list[str]) -> None:
        self.resigned_by = player

    def _do_done(self, player: str, args: list[str]) -> None:
        if self.editing:                     # 'done' leaves edit mode
            self.editing = False
            self.turn = _BoardspaceTurn()
            return
        expected = dvonn_mover(len(self.moves))
        if player != expected:
            raise ValueError(f"P{SIDES.index(player)} ends a turn, but move "
                             f"{len(self.moves) + 1} is {_side_name(expected)}'s")
        self.moves.append(self.turn.move())
        self.turn = _BoardspaceTurn()


def _rack_args(args: list[str]) -> None:
    if len(args) != 2 or args[0] not in ("wr", "br") or not args[1].isdigit():
        raise ValueError("expected a rack and a piece: 'wr K' or 'br K'")


def _boardspace_args_point(args: list[str]) -> str:
    if len(args) != 2:
        raise ValueError("a point is a column letter and a row number, e.g. 'E 3'")
    return dvonn_point(args[0] + args[1])


def _side_name(side: str) -> str:
    return "White" if side == "w" else "Black"


def _boardspace_player(node: SgfNode) -> Optional[tuple[str, str]]:
    """(side, action text) of an action node (P0/P1 value starting with its number)."""
    for ident, value in node.props:
        if ident in ("P0", "P1"):
            words = value.split()
            if words and words[0].isdigit():
                return SIDES[int(ident[1])], value
    return None


def _boardspace_name(value: str) -> Optional[str]:
    """'id "Bartje"' or ' id guest' -> the name; None for other P0/P1 values."""
    words = value.strip().split(None, 1)
    if len(words) == 2 and words[0] == "id":
        return words[1].strip().strip('"') or None
    return None


def _boardspace_header(record: GameRecord, node: SgfNode) -> None:
    for ident, value in node.props:
        if ident in ("P0", "P1"):
            name = _boardspace_name(value)
            if name is not None:
                setattr(record, "white" if ident == "P0" else "black", name)
        elif ident == "DT":
            record.date = value.strip()
        elif ident == "RE":
            record.result_text = value.strip()


def read_boardspace_dvonn(data: Union[str, bytes]) -> GameRecord:
    """A Boardspace DVONN SGF (first game tree) as a record in our notation.

    ``edit`` puts Boardspace in board-editing mode: a record that then changes
    the board is refused (RecordError); ``edit`` followed only by ``resign``
    gives a record with no moves and ``resigned_by`` set.  Nothing after a
    ``resign`` is read.
    """
    nodes = parse_sgf(decode_text(data))
    record = GameRecord(game="dvonn", source=SOURCE_BOARDSPACE)
    game_type = next((n.get("GM") for n in nodes if n.get("GM")), None)
    if game_type is not None and game_type.strip().lower() != "dvonn":
        raise RecordError(f"not a DVONN record: GM[{game_type}]")
    reader = _BoardspaceReader()
    for node in nodes:
        _boardspace_header(record, node)
        acted = _boardspace_player(node)
        if acted is None:
            continue
        side, value = acted
        words = value.split()
        reader.action(int(words[0]), side, words[1:] or ["?"])
        if reader.resigned_by is not None:
            break
    if reader.turn.source is not None and reader.resigned_by is None:
        raise RecordError(f"the record stops in the middle of move {len(reader.moves) + 1}")
    record.moves = reader.moves
    record.resigned_by = reader.resigned_by
    return record


# ---------------------------------------------------------------------------
# LittleGolem DVONN text
# ---------------------------------------------------------------------------

def _read_tags(text: str) -> tuple[dict[str, str], str]:
    """Leading 'Name [value]' pairs, and the rest of the text (the moves)."""
    tags: dict[str, str] = {}
    rest = text.strip()
    while True:
        name, bracket, after = rest.partition("[")
        name = name.strip()
        if not bracket or not name.isalpha():
            return tags, rest
        value, closing, rest = after.partition("]")
        if not closing:
            raise RecordError(f"tag {name} is not closed with ']'")
        tags[name] = value.strip()
        rest = rest.strip()


def _numbered_tokens(movetext: str) -> list[str]:
    """Moves of 'N. white black N+1. ...' in order, checking the numbers."""
    tokens: list[str] = []
    number = 0
    in_pair = 0
    for word in movetext.split():
        if word.endswith(".") and word[:-1].isdigit():
            if number and in_pair != 2:
                raise RecordError(f"move pair {number}. has {in_pair} move(s): "
                                  "only the last pair may have fewer than two")
            number += 1
            if int(word[:-1]) != number:
                raise RecordError(f"move pair {word} found where {number}. was expected")
            in_pair = 0
            continue
        if number == 0:
            raise RecordError(f"{word!r} before the first move number '1.'")
        in_pair += 1
        if in_pair > 2:
            raise RecordError(f"more than two moves after {number}.")
        tokens.append(word)
    if number and in_pair == 0:
        raise RecordError(f"no move after the last move number {number}.")
    return tokens


def read_littlegolem_dvonn(data: Union[str, bytes]) -> GameRecord:
    """A LittleGolem DVONN record; the forced 49th placement (omitted there) is put back."""
    tags, movetext = _read_tags(decode_text(data))
    record = GameRecord(game="dvonn", source=SOURCE_LITTLEGOLEM_DVONN,
                        white=tags.get("White"), black=tags.get("Black"),
                        event=tags.get("Event"))
    tokens = _numbered_tokens(movetext)
    for position, token in enumerate(tokens):
        where = f"LittleGolem move {position // 2 + 1}{'ab'[position % 2]} ({token})"
        if record.resigned_by is not None:
            raise RecordError(f"{where}: a move after the resignation")
        if token.lower() == "resign":
            record.resigned_by = SIDES[position % 2]
            continue
        number = len(record.moves) + 1
        try:
            move = dvonn_from_littlegolem(token)
        except RecordError as e:
            raise RecordError(f"{where}: {e}", move_number=number) from None
        placing = len(record.moves) < DVONN_POINTS - 1
        if _is_placement(move) != placing:
            expected = ("a placement" if placing else "a stack move or pass "
                        "(LittleGolem never writes the forced 49th placement)")
            raise RecordError(f"{where}: expected {expected}", move_number=number)
        record.moves.append(move)
        if len(record.moves) == DVONN_POINTS - 1:
            record.moves.append(_forced_last_placement(record.moves))
    return record


def _forced_last_placement(placements: list[str]) -> str:
    seen: set[str] = set()
    for number, point in enumerate(placements, 1):
        if point in seen:
            raise RecordError(f"move {number}: {point} is placed on twice", move_number=number)
        seen.add(point)
    (empty,) = [p for p in DVONN_BOARD.names if p not in seen]
    return empty


def write_littlegolem_dvonn(record: GameRecord) -> str:
    """The LittleGolem one-line text; the 49th placement is left out, as there."""
    _require_game(record, "dvonn")
    moves = [dvonn_canonical(m) for m in record.moves]
    if len(moves) >= DVONN_POINTS:
        if not _is_placement(moves[DVONN_POINTS - 1]):
            raise RecordError(f"move {DVONN_POINTS} must be the last placement",
                              move_number=DVONN_POINTS)
        del moves[DVONN_POINTS - 1]
    tokens = [dvonn_to_littlegolem(m) for m in moves]
    if record.resigned_by is not None:
        _check_resigner(record.resigned_by, SIDES[len(tokens) % 2], len(record.moves))
        tokens.append("resign")
    pairs = [f"{i // 2 + 1}. {' '.join(tokens[i:i + 2])}" for i in range(0, len(tokens), 2)]
    header = _littlegolem_tags(record)
    return " ".join(header + pairs)


def _littlegolem_tags(record: GameRecord) -> list[str]:
    tags = [("Event", record.event), ("Site", LITTLEGOLEM_SITE),
            ("White", record.white), ("Black", record.black)]
    out = []
    for name, value in tags:
        if value is None:
            continue
        if "]" in value or "[" in value:
            raise RecordError(f"{name} [{value}]: brackets cannot be written in a tag")
        out.append(f"{name} [{value}]")
    return out


def _check_resigner(resigned_by: str, to_move: str, moves: int) -> None:
    if resigned_by not in SIDES:
        raise RecordError(f"resigned_by must be 'w' or 'b', not {resigned_by!r}")
    if resigned_by != to_move:
        raise RecordError(f"{_side_name(resigned_by)} resigns after move {moves}, but it is "
                          f"{_side_name(to_move)}'s turn: LittleGolem writes a resignation "
                          "in the resigner's turn")


def _require_game(record: GameRecord, game: str) -> None:
    if record.game != game:
        raise RecordError(f"a {record.game} record cannot be written as {game}")


# ---------------------------------------------------------------------------
# LittleGolem TZAAR SGF
# ---------------------------------------------------------------------------

def read_littlegolem_tzaar(data: Union[str, bytes]) -> GameRecord:
    """A LittleGolem TZAAR record; turns are replayed to tell captures from stackings."""
    nodes = parse_sgf(decode_text(data))
    root = nodes[0] if nodes else SgfNode()
    if (root.get("FF") or "").strip().upper() != "TZAAR":
        raise RecordError("not a LittleGolem TZAAR record: the root has no FF[TZAAR]")
    pos = root.get("POS")
    record = GameRecord(game="tzaar", source=SOURCE_LITTLEGOLEM_TZAAR,
                        white=root.get("PW"), black=root.get("PB"), event=root.get("EV"),
                        date=root.get("DT"),
                        opening=tzaar_opening_from_pos(pos) if pos is not None else None)
    game = TzaarGame(opening=record.opening)
    for node in nodes[1:]:
        side, value = _tzaar_node_move(node, len(record.moves))
        if value is None:
            continue
        number = len(record.moves) + 1
        if record.resigned_by is not None:
            raise RecordError(f"turn {number}: a move after the resignation", move_number=number)
        if value.strip().lower() == "resign":
            record.resigned_by = side
            continue
        try:
            turn = tzaar_from_littlegolem(value, game.cells, game.side)
            game.play_text(turn)
        except (RecordError, IllegalMove) as e:
            raise RecordError(f"turn {number} ({_side_name(side)}, {value}): {e}",
                              move_number=number) from None
        record.moves.append(turn)
    return record


def _tzaar_node_move(node: SgfNode, turns_before: int) -> tuple[str, Optional[str]]:
    """(side, value) of a W[..]/B[..] node, checking that the sides alternate from White."""
    expected = SIDES[turns_before % 2]
    for ident, side in (("W", "w"), ("B", "b")):
        value = node.get(ident)
        if value is not None:
            if side != expected:
                raise RecordError(f"SGF line {node.line}: {ident}[{value}] but turn "
                                  f"{turns_before + 1} is {_side_name(expected)}'s",
                                  move_number=turns_before + 1)
            return side, value
    return expected, None


def write_littlegolem_tzaar(record: GameRecord) -> str:
    """The LittleGolem SGF-like text; POS for a non-standard opening."""
    _require_game(record, "tzaar")
    root = [("FF", "TZAAR")]
    if record.opening is not None:
        root.append(("VA", "RANDOM"))
    root += [("EV", record.event), ("PB", record.black), ("PW", record.white),
             ("DT", record.date)]
    if record.opening is not None:
        root.append(("POS", tzaar_opening_to_pos(record.opening)))
    root.append(("SO", LITTLEGOLEM_SGF_SOURCE))
    head = "".join(f"{k}[{_sgf_escape(v)}]" for k, v in root if v is not None)
    nodes = [f"{'WB'[i % 2]}[{tzaar_to_littlegolem(turn)}]"
             for i, turn in enumerate(record.moves)]
    if record.resigned_by is not None:
        _check_resigner(record.resigned_by, SIDES[len(record.moves) % 2], len(record.moves))
        nodes.append(f"{record.resigned_by.upper()}[resign]")
    return "(;" + head + "".join(";" + n for n in nodes) + ")"


# ---------------------------------------------------------------------------
# Any record
# ---------------------------------------------------------------------------

def detect_format(text: str) -> str:
    """SOURCE_* name of a record's format, from its text."""
    stripped = text.lstrip()
    if stripped.startswith("("):
        root = parse_sgf(stripped)
        first = root[0] if root else SgfNode()
        if (first.get("FF") or "").strip().lower() == "tzaar":
            return SOURCE_LITTLEGOLEM_TZAAR
        games = {(n.get("GM") or "").strip().lower() for n in root}
        if "dvonn" in games or any(_boardspace_player(n) for n in root):
            return SOURCE_BOARDSPACE
        raise RecordError("an SGF record that is neither Boardspace DVONN nor LittleGolem TZAAR")
    tags, movetext = _read_tags(stripped)
    if tags or movetext.startswith("1."):
        return SOURCE_LITTLEGOLEM_DVONN
    raise RecordError("not a game record: expected an SGF '(;' or LittleGolem 'Event [..] ... 1.'")


READERS: dict[str, Callable[[Union[str, bytes]], GameRecord]] = {
    SOURCE_BOARDSPACE: read_boardspace_dvonn,
    SOURCE_LITTLEGOLEM_DVONN: read_littlegolem_dvonn,
    SOURCE_LITTLEGOLEM_TZAAR: read_littlegolem_tzaar,
}


def read_record(data: Union[str, bytes]) -> GameRecord:
    """Read a record in any supported format (str or raw bytes)."""
    text = decode_text(data)
    return READERS[detect_format(text)](text)


def write_littlegolem(record: GameRecord) -> str:
    """The record in the LittleGolem format of its game."""
    if record.game == "dvonn":
        return write_littlegolem_dvonn(record)
    return write_littlegolem_tzaar(record)


# ---------------------------------------------------------------------------
# Notation by source (for printing moves the way a record writes them)
# ---------------------------------------------------------------------------

def move_to_source_notation(record: GameRecord, move: str) -> str:
    """A move (our notation) as the record's source writes it."""
    if record.game == "tzaar":
        return tzaar_to_littlegolem(move)
    if record.source == SOURCE_BOARDSPACE:
        return dvonn_to_boardspace(move)
    return dvonn_to_littlegolem(move)


# ---------------------------------------------------------------------------
# Replaying
# ---------------------------------------------------------------------------

def new_game(record: GameRecord):
    """A rules object at the record's starting position."""
    if record.game == "dvonn":
        return DvonnGame()
    if record.game == "tzaar":
        return TzaarGame(opening=record.opening)
    raise RecordError(f"unknown game {record.game!r}")


def replay(record: GameRecord, upto: Optional[int] = None):
    """Play the first `upto` moves (all by default); return the game object.

    An illegal move raises RecordError naming the move number, the move and
    the rules' reason.
    """
    game = new_game(record)
    moves = record.moves if upto is None else record.moves[:upto]
    for number, move in enumerate(moves, 1):
        try:
            game.play_text(move)
        except IllegalMove as e:
            mover = _side_name(SIDES[game.side])
            raise RecordError(f"move {number} ({move}, {mover}): {e}",
                              move_number=number) from None
    return game

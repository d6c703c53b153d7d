"""Boardspace DVONN SGF: a stream of user-interface actions, one per node
(``; P0[17 dropb D 3]``), turned into whole moves in our notation."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence, Union

from ...records.base import (
    SIDES,
    GameRecord,
    RecordError,
    clip,
    decode_text,
    quote,
    require_game,
    side_name,
)
from ...records.sgf import SgfNode, parse_sgf, sgf_comment, sgf_escape
from .notation import dvonn_mover, dvonn_point, dvonn_to_boardspace

SOURCE_BOARDSPACE = "boardspace-sgf"  # GameRecord.source of a Boardspace DVONN SGF record
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
        if self.dropped is None:
            raise ValueError("a piece lifted and never dropped")
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
            raise RecordError(f"action {seq}: unknown action {quote(name)}", action=seq)
        if self.editing and name in ("pickb", "dropb", "move", "pick", "drop"):
            raise RecordError(f"action {seq}: {name} after 'edit' changes the board "
                              "outside the rules; such a record cannot be replayed", action=seq)
        try:
            handler(player, args)
        except ValueError as e:
            raise RecordError(f"action {seq} ({clip(' '.join(words))}): {e}",
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
                             f"{len(self.moves) + 1} is {side_name(expected)}'s")
        self.moves.append(self.turn.move())
        self.turn = _BoardspaceTurn()


def _rack_args(args: list[str]) -> None:
    if len(args) != 2 or args[0] not in ("wr", "br") or not args[1].isdigit():
        raise ValueError("expected a rack and a piece: 'wr K' or 'br K'")


def _boardspace_args_point(args: list[str]) -> str:
    if len(args) != 2:
        raise ValueError("a point is a column letter and a row number, e.g. 'E 3'")
    return dvonn_point(args[0] + args[1])


def boardspace_player(node: SgfNode) -> Optional[tuple[str, str]]:
    """(side, action text) of an action node (P0/P1 value starting with its number)."""
    for ident, value in node.props:
        if ident in ("P0", "P1"):
            words = value.split()
            if words and words[0].isascii() and words[0].isdigit() and len(words[0]) <= 9:
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


def read_boardspace_dvonn(data: Union[str, bytes], nodes: Optional[list[SgfNode]] = None) -> GameRecord:
    """A Boardspace DVONN SGF (first game tree) as a record in our notation.

    ``edit`` puts Boardspace in board-editing mode: a record that then changes
    the board is refused (RecordError); ``edit`` followed only by ``resign``
    gives a record with no moves and ``resigned_by`` set.  Nothing after a
    ``resign`` is read.
    """
    if nodes is None:
        nodes = parse_sgf(decode_text(data))
    record = GameRecord(game="dvonn", source=SOURCE_BOARDSPACE)
    game_type = next((n.get("GM") for n in nodes if n.get("GM")), None)
    if game_type is not None and game_type.strip().lower() != "dvonn":
        raise RecordError(f"not a DVONN record: GM[{quote(game_type)}]")
    reader = _BoardspaceReader()
    for node in nodes:
        _boardspace_header(record, node)
        acted = boardspace_player(node)
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


def write_boardspace_dvonn(record: GameRecord, comments: Optional[Sequence[str]] = None) -> str:
    """A Boardspace DVONN SGF written afresh: each move one action node (``dropb D 3``,
    ``move E 3 F 3`` or ``pass``, carrying ``C[comments[k]]`` when given) and a ``done`` node.
    Names, date and result text are kept; the reader gives back the same record."""
    require_game(record, "dvonn")
    head = ["GM[Dvonn]VV[1]"]
    if record.date is not None:
        head.append(f"DT[{sgf_escape(record.date)}]")
    for ident, name in (("P0", record.white), ("P1", record.black)):
        if name is not None:
            head.append(f'{ident}[id "{sgf_escape(name)}"]')
    if record.result_text is not None:
        head.append(f"RE[{sgf_escape(record.result_text)}]")
    nodes = ["; P0[0 Start P0]"]
    seq = 1
    for k, move in enumerate(record.moves):
        player = f"P{SIDES.index(dvonn_mover(k))}"
        nodes.append(f"; {player}[{seq} {dvonn_to_boardspace(move)}]{sgf_comment(comments, k)}")
        nodes.append(f"; {player}[{seq + 1} done]")
        seq += 2
    if record.resigned_by is not None:
        nodes.append(f"; P{SIDES.index(record.resigned_by)}[{seq} resign]")
    return "(;\n" + "\n".join(head + nodes) + "\n)\n"

"""The protocol's record commands: loadrecord and printrecord (engine/records does the formats).

A record's own header (player names, a resignation) travels with the game
object it loaded, so it is forgotten as soon as another command replaces the
game.  Whether the current game can be written as a record is decided from
the game itself: taken back to its first move it must be a starting position
(GameBase.is_start_position).  A setposition of a position in mid-game
therefore cannot be written, a setposition of a start layout can.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..bounded_read import InputError, read_bytes
from ..rules import COLOUR_NAMES
from .arguments import CommandError, arity, whole_number
from .commands import Handler

if TYPE_CHECKING:
    from .server import Server



def _record_source(server: Server):
    """(opening layout or None, moves in our notation) of the current game; CommandError
    if the game does not go back to a starting position."""
    game = server.game
    texts = []
    with game.back_to_start() as moves:
        start_ok = game.is_start_position()
        opening = game.record_opening() if start_ok else None
        for move in moves:
            texts.append(game.move_text(move))
            game.push(move)
    if not start_ok:
        raise CommandError("printrecord needs a game from its start (newgame, loadrecord, or "
                           "setposition of a starting layout); this one was set up in mid-game")
    return opening, texts


def cmd_loadrecord(server: Server, args: list[str]) -> str:
    from .. import records
    usage = "loadrecord <path> [<moves>]"
    if not args:
        raise CommandError(f"wrong number of arguments; usage: {usage}")
    upto = None
    if len(args) > 1 and args[-1].isascii() and args[-1].isdigit():  # however many digits
        upto = whole_number(args[-1], "move count")
        args = args[:-1]
    try:  # a regular file only: a FIFO or /dev/stdin (the protocol itself) would block
        data = read_bytes(" ".join(args), records.MAX_RECORD_BYTES)
    except InputError as e:
        raise CommandError(str(e)) from None
    try:
        record = records.read_record(data)
        if upto is not None and upto > len(record.moves):
            raise CommandError(f"the record has only {len(record.moves)} moves, not {upto}")
        game = records.replay(record, upto)
    except records.RecordError as e:
        raise CommandError(f"bad record: {e}") from None
    played = len(record.moves) if upto is None else upto
    # as after setposition: clear_board starts afresh
    server.set_game(game, (record.game, None), record_header=record, record_length=played)
    reply = f"{played} move{'s' if played != 1 else ''}"
    if record.resigned_by is not None and played == len(record.moves):
        reply += f"; {COLOUR_NAMES['wb'.index(record.resigned_by)].capitalize()} resigned"
    elif game.over:
        reply += f"; game over: {game.result()} ({game.reason})"
    return reply


def cmd_printrecord(server: Server, args: list[str]) -> str:
    from .. import records
    arity(args, 0, usage="printrecord")
    opening, moves = _record_source(server)
    game = server.game
    record = records.GameRecord(game=game.name, moves=moves, opening=opening)
    header = server.record_header
    if header is not None:
        record.white, record.black, record.event, record.date = (
            header.white, header.black, header.event, header.date)
        if header.resigned_by is not None and game.ply == server.record_length == len(header.moves):
            record.resigned_by = header.resigned_by
    try:
        return records.write_littlegolem(record)
    except records.RecordError as e:
        raise CommandError(f"cannot write this game as a record: {e}") from None


COMMANDS: dict[str, Handler] = {  # this module's part of the command table
    "loadrecord": cmd_loadrecord,
    "printrecord": cmd_printrecord,
}

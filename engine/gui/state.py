"""The `state` message: everything the page draws, asked of the session's engine after each
change (the session keeps no rules: board, moves, result all come from the engine)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import clock as clocks
from .board import game_choices, game_look, parse_showboard
from .game_facts import level_limit, point_order
from .replies import parse_fields

if TYPE_CHECKING:
    from .session import Session


async def read_state(session: "Session", pause_if_engine: bool) -> dict:
    ask = session.engine.ask
    session.status = parse_fields(await ask("status"))
    if pause_if_engine:
        session.paused = session.engine_to_move_ignoring_pause()
    clocks.tick(session)
    board = parse_showboard(await ask("showboard"))
    human = session.players.get(session.status.get("to_act", "")) == "human"
    session.legal = []
    turn_actions = 1
    if session.playing() and (human or session.analysis["on"]):
        # a human's moves are built from the list; its longest says how many actions of an
        # analysis line make one move (the best move drawn on the board)
        moves = await ask("legal_moves")
        listed = moves.split("\n") if moves else []
        turn_actions = max((len(move.split()) for move in listed), default=1)
        session.legal = listed if human else []
    history = await ask("move_history")
    if session.view is None:  # else the engine has the moves up to the one shown only
        session.history = [line.split(" ", 1) for line in reversed(history.split("\n")) if line]
    session.position = await ask("position")
    score = await ask("score")
    game = session.status.get("game", "")
    level = session.level_range
    return {
        "type": "state", "status": session.status, "board": board.to_json(),
        "legal": session.legal, "look": game_look(game), "games": game_choices(),
        "history": session.history, "view": session.view, "game_id": session.game_id,
        "position": session.position, "score": score, "turn_actions": turn_actions,
        "players": session.players, "time": session.time, "analysis": session.analysis,
        "paused": session.paused and session.engine_to_move_ignoring_pause(),
        "resigned": session.resigned, "flagged": session.flagged, "layout": session.layout,
        "clock": session.clock.to_json() if session.time["mode"] == "game" else None,
        "cells": point_order(game),
        "level": None if level is None else
        {"value": session.level, "low": level[0], "high": level[1],
         "limit": level_limit(game, session.level)},
    }

"""One browser session: its own engine process, who plays which side, the clock, and what the page
is told after every change.

Requests (checked by messages.py) become protocol commands; the engine's replies become `state`
messages. The session keeps no game rules of its own: the board, the legal moves, the move list,
the result all come from the engine after each change.
"""
from __future__ import annotations

import asyncio
import logging
import os
import secrets
import shutil
import tempfile
import time
from typing import Callable, Optional, TypedDict

from ..client import AsyncEngineProcess as EngineProcess
from ..client import EngineDied, Limit
from ..client import EngineRefused as EngineError
from ..games import DEFAULT_GAME, GAMES
from . import clock as clocks
from . import live, navigation
from .board import parse_showboard
from .clock import GameClock
from .game_facts import is_fixed_start
from .replies import parse_int_option
from .review_job import ReviewJob
from .state import read_state

log = logging.getLogger("engine.gui")

RESIGNED = {"White resigned": "w", "Black resigned": "b"}  # loadrecord's reply (protocol.md 5.5)
RESTARTS_ALLOWED = 3       # within RESTART_WINDOW_S: an engine that keeps dying is given up
RESTART_WINDOW_S = 30.0


def analysis_default(players: dict) -> bool:
    """Live analysis shows the engine's best move: on when people analyse a game among
    themselves, off when one of them plays the engine."""
    return all(who == "human" for who in players.values())


class TimeControl(TypedDict):
    mode: str   # "move": ms per move; "game": ms for the whole game
    ms: int


class Session:
    def __init__(self, engine_argv: list[str], engine_env: Optional[dict],
                 outbox: Callable[[dict], None]) -> None:
        self.engine_argv = engine_argv
        self.engine_env = engine_env
        self.send = outbox
        self._engine: Optional[EngineProcess] = None
        self.requests: asyncio.Queue = asyncio.Queue()
        self.players = {"w": "human", "b": "engine"}
        self.time: TimeControl = {"mode": "move", "ms": 1000}
        self.analysis = {"on": analysis_default(self.players), "multipv": 1}
        self.present = True                     # someone looks at the page (it says when not)
        self.level_range: Optional[tuple[int, int]] = None   # when the engine has `level`
        self.level: Optional[int] = None
        self.resigned: Optional[str] = None     # the side that resigned in a loaded record
        self.paused = False
        self.thinking = False
        self.setup = f"newgame {DEFAULT_GAME}"  # the command that starts the current game
        self.history: list[list[str]] = []      # [mover, move], oldest first: the whole game
        self.view: Optional[int] = None         # the ply shown, when not the game's end
        self.game_id = 0                        # a new one whenever the game is not the same
        self.layout: Optional[dict] = None      # {"opening": "fixed"|"random", "seed": …}
        self.clock = GameClock()
        self.clock_timer: Optional[asyncio.TimerHandle] = None
        self.flagged: Optional[str] = None      # the side whose time ran out
        self.status: dict = {}
        self.legal: list[str] = []
        self.position = ""
        self.analysed: Optional[tuple] = None   # (position, multipv) of the last live analysis
        self.restarts: list[float] = []
        self.watchers: set[asyncio.Task] = set()
        self.closing = False
        self.tmpdir = tempfile.mkdtemp(prefix="gipf-gui-")
        self.records = 0
        self.review = ReviewJob(engine_argv, outbox, engine_env)

    # --- engine life -------------------------------------------------------------------------
    @property
    def engine(self) -> EngineProcess:
        if self._engine is None:
            raise RuntimeError("the session's engine was never started")
        return self._engine

    async def start_engine(self) -> None:
        self._engine = EngineProcess(self.engine_argv, self.engine_env)
        try:
            await self.engine.start()
        except OSError as e:
            raise EngineDied(f"cannot start the engine: {e}") from None
        self.watchers.add(asyncio.create_task(self.watch(self.engine)))
        await self.engine.ask("option info off")  # search progress is not wanted on stderr
        self.level_range = parse_int_option(await self.engine.ask("option"), "level")
        if self.level_range is not None:
            low, high = self.level_range
            if self.level is None or not low <= self.level <= high:
                self.level = (low + high) // 2  # a middle level: full strength beats people
            await self.engine.ask(f"option level {self.level}")
        await self.apply_time()
        if self.analysis["multipv"] != 1:
            await self.engine.ask(f"option multipv {self.analysis['multipv']}")

    async def apply_time(self) -> None:
        if self.time["mode"] == "move":
            await self.engine.set_clock(None)
            await self.engine.set_limit(Limit(time_ms=self.time["ms"]))
        else:
            await self.engine.set_limit(Limit(time_ms=0))
            await self.engine.set_clock(self.time["ms"])

    async def restart(self, reason: str) -> None:
        """A dead engine is replaced and the game put back: the start command, then its moves."""
        now = time.monotonic()
        self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW_S] + [now]
        if self._engine is not None:
            tail = " / ".join(self.engine.stderr_tail)
            log.warning("engine %s died (%s); stderr: %s", self.engine.pid, reason, tail[-500:])
            await self.engine.close()
        if len(self.restarts) > RESTARTS_ALLOWED:
            raise EngineDied(f"the engine keeps stopping ({reason}); reload the page to try again")
        self.thinking = False
        self.analysed = None
        await self.start_engine()
        try:
            await self.restore_game()
            restored = "the game was restored"
        except EngineError as e:
            log.warning("could not restore the game after a restart: %s", e)
            self.setup = f"newgame {DEFAULT_GAME}"
            self.resigned = None
            await self.engine.ask(self.setup)
            restored = f"the game could not be restored, a new {GAMES[DEFAULT_GAME].title} game was started"
        self.paused = True
        self.send({"type": "notice", "message": f"The engine stopped ({reason}) and was "
                   f"restarted; {restored}."})

    async def restore_game(self) -> None:
        """Put the game back in the engine: its start command, then its moves (up to the
        position shown)."""
        moves = [move for _, move in self.history[:self.view]]
        await self.engine.ask(self.setup)
        if moves:
            await self.engine.ask("replay " + " ".join(moves))

    async def watch(self, engine: EngineProcess) -> None:
        """An engine that ends while nobody asks it anything is restarted at once, not at the
        page's next request."""
        assert engine.proc is not None, "watched only once started"
        status = await engine.proc.wait()
        if engine is self._engine and not self.closing:
            await self.requests.put({"type": "engine_ended", "status": status})

    async def close(self) -> None:
        self.closing = True
        clocks.stop_timer(self)
        for watcher in self.watchers:
            watcher.cancel()
        await self.review.close()
        if self._engine is not None:
            # a search (even one whose task was just cancelled) ends at the interrupt and quit
            # is read at once; with nothing running the line is a comment
            await self.engine.interrupt()
            await self.engine.close()
        shutil.rmtree(self.tmpdir, ignore_errors=True)

    # --- the loop -------------------------------------------------------------------------------
    async def run(self) -> None:
        """Serve requests until None arrives; the engine moves whenever it is its turn."""
        try:
            await self.serve()
        except Exception as e:  # noqa: BLE001 - a bug ends this session, said on the page
            log.exception("session failed")
            self.send({"type": "fatal", "message": f"internal error: {type(e).__name__}: {e}"})

    async def serve(self) -> None:
        await self.guarded(self.begin)
        while not self.closing:
            if self.requests.empty() and self.engine_to_move():
                await self.guarded(self.engine_move)
                continue
            if self.requests.empty():
                await self.guarded(live.maybe_analyse, self)
            request = await self.requests.get()
            if request is None:
                return
            await self.guarded(self.handle, request)

    async def begin(self) -> None:
        await self.start_engine()
        await self.engine.ask(self.setup)
        await self.refresh()

    async def guarded(self, action, *args) -> None:
        """Run one step: a refused command is told to the page, a dead engine restarted."""
        try:
            try:
                await action(*args)
            except EngineError as e:
                self.send({"type": "error", "message": str(e)})
                await self.refresh()  # the page may have shown a half-built move
        except EngineError as e:
            log.warning("refresh failed: %s", e)
        except EngineDied as e:
            if self.closing:  # the engine was ended with the session: nothing to restart
                return
            try:
                await self.restart(str(e))
                await self.refresh()
            except (EngineDied, EngineError) as final:
                self.send({"type": "fatal", "message": str(final)})
                await self.requests.put(None)

    def engine_to_move(self) -> bool:
        return (bool(self.status) and self.playing() and not self.paused and self.view is None
                and self.players.get(self.status.get("to_act", "")) == "engine")

    def playing(self) -> bool:
        """The game goes on: not over by the rules, nobody resigned, no flag fell."""
        return self.status.get("over") == "no" and self.resigned is None and self.flagged is None

    def interrupt(self) -> None:
        """Out of turn (the request queue waits behind a search): stop the engine's thinking."""
        self.paused = True
        if self._engine is not None and self.thinking:
            asyncio.ensure_future(self.engine.interrupt())

    # --- requests -----------------------------------------------------------------------------
    async def handle(self, request: dict) -> None:
        kind = request["type"]
        if kind == "engine_ended":  # from watch(), never from the page (messages.py)
            if not self.engine.alive:
                raise EngineDied(f"its process ended with status {request['status']}")
        elif kind == "newgame":
            await self.new_game(request)
        elif kind == "play":
            await self.play(request["move"])
        elif kind == "view":
            await navigation.goto(self, request["ply"])
        elif kind == "cut":
            await navigation.cut(self)
        elif kind == "hint":
            await live.hint(self)
        elif kind == "flag":  # from the clock's timer, never from the page
            await self.refresh()
        elif kind == "preview":
            await self.preview(request["actions"])
        elif kind == "undo":
            await self.undo()
        elif kind == "go":
            navigation.refuse_at_view(self, "the engine can move")
            if not self.playing():
                raise EngineError("the game is over: there is no move to play")
            if self.engine_to_move():  # it moves as soon as this request is served
                self.send({"type": "notice", "message": "The engine is to move already"})
                return
            self.paused = False
            await self.engine_move()
        elif kind == "players":
            players = {"w": request["w"], "b": request["b"]}
            if analysis_default(players) != analysis_default(self.players):
                await self.set_analysis(analysis_default(players), self.analysis["multipv"])
            self.players = players
            self.paused = False
            await self.refresh()
        elif kind == "level":
            await self.set_level(request["level"])
        elif kind == "attention":
            self.present = request["present"]
            if not self.present and self.engine.analysing:
                await self.engine.ask("status")  # any line ends the live analysis
            self.analysed = None  # back again: the position is analysed anew
        elif kind == "time":
            self.time = {"mode": request["mode"], "ms": request["ms"]}
            await self.apply_time()
            clocks.restart_clock(self)
            await self.refresh()
        elif kind == "setposition":
            await self.start_game(f"setposition {request['position']}", pause=True)
        elif kind == "loadrecord":
            await self.load_record(request["content"])
        elif kind == "record":
            text = await navigation.whole_game(self, "printrecord")
            suffix = ".sgf" if text.startswith("(;") else ".txt"
            self.send({"type": "record", "text": text,
                       "filename": f"{self.status.get('game', 'game')}-record{suffix}"})
        elif kind == "review":
            await self.start_review(request)
        elif kind == "analysis":
            await self.set_analysis(request["on"], request["multipv"])
            await self.refresh()

    async def set_level(self, level: int) -> None:
        if self.level_range is None:
            raise EngineError("this engine has no levels")
        low, high = self.level_range
        if not low <= level <= high:
            raise EngineError(f"the engine's levels are {low} to {high} ({low} weakest, "
                              f"{high} full strength), not {level}")
        await self.engine.ask(f"option level {level}")
        self.level = level
        await self.refresh()
        self.send({"type": "notice", "message": f"Engine level {level} from its next move "
                   f"({low} weakest, {high} full strength)"})

    async def set_analysis(self, on: bool, multipv: int) -> None:
        if self.analysis["multipv"] != multipv:
            await self.engine.ask(f"option multipv {multipv}")
        self.analysis = {"on": on, "multipv": multipv}
        if not on and self.engine.analysing:
            await self.engine.ask("status")  # any line ends the live analysis
        self.analysed = None

    async def new_game(self, request: dict) -> None:
        words = ["newgame", request["game"]]
        layout = None
        if request["opening"] is not None:
            words.append(request["opening"])
            layout = {"opening": request["opening"], "seed": None}
        if request["opening"] == "random":
            seed = request["seed"] if request["seed"] is not None else secrets.randbelow(2 ** 32)
            words.append(str(seed))
            layout = {"opening": "random", "seed": seed}
        await self.start_game(" ".join(words), pause=False, layout=layout)

    async def start_game(self, command: str, pause: bool, layout: Optional[dict] = None) -> None:
        reply = await self.engine.ask(command)
        self.setup = command
        self.new_line(layout)
        if self.time["mode"] == "game":  # the clock is not reset by newgame (protocol.md 6.2)
            await self.apply_time()
        await self.refresh(pause_if_engine=pause)
        if reply:
            self.send({"type": "notice", "message": reply})

    def new_line(self, layout: Optional[dict]) -> None:
        """Another game from here on: its own review, layout and clock."""
        self.resigned = None
        self.paused = False
        self.view = None
        self.flagged = None
        self.layout = layout
        self.changed()
        clocks.restart_clock(self)

    def changed(self) -> None:
        """The game is no longer the one a review was made of."""
        self.game_id += 1
        self.review.cancel()

    async def load_record(self, content: str) -> None:
        self.records += 1
        path = os.path.join(self.tmpdir, f"record-{self.records}.txt")
        if "#" in path or "  " in path or any(c in path for c in "\t\r\n"):
            raise EngineError(f"the temporary folder {self.tmpdir!r} cannot be named in a command")
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)
        reply = await self.engine.ask(f"loadrecord {path}")
        self.setup = f"loadrecord {path} 0"  # with the moves replayed after it, on a restart
        start = await self.start_position()
        game = start.split()[0]
        self.new_line({"opening": "fixed" if is_fixed_start(game, start) else "random",
                       "seed": None} if GAMES[game].has_openings else None)
        self.resigned = next((side for words, side in RESIGNED.items() if words in reply), None)
        if self.time["mode"] == "game":
            await self.apply_time()
        await self.refresh(pause_if_engine=True)
        self.send({"type": "notice", "message": f"Record loaded: {reply}"})

    async def start_position(self) -> str:
        """The position before the first move of the game in the engine."""
        moves = [line.split(" ", 1)[1] for line in
                 reversed((await self.engine.ask("move_history")).split("\n")) if line]
        if not moves:
            return await self.engine.ask("position")
        await self.engine.ask(f"undo {len(moves)}")
        try:
            return await self.engine.ask("position")
        finally:
            await self.engine.ask("replay " + " ".join(moves))

    async def start_review(self, request: dict) -> None:
        """Review the game as played so far (its record from the engine), in the background."""
        if self.review.running:
            raise EngineError("a review is already running: wait for it or cancel it")
        if not self.history:
            raise EngineError("there is no move to review")
        record = await navigation.whole_game(self, "printrecord")
        limits = {key: request[key] for key in ("depth", "movetime") if key in request}
        self.review.start(record, limits, self.game_id)
        self.send({"type": "review_start", "moves": len(self.history), "limits": limits,
                   "game_id": self.game_id})

    async def play(self, move: str) -> None:
        navigation.refuse_at_view(self, "a move can be played")
        if not self.playing():
            raise EngineError("the game is over: there is no move to play")
        if self.players.get(self.status.get("to_act", "")) != "human":
            raise EngineError("it is not a human player's turn")
        if move not in self.legal:  # only the engine's own legal moves are ever sent back
            raise EngineError(f"not a legal move here: {move}")
        await self.engine.ask(f"play {self.status['to_act']} {move}")
        self.resigned = None
        self.paused = False
        await self.refresh()

    async def preview(self, actions: list[str]) -> None:
        """The board after the first actions of a turn, while the player chooses the rest: the
        engine plays the legal turn that goes on with passes only, draws it and takes it back."""
        if not self.playing() or self.players.get(self.status.get("to_act", "")) != "human":
            raise EngineError("there is no turn being built now")
        turn = next((move for move in self.legal if move.split()[:len(actions)] == actions
                     and all(word == "pass" for word in move.split()[len(actions):])), None)
        if turn is None:
            raise EngineError(f"no legal turn begins with {' '.join(actions)}")
        await self.engine.ask(f"play {self.status['to_act']} {turn}")
        try:
            board = parse_showboard(await self.engine.ask("showboard"))
            score = await self.engine.ask("score")
        finally:
            await self.engine.ask("undo")
        self.send({"type": "preview", "actions": actions, "position": self.position,
                   "board": board.to_json(), "score": score})

    async def undo(self) -> None:
        """Back to the last position where a human is to act (one move when engines play both)."""
        navigation.refuse_at_view(self, "a move can be taken back")
        if not self.history:
            raise EngineError("there is no move to undo")
        count = 1
        humans = [side for side, who in self.players.items() if who == "human"]
        if humans:
            # after undoing `count` moves, the mover of history[-count] is to act again
            while count < len(self.history) and self.history[-count][0][0] not in humans:
                count += 1
        await self.engine.ask(f"undo {count}")
        self.resigned = None
        self.flagged = None
        self.changed()
        await self.refresh(pause_if_engine=True)
        self.send({"type": "notice", "message": f"Took back {count} move{'s' if count > 1 else ''}"})

    async def engine_move(self) -> None:
        side = self.status["to_act"]
        self.thinking = True
        self.send({"type": "thinking", "side": side})
        try:
            budget_s = self.time["ms"] / 1000
            move = await self.engine.ask(f"genmove {side}", timeout=budget_s + 30)
        finally:
            self.thinking = False
        self.send({"type": "engine_move", "side": side, "move": move})
        await self.refresh()

    async def refresh(self, pause_if_engine: bool = False) -> None:
        """Ask the engine for everything the page shows and send it as one `state` message;
        pause_if_engine: the engine waits for `go` if it is to move (after undo, loads)."""
        self.send(await read_state(self, pause_if_engine))

    def engine_to_move_ignoring_pause(self) -> bool:
        return self.playing() and self.players.get(self.status.get("to_act", "")) == "engine"

"""The GUI server through Starlette's test client: pages, safety, and sessions that drive a real
engine process over the protocol."""
from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import threading

import pytest

pytest.importorskip("starlette", reason="the GUI's extra is not installed: pip install '.[gui]'")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (the test extra)")

from starlette.testclient import TestClient  # noqa: E402 - after the skips when the GUI extra is missing
from starlette.websockets import WebSocketDisconnect  # noqa: E402 - after the skips when the GUI extra is missing

from engine.gui.app import create_app  # noqa: E402 - after the skips when the GUI extra is missing
from engine.gui.board import game_look  # noqa: E402 - after the skips when the GUI extra is missing
from engine.gui.looks import LOOKS  # noqa: E402 - after the skips when the GUI extra is missing

BASE = "http://127.0.0.1:8765"
ORIGIN = {"origin": BASE}
WS = "ws://127.0.0.1:8765/ws"  # the test client would use its own host name for "/ws"
DVONN_RECORD = "Site [www.littlegolem.net] 1. d3 e3 2. f3"


@pytest.fixture
def app():
    return create_app(max_sessions=2)


@pytest.fixture
def client(app):
    with TestClient(app, base_url=BASE) as test_client:
        yield test_client


WAIT_S = 120  # an upper bound against hanging, not a timing check


class Page:
    """A WebSocket session read by a thread, so that a wait has a bound: a silent server fails
    the test, with the last messages, instead of hanging the suite."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.inbox: queue.Queue = queue.Queue()
        self.seen: collections.deque = collections.deque(maxlen=12)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        try:
            while True:
                self.inbox.put(self.ws.receive_json())
        except Exception as e:  # noqa: BLE001 - the socket closed: say so to the reader
            self.inbox.put(e)

    def receive_json(self) -> dict:
        try:
            message = self.inbox.get(timeout=WAIT_S)
        except queue.Empty:
            pytest.fail(f"nothing from the server for {WAIT_S} s after {list(self.seen)}")
        if isinstance(message, Exception):
            raise message
        self.seen.append(message["type"])
        return message

    def send_json(self, data) -> None:
        self.ws.send_json(data)

    def send_text(self, text: str) -> None:
        self.ws.send_text(text)


def receive_until(ws, kind: str, predicate=lambda m: True, limit: int = 200) -> dict:
    """The next message of that kind (meeting the predicate); errors fail the test."""
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == "fatal":
            pytest.fail(f"session ended: {message['message']}")
        if message["type"] == kind and predicate(message):
            return message
    pytest.fail(f"no {kind} message among {limit}")


@contextlib.contextmanager
def connect(client, time_ms: int = 30):
    """A session with analysis off and a quick engine."""
    with client.websocket_connect(WS, headers=ORIGIN) as socket:
        ws = Page(socket)
        receive_until(ws, "state")
        ws.send_json({"type": "analysis", "on": False, "multipv": 1})
        receive_until(ws, "state")
        ws.send_json({"type": "time", "mode": "move", "ms": time_ms})
        receive_until(ws, "state", lambda m: m["time"]["ms"] == time_ms)
        yield ws


def the_session(app):
    (session,) = app.state.sessions
    return session


def test_the_page_and_its_assets_are_served_with_a_strict_policy(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="board"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset in ("gui.js", "board.js", "style.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    assert client.get("/static/../app.py").status_code == 404


def test_only_loopback_host_names_are_served(app):
    with TestClient(app, base_url="http://evil.example") as other:
        assert other.get("/").status_code == 400


@pytest.mark.parametrize("origin", [{"origin": "http://evil.example"}, {}])
def test_a_websocket_from_another_page_is_refused(client, origin):
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect(WS, headers=origin) as ws:
            ws.receive_json()
    assert refused.value.code == 1008  # policy violation


def test_sessions_are_limited(client, app):
    with connect(client), connect(client):
        with client.websocket_connect(WS, headers=ORIGIN) as third:
            message = third.receive_json()
            assert message["type"] == "fatal" and "too many sessions" in message["message"]
        assert len(app.state.sessions) == 2


def test_a_human_move_gets_the_engine_reply_and_undo_takes_both_back(client):
    with connect(client) as ws:
        ws.send_json({"type": "play", "move": "D3"})
        reply = receive_until(ws, "engine_move")
        assert reply["side"] == "b"
        state = receive_until(ws, "state")
        assert state["history"] == [["white", "D3"], ["black", reply["move"]]]
        assert state["status"]["to_act"] == "w" and "D3" not in state["legal"]
        board = {p["name"]: p for p in state["board"]["points"]}
        assert board["D3"]["top"] == "R" and board["D3"]["height"] == 1
        ws.send_json({"type": "undo"})
        state = receive_until(ws, "state")
        assert state["history"] == [] and len(state["legal"]) == 49
        assert receive_until(ws, "notice")["message"] == "Took back 2 moves"
        ws.send_json({"type": "time", "mode": "game", "ms": 3000})  # a whole-game budget now
        receive_until(ws, "state", lambda m: m["time"]["mode"] == "game")
        ws.send_json({"type": "play", "move": "E4"})
        assert receive_until(ws, "engine_move")["side"] == "b"


def test_moves_are_checked_against_legal_moves_and_requests_against_their_schema(client, app):
    with connect(client) as ws:
        for bad in ({"type": "play", "move": "D3\nquit"}, {"type": "play", "move": "D3 # x"},
                    {"type": "setposition", "position": "dvonn w place x\nquit"},
                    {"type": "newgame", "game": "dvonn\nquit"}, {"type": "time", "mode": "move", "ms": 1},
                    {"type": "quit"}, {"type": "play"}):
            ws.send_json(bad)
            assert receive_until(ws, "error")["message"].startswith("bad request")
        ws.send_text("not json")
        assert receive_until(ws, "error")["message"] == "bad request: not JSON"
        ws.send_json({"type": "play", "move": "D3-E3"})  # well formed, but not in legal_moves
        assert "not a legal move" in receive_until(ws, "error")["message"]
        ws.send_json({"type": "play", "move": "E4"})
        receive_until(ws, "engine_move")
        assert the_session(app).engine.alive


def test_tzaar_random_layout_and_two_action_turns(client):
    with connect(client) as ws:
        ws.send_json({"type": "players", "w": "human", "b": "human"})
        receive_until(ws, "state")
        ws.send_json({"type": "newgame", "game": "tzaar", "opening": "random", "seed": 5})
        state = receive_until(ws, "state", lambda m: m["status"]["game"] == "tzaar")
        assert state["position"].startswith("tzaar w opening a,C,b,b,C/A,c,a,b,c,B/")
        points = state["board"]["points"]
        assert len(points) == 61 and [p["name"] for p in points if p["hole"]] == ["E5"]
        ws.send_json({"type": "play", "move": state["legal"][0]})
        state = receive_until(ws, "state", lambda m: m["history"])
        assert all(len(move.split()) == 2 for move in state["legal"][:50])


def test_the_board_after_the_first_action_of_a_turn_is_the_engines(client, app):
    with connect(client) as ws:
        ws.send_json({"type": "players", "w": "human", "b": "human"})
        receive_until(ws, "state")
        ws.send_json({"type": "newgame", "game": "tzaar", "opening": "fixed"})
        receive_until(ws, "state", lambda m: m["status"]["game"] == "tzaar")
        ws.send_json({"type": "play", "move": "D6xE7"})
        state = receive_until(ws, "state", lambda m: m["history"])
        first = "F4xG4"  # a black Tott takes a white Tzaar
        ws.send_json({"type": "preview", "actions": [first]})
        preview = receive_until(ws, "preview")
        assert preview["actions"] == [first] and preview["position"] == state["position"]
        drawn = {p["name"]: (p["top"], p["height"]) for p in preview["board"]["points"]}
        assert drawn["F4"] == (None, 0) and drawn["G4"] == ("C", 1)
        assert preview["score"] == "white tzaar 5 tzarra 9 tott 15 black tzaar 5 tzarra 9 tott 15"
        ws.send_json({"type": "players", "w": "human", "b": "human"})  # the engine asked anew
        again = receive_until(ws, "state")
        assert again["position"] == state["position"] and again["history"] == state["history"]
        ws.send_json({"type": "preview", "actions": ["D6xE7"]})
        assert receive_until(ws, "error")["message"] == "no legal turn begins with D6xE7"


def test_a_record_is_uploaded_by_content_and_downloaded_again(client):
    with connect(client) as ws:
        ws.send_json({"type": "players", "w": "human", "b": "human"})
        receive_until(ws, "state")
        ws.send_json({"type": "loadrecord", "content": DVONN_RECORD})
        state = receive_until(ws, "state", lambda m: m["history"])
        assert state["history"] == [["white", "D3"], ["black", "E3"], ["white", "F3"]]
        assert receive_until(ws, "notice")["message"] == "Record loaded: 3 moves"
        ws.send_json({"type": "record"})
        record = receive_until(ws, "record")
        assert record["text"] == DVONN_RECORD and record["filename"] == "dvonn-record.txt"
        ws.send_json({"type": "loadrecord", "content": "not a record"})
        assert receive_until(ws, "error")["message"].startswith("bad record")


def test_a_position_string_is_set_and_the_engine_then_waits(client):
    with connect(client) as ws:
        position = ("dvonn b move R,W,W,B,B,-,-,-,R/-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,-,-,-,-/"
                    "-,-,-,-,-,-,-,-,-,-/-,-,-,-,-,-,-,RB,B")
        ws.send_json({"type": "setposition", "position": position})
        state = receive_until(ws, "state", lambda m: m["position"] == position)
        assert state["paused"] and state["legal"] == []  # Black is the engine's: it waits for go
        marked = [p["name"] for p in state["board"]["points"] if p["marked"]]
        assert marked == ["J5"]
        ws.send_json({"type": "go"})
        receive_until(ws, "engine_move")


def test_a_dead_engine_is_restarted_with_the_game_restored(client, app):
    with connect(client) as ws:
        ws.send_json({"type": "play", "move": "D3"})
        before = receive_until(ws, "state", lambda m: len(m["history"]) == 2)
        session = the_session(app)
        old = session.engine.proc
        old.kill()  # while the human thinks: the page hears of it without asking
        notice = receive_until(ws, "notice")
        assert "restarted" in notice["message"] and "restored" in notice["message"]
        state = receive_until(ws, "state")
        assert state["history"] == before["history"] and state["position"] == before["position"]
        assert session.engine.proc is not old and session.engine.alive


def test_the_engine_is_ended_with_its_session(client, app):
    with connect(client):
        proc = the_session(app).engine.proc
    assert not app.state.sessions
    assert proc.returncode is not None


def test_the_messages_are_json_for_the_page(client):
    with connect(client) as ws:
        ws.send_json({"type": "record"})
        record = receive_until(ws, "record")
        assert json.loads(json.dumps(record)) == record and record["text"] == "Site [www.littlegolem.net]"


def test_live_analysis_streams_lines_while_the_human_thinks_and_stops_at_the_move(client):
    with connect(client) as ws:
        ws.send_json({"type": "analysis", "on": True, "multipv": 2})
        receive_until(ws, "analysis_start")
        seen = {receive_until(ws, "info")["info"]["multipv"] for _ in range(4)}
        assert seen == {1, 2}
        info = receive_until(ws, "info")["info"]
        assert set(info) >= {"multipv", "move", "score", "depth", "nodes", "pv"}
        assert info["pv"][0] == info["move"]
        ws.send_json({"type": "play", "move": "D3"})
        end = receive_until(ws, "analysis_end")
        assert end["bestmove"]
        state = receive_until(ws, "state", lambda m: m["history"])  # the move came after the stop
        assert state["history"][0] == ["white", "D3"]


def test_stop_interrupts_the_engine_and_pauses_engine_against_engine(client, app):
    with connect(client) as ws:
        ws.send_json({"type": "time", "mode": "move", "ms": 86_400_000})  # a day per move
        receive_until(ws, "state", lambda m: m["time"]["ms"] == 86_400_000)
        ws.send_json({"type": "players", "w": "engine", "b": "engine"})
        receive_until(ws, "thinking")
        engine = the_session(app).engine.proc
        # should the interrupt not work, kill the engine: the restart notice then fails the test
        watchdog = threading.Timer(60, engine.kill)
        watchdog.start()
        try:
            ws.send_json({"type": "stop"})
            message = None
            while message is None or message["type"] not in ("engine_move", "notice"):
                message = ws.receive_json()
        finally:
            watchdog.cancel()
        assert message["type"] == "engine_move"
        state = receive_until(ws, "state")
        assert state["paused"] and len(state["history"]) == 1 and state["players"]["b"] == "engine"


def test_closing_the_tab_while_the_engine_thinks_for_a_day_ends_it(client, app):
    with connect(client) as ws:
        if the_session(app).level_range is not None:  # full strength: a search of the whole time
            ws.send_json({"type": "level", "level": the_session(app).level_range[1]})
            receive_until(ws, "state")
        ws.send_json({"type": "time", "mode": "move", "ms": 86_400_000})
        receive_until(ws, "state", lambda m: m["time"]["ms"] == 86_400_000)
        ws.send_json({"type": "players", "w": "engine", "b": "engine"})
        receive_until(ws, "thinking")
        engine = the_session(app).engine.proc
    assert not app.state.sessions and engine.returncode == 0  # it quit: it was not killed


def test_an_engine_that_cannot_start_is_reported_on_the_page():
    app = create_app(engine_argv=["/nonexistent/gipf-engine"])
    with TestClient(app, base_url=BASE) as test_client:
        with test_client.websocket_connect(WS, headers=ORIGIN) as ws:
            message = ws.receive_json()
            assert message["type"] == "fatal" and "cannot start the engine" in message["message"]


@pytest.mark.parametrize("game", [{"game": "dvonn"}, {"game": "tzaar", "opening": "fixed"}])
def test_the_engine_plays_itself_to_the_end(client, game):
    with connect(client, time_ms=10) as ws:
        ws.send_json({"type": "newgame", **game})
        receive_until(ws, "state", lambda m: m["status"]["game"] == game["game"])
        ws.send_json({"type": "players", "w": "engine", "b": "engine"})
        state = receive_until(ws, "state", lambda m: m["status"]["over"] == "yes", limit=2000)
        assert state["board"]["footer"].startswith(f"game over: {state['status']['result']} (")
        assert len(state["history"]) == int(state["status"]["ply"]) and state["legal"] == []


def test_the_command_line_refuses_a_bad_port_in_one_line():
    import subprocess
    import sys

    from conftest import REPO
    done = subprocess.run([sys.executable, "-m", "engine.gui", "--port", "70000"], cwd=str(REPO),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines()[-1] == \
        "gipf-gui: error: argument --port: a whole number from 0 to 65535"


def test_a_review_runs_beside_the_game_and_shows_its_positions(client, app):
    from conftest import HAND_BUILT_TZAAR

    from engine.review import Limits, read_record, review_record
    with connect(client) as ws:
        ws.send_json({"type": "players", "w": "human", "b": "human"})
        receive_until(ws, "state")
        ws.send_json({"type": "review", "depth": 2, "movetime": 100})
        assert "either depth or movetime" in receive_until(ws, "error")["message"]
        ws.send_json({"type": "review", "depth": 2})
        assert receive_until(ws, "error")["message"] == "there is no move to review"
        ws.send_json({"type": "loadrecord", "content": HAND_BUILT_TZAAR})
        game = receive_until(ws, "state", lambda m: m["history"])
        ws.send_json({"type": "review", "depth": 2})
        assert receive_until(ws, "review_start")["moves"] == 23
        ws.send_json({"type": "review", "depth": 2})
        assert "already running" in receive_until(ws, "error")["message"]
        progress = receive_until(ws, "review_progress", lambda m: m["done"] == m["total"])
        report = receive_until(ws, "review_result")["report"]
        expected = review_record(read_record(HAND_BUILT_TZAAR.encode()), limits=Limits(depth=2))
        assert progress["total"] == len(report["moves"]) == len(expected.moves) == 23
        assert [m["mark"] for m in report["moves"]] == [m.mark for m in expected.moves]
        assert report["moves"][21]["mark"] == "blunder" and report["limits"] == {"depth": 2}
        assert len(report["white_scores"]) == 24
        ws.send_json({"type": "view", "ply": 5})  # a move of the review: the game at it
        shown = receive_until(ws, "state")
        assert shown["position"] == report["moves"][5]["position"] and shown["view"] == 5
        assert shown["board"] != game["board"] and len(shown["history"]) == 23
        ws.send_json({"type": "view", "ply": 24})
        assert "there is no position after 24" in receive_until(ws, "error")["message"]
        ws.send_json({"type": "record"})  # the whole game, whatever position is shown
        assert receive_until(ws, "record")["text"].count(";") == 24
        ws.send_json({"type": "undo"})
        assert "End goes back to the game" in receive_until(ws, "error")["message"]
        ws.send_json({"type": "view", "ply": 23})
        receive_until(ws, "state", lambda m: m["view"] is None)
        ws.send_json({"type": "undo"})
        assert len(receive_until(ws, "state")["history"]) == 22


def test_a_review_is_cancelled_on_request_and_with_its_session(client, app):
    from conftest import HAND_BUILT_TZAAR
    with connect(client) as ws:
        ws.send_json({"type": "loadrecord", "content": HAND_BUILT_TZAAR})
        receive_until(ws, "state", lambda m: m["history"])
        ws.send_json({"type": "review", "movetime": 200})
        receive_until(ws, "review_start")
        ws.send_json({"type": "review_cancel"})
        assert receive_until(ws, "review_error")["message"] == "review cancelled"
        ws.send_json({"type": "review", "movetime": 200})
        receive_until(ws, "review_start")
        job = the_session(app).review
    assert not job.running and job.cancelled


def test_the_page_arrives_with_a_board_to_play(client):
    page = client.get("/").text
    first = page.split('<script id="first-state" type="application/json">', 1)[1]
    state = json.loads(first.split("</script>", 1)[0])
    assert state["type"] == "state" and state["status"]["game"] == "dvonn"
    assert len(state["board"]["points"]) == 49 and len(state["legal"]) == 49
    assert state["players"] == {"w": "human", "b": "engine"}
    assert state["analysis"]["on"] is False  # the engine's move is not shown to its opponent


def test_analysis_is_off_against_the_engine_and_on_among_humans(client):
    with client.websocket_connect(WS, headers=ORIGIN) as socket:
        ws = Page(socket)
        assert receive_until(ws, "state")["analysis"]["on"] is False
        ws.send_json({"type": "players", "w": "human", "b": "human"})
        assert receive_until(ws, "state")["analysis"]["on"] is True
        receive_until(ws, "analysis_start")
        receive_until(ws, "info")
        ws.send_json({"type": "attention", "present": False})  # the tab is hidden
        receive_until(ws, "analysis_end")
        ws.send_json({"type": "record"})  # a request served: no analysis started before it
        for kind in iter(lambda: ws.receive_json()["type"], "record"):
            assert kind not in ("analysis_start", "info")
        ws.send_json({"type": "attention", "present": True})
        receive_until(ws, "analysis_start")
        ws.send_json({"type": "players", "w": "human", "b": "engine"})
        assert receive_until(ws, "state")["analysis"]["on"] is False


def test_a_resigned_record_is_over_and_the_engine_has_nothing_to_play(client):
    with connect(client) as ws:
        ws.send_json({"type": "loadrecord", "content": DVONN_RECORD + " resign\n"})
        state = receive_until(ws, "state", lambda m: m["history"])
        assert state["resigned"] == "b" and state["legal"] == [] and not state["paused"]
        assert receive_until(ws, "notice")["message"] == "Record loaded: 3 moves; Black resigned"
        for request in ({"type": "go"}, {"type": "play", "move": "G3"}):
            ws.send_json(request)
            assert receive_until(ws, "error")["message"] == \
                "the game is over: there is no move to play"
        ws.send_json({"type": "undo"})
        state = receive_until(ws, "state", lambda m: len(m["history"]) < 3)
        assert state["resigned"] is None and len(state["history"]) == 2


@pytest.mark.parametrize("raw, error", [
    ("[" * 50_000 + "]" * 50_000, "bad request: not JSON: nested too deep"),
    ('{"type": "loadrecord", "content": "1. d3 \\udc80"}',
     "bad request: a record must be text (UTF-8): this one has a lone surrogate"),
])
def test_hostile_json_gets_an_error_and_the_session_goes_on(client, app, raw, error):
    with connect(client) as ws:
        engine = the_session(app).engine.proc
        ws.send_text(raw)
        assert receive_until(ws, "error")["message"] == error
        ws.send_json({"type": "play", "move": "D3"})
        receive_until(ws, "engine_move")
        assert the_session(app).engine.proc is engine and engine.returncode is None


def test_the_level_is_the_engines_option_when_it_has_one(client, app):
    with connect(client) as ws:
        ws.send_json({"type": "record"})
        receive_until(ws, "record")
        session = the_session(app)
        if session.level_range is None:
            ws.send_json({"type": "level", "level": 5})
            assert receive_until(ws, "error")["message"] == "this engine has no levels"
            return
        low, high = session.level_range
        assert session.level == (low + high) // 2
        ws.send_json({"type": "level", "level": low})
        level = receive_until(ws, "state")["level"]
        assert {key: level[key] for key in ("value", "low", "high")} == \
            {"value": low, "low": low, "high": high}
        # what the level limits, said beside the engine's time (docs/levels.md)
        assert level["limit"].startswith(f"level {low} limits each move to a search ")
        assert receive_until(ws, "notice")["message"] == \
            f"Engine level {low} from its next move ({low} weakest, {high} full strength)"
        for wrong in (high + 1, 99, 0):  # the engine's range, never the request schema's bound
            ws.send_json({"type": "level", "level": wrong})
            assert receive_until(ws, "error")["message"] == (
                f"the engine's levels are {low} to {high} ({low} weakest, {high} full strength), "
                f"not {wrong}")


def _alive(pid: int) -> bool:
    """A process that still runs (a zombie has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def _review_engines(job) -> list[int]:
    """The engine processes of a running review (children of its worker)."""
    import glob
    pids: list[int] = []
    for path in glob.glob(f"/proc/{job.proc.pid}/task/*/children"):
        with open(path) as children:
            pids += [int(word) for word in children.read().split()]
    return pids


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux /proc")
@pytest.mark.parametrize("how", ["cancel", "close the tab"])
def test_a_review_in_a_search_ends_with_its_engines_at_once(client, app, how):
    from test_review import HAND_BUILT_TZAAR
    with connect(client) as ws:
        ws.send_json({"type": "loadrecord", "content": HAND_BUILT_TZAAR})
        receive_until(ws, "state", lambda m: m["history"])
        ws.send_json({"type": "review", "movetime": 5000})  # about two minutes of searches
        receive_until(ws, "review_start")
        receive_until(ws, "review_progress", lambda m: m["done"] == 0)  # replayed; searching
        job = the_session(app).review
        engines = []
        while not engines:
            engines = _review_engines(job)
        worker = job.proc
        if how == "cancel":
            ws.send_json({"type": "review_cancel"})
            assert receive_until(ws, "review_error")["message"] == "review cancelled"
            assert not any(_alive(pid) for pid in engines)  # gone, not left to end a search
            ws.send_json({"type": "review", "depth": 1})  # the session goes on
            assert receive_until(ws, "review_result")["report"]["limits"] == {"depth": 1}
    if how == "close the tab":
        assert not app.state.sessions  # its slot is free
        assert worker.returncode is not None and not any(_alive(pid) for pid in engines)


@pytest.fixture(scope="module")
def real_server():
    """`python3 -m engine.gui` itself: uvicorn's WebSocket frame limit is its own, not the test
    client's."""
    from conftest import gui_server
    with gui_server() as url:
        yield url.rstrip("/")


def test_a_20_mb_record_gets_an_error_and_the_game_is_kept(real_server):
    from websockets.sync.client import connect as ws_connect
    with ws_connect(real_server.replace("http", "ws") + "/ws", origin=real_server,
                    max_size=None, open_timeout=WAIT_S) as ws:
        def receive(kind: str) -> dict:
            while True:
                message = json.loads(ws.recv(timeout=WAIT_S))
                assert message["type"] != "fatal", message
                if message["type"] == kind:
                    return message
        receive("state")
        ws.send(json.dumps({"type": "players", "w": "human", "b": "human"}))
        receive("state")
        ws.send(json.dumps({"type": "play", "move": "D3"}))
        receive("state")
        ws.send(json.dumps({"type": "loadrecord", "content": "1. d3 " * ((20 << 20) // 6)}))
        assert receive("error")["message"].startswith("bad request: message too large")
        ws.send(json.dumps({"type": "record"}))
        assert receive("record")["text"] == "Site [www.littlegolem.net] 1. d3"


def test_the_state_says_how_its_game_is_drawn_as_the_registry_has_it(client):
    with connect(client) as ws:
        ws.send_json({"type": "players", "w": "human", "b": "human"})
        state = receive_until(ws, "state")
        assert state["look"] == LOOKS["dvonn"].to_json()
        assert state["look"]["pieces"]["R"]["colour"] == "red"
        assert state["games"] == [{"name": "dvonn", "title": "DVONN", "openings": False},
                                  {"name": "tzaar", "title": "TZAAR", "openings": True}]
        ws.send_json({"type": "newgame", "game": "tzaar", "opening": "fixed"})
        state = receive_until(ws, "state", lambda m: m["status"]["game"] == "tzaar")
        assert state["look"]["pieces"]["b"] == {"fill": "#f7f2e4", "ink": "#2b2b2b", "colour": "white",
                                                "kind": "Tzarra", "symbol": "dot"}
        assert "Tott: plain" in state["look"]["notes"]
    assert game_look("no-such-game") is None


def test_a_flood_of_requests_is_refused_beyond_the_bound_and_the_session_goes_on(client, app):
    import gc
    import tracemalloc

    from engine.gui.messages import MAX_PENDING_REQUESTS
    tracemalloc.start()
    try:
        with connect(client):
            pass  # a session opened and closed: the server's idle level
        gc.collect()
        idle = tracemalloc.get_traced_memory()[0]
        with connect(client, time_ms=3000) as ws:
            ws.send_json({"type": "hint"})  # a search of 3 s: the requests after it wait
            for _ in range(3000):
                ws.send_json({"type": "record"})
            seen: collections.Counter = collections.Counter()
            while True:  # the flood's answers, until the session has served what it kept
                try:
                    message = ws.inbox.get(timeout=WAIT_S if not seen["hint"] else 3)
                except queue.Empty:
                    break
                seen[message["type"]] += 1
                if message["type"] == "error":
                    assert message["message"] == f"too many requests: at most " \
                        f"{MAX_PENDING_REQUESTS} wait at a time; later ones are dropped"
            assert seen["error"] >= 1 and seen["hint"] == 1
            assert seen["record"] <= MAX_PENDING_REQUESTS  # the rest were dropped, not kept
            ws.send_json({"type": "play", "move": "D3"})  # the session goes on as before
            assert receive_until(ws, "state", lambda m: m["history"])["history"] == [["white", "D3"]]
        assert not app.state.sessions
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        assert after - idle < 1 << 20, (idle, after)  # back to the idle level, within 1 MiB
    finally:
        tracemalloc.stop()

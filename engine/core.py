"""Python bindings to the compiled search core (``engine._core``, cffi API mode).

Import is cheap and never compiles: when the extension is missing or broken,
``AVAILABLE`` is False, ``UNAVAILABLE_REASON`` says why, and every function
raises ``CoreUnavailable``.

Positions are passed as in the rules modules: ``cells`` = one string per point
in canonical order (stack bottom-to-top; DVONN 'W','B','R'; TZAAR 'a','b','c'
White, 'A','B','C' Black), ``side`` 0 White / 1 Black, ``phase``:
DVONN 0/'placement', 1/'movement'; TZAAR 0/'opening', 1/'turn' (first action),
2 (second action of a turn).

Moves come back as tuples: DVONN ('place', -1, to) / ('move', from, to) /
('pass', -1, -1); TZAAR ('capture'|'stack', from, to) / ('pass', -1, -1).
The C calls release the GIL, so another thread may ``StopFlag.set()`` a search.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

try:
    from . import _core  # type: ignore[attr-defined]

    _ffi, _lib = _core.ffi, _core.lib
    AVAILABLE = True
    UNAVAILABLE_REASON = ""
except Exception as _exc:  # noqa: BLE001 - any import failure means "no core"
    _ffi = _lib = None
    AVAILABLE = False
    UNAVAILABLE_REASON = f"engine._core not importable ({type(_exc).__name__}: {_exc})"

GAMES = {"dvonn": 0, "tzaar": 1}
POINTS = {"dvonn": 49, "tzaar": 60}
MAX_MOVES = 400
MOVE_PASS = 0x2FFF
_PHASES = {"placement": 0, "movement": 1, "opening": 0, "turn": 1}
_DV_TOP = {"W": 0, "B": 1, "R": 2}
_TZ_TOP = {"a": 0, "b": 1, "c": 2, "A": 3, "B": 4, "C": 5}
_KINDS = {"dvonn": ("move", "place", "pass"), "tzaar": ("capture", "stack", "pass")}

Move = tuple[str, int, int]


class CoreUnavailable(RuntimeError):
    """The compiled core is not built or cannot be loaded."""


@dataclass
class SearchResult:
    moves: list[Move]   # what the side to act plays now (TZAAR: the whole turn)
    score: int          # side to act's view; |score| >= WIN means a proven win/loss
    depth: int          # last completed iteration (plies = actions)
    nodes: int
    time_ms: float
    pv: list[int] = field(default_factory=list)  # raw moves
    proven: bool = False
    seldepth: int = 0

    @property
    def nps(self) -> int:
        return int(self.nodes * 1000 / self.time_ms) if self.time_ms > 0 else 0


WIN = 1_000_000  # SCORE_WIN in csrc/search.h


class StopFlag:
    """Set from any thread to end a running search early (it still returns a move)."""

    def __init__(self) -> None:
        self._cell = _ffi.new("int32_t *") if AVAILABLE else None

    def set(self) -> None:
        if self._cell is not None:
            self._cell[0] = 1

    def clear(self) -> None:
        if self._cell is not None:
            self._cell[0] = 0


def core_version() -> str:
    _require()
    return _ffi.string(_lib.core_version()).decode()


def has_game(game: str) -> bool:
    return AVAILABLE and game in GAMES and bool(_lib.core_has_game(GAMES[game]))


def _require(game: Optional[str] = None) -> None:
    if not AVAILABLE:
        raise CoreUnavailable(UNAVAILABLE_REASON)
    if game is not None and not has_game(game):
        raise CoreUnavailable(f"the compiled core has no {game!r} module")


def _arrays(game: str, cells: Sequence[str]):
    n = POINTS[game]
    if len(cells) != n:
        raise ValueError(f"{game} needs {n} cells, got {len(cells)}")
    height = _ffi.new("uint8_t[]", n)
    top = _ffi.new("uint8_t[]", n)
    extra = _ffi.new("uint8_t[]", n)
    table = _DV_TOP if game == "dvonn" else _TZ_TOP
    for i, stack in enumerate(cells):
        if not stack:
            continue
        if len(stack) > 255:
            raise ValueError("stack too tall")
        height[i] = len(stack)
        try:
            top[i] = table[stack[-1]]
        except KeyError:
            raise ValueError(f"bad piece {stack[-1]!r} at point {i} for {game}") from None
        if game == "dvonn":
            extra[i] = stack.count("R")
    return height, top, extra


def _phase(phase: int | str) -> int:
    return _PHASES[phase] if isinstance(phase, str) else int(phase)


def decode_move(game: str, raw: int) -> Move:
    kind = _KINDS[game][raw >> 12]
    if kind == "pass":
        return ("pass", -1, -1)
    src = raw & 63
    return (kind, -1 if kind == "place" else src, (raw >> 6) & 63)


def perft(game: str, cells: Sequence[str], side: int, phase: int | str, depth: int) -> int:
    """Leaf count after depth plies (DVONN: moves; TZAAR: whole turns)."""
    _require(game)
    h, t, e = _arrays(game, cells)
    out = _ffi.new("uint64_t *")
    if _lib.core_perft(GAMES[game], h, t, e, side, _phase(phase), depth, out) < 0:
        raise ValueError("bad perft arguments")
    return int(out[0])


def dvonn_perft(cells: Sequence[str], side: int, phase: int | str, depth: int) -> int:
    return perft("dvonn", cells, side, phase, depth)


def legal_moves(game: str, cells: Sequence[str], side: int, phase: int | str) -> list[Move]:
    """Legal single actions for the side to act, as the core generates them."""
    _require(game)
    h, t, e = _arrays(game, cells)
    buf = _ffi.new("uint32_t[]", MAX_MOVES)
    n = _lib.core_legal(GAMES[game], h, t, e, side, _phase(phase), buf)
    if n < 0:
        raise ValueError("bad position arguments")
    return [decode_move(game, buf[i]) for i in range(n)]


def evaluate(game: str, cells: Sequence[str], side: int, phase: int | str) -> int:
    """Static evaluation from the side to act's view."""
    _require(game)
    h, t, e = _arrays(game, cells)
    out = _ffi.new("int *")
    if _lib.core_eval(GAMES[game], h, t, e, side, _phase(phase), out) < 0:
        raise ValueError("bad position arguments")
    return int(out[0])


@dataclass
class Weight:
    name: str
    value: int
    default: int
    help: str


WEIGHT_MAX = 1_000_000  # CORE_WEIGHT_MAX in csrc/core_api.h


def weights(game: str) -> list[Weight]:
    """The game's named evaluation weights (csrc/<game>_eval.h), current and default values."""
    _require(game)
    out = []
    name, text = _ffi.new("const char **"), _ffi.new("const char **")
    value, default = _ffi.new("int *"), _ffi.new("int *")
    for i in range(_lib.core_weight_count(GAMES[game])):
        _lib.core_weight_info(GAMES[game], i, name, text, value, default)
        out.append(Weight(_ffi.string(name[0]).decode(), int(value[0]), int(default[0]),
                          _ffi.string(text[0]).decode()))
    return out


def set_weight(game: str, name: str, value: int) -> None:
    """Change one weight (process-wide, until changed again); KeyError / ValueError when bad.
    Clears the transposition table, whose scores were made with the old weights."""
    names = [w.name for w in weights(game)]
    if name not in names:
        raise KeyError(name)
    if not -WEIGHT_MAX <= value <= WEIGHT_MAX:
        raise ValueError(f"a weight is between {-WEIGHT_MAX} and {WEIGHT_MAX}")
    _lib.core_weight_set(GAMES[game], names.index(name), int(value))


def eval_terms(game: str, cells: Sequence[str], side: int,
               phase: int | str) -> tuple[int, list[tuple[str, float, float]]]:
    """Static evaluation (side to act's view) and each weight's share: (name, White, Black)."""
    _require(game)
    h, t, e = _arrays(game, cells)
    n = _lib.core_weight_count(GAMES[game])
    terms = _ffi.new("double[]", 2 * n)
    out = _ffi.new("int *")
    if _lib.core_eval_terms(GAMES[game], h, t, e, side, _phase(phase), terms, out) < 0:
        raise ValueError("bad position arguments")
    names = [w.name for w in weights(game)]
    return int(out[0]), [(names[i], terms[2 * i], terms[2 * i + 1]) for i in range(n)]


_callbacks: dict[int, Callable[[SearchResult], Any]] = {}
_callbacks_lock = threading.Lock()

if AVAILABLE:
    @_ffi.def_extern()
    def _core_on_iteration(userdata, it):  # runs in the searching thread, GIL re-acquired
        cb = _callbacks.get(int(_ffi.cast("uintptr_t", userdata)))
        if cb is not None:
            try:
                cb(SearchResult(moves=[], score=it.score, depth=it.depth, nodes=it.nodes,
                                time_ms=it.time_ms, pv=[it.pv[i] for i in range(it.pvlen)],
                                proven=bool(it.proven), seldepth=it.seldepth))
            except Exception:  # noqa: BLE001 - a reporting error must not kill the search
                pass


def search(game: str, cells: Sequence[str], side: int, phase: int | str, *,
           time_ms: Optional[float] = None, depth: Optional[int] = None,
           nodes: Optional[int] = None, threads: int = 1, hash_mb: int = 64, seed: int = 0,
           on_iteration: Optional[Callable[[SearchResult], Any]] = None,
           stop: Optional[StopFlag] = None) -> SearchResult:
    """Iterative-deepening search; at least depth 1 always completes.

    With no limit at all, searches to the maximum depth (or until proven):
    give time_ms, depth or nodes.  ``on_iteration`` gets a SearchResult
    (without ``moves``) after every completed iteration.
    """
    _require(game)
    h, t, e = _arrays(game, cells)
    prm = _ffi.new("SearchParams *")
    prm.time_ms = int(time_ms) if time_ms else 0
    prm.depth = int(depth) if depth else 0
    prm.nodes = int(nodes) if nodes else 0
    prm.threads = max(1, int(threads))
    prm.seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    prm.stop = stop._cell if stop is not None and stop._cell is not None else _ffi.NULL
    key = 0
    if on_iteration is not None:
        with _callbacks_lock:
            key = max(_callbacks, default=0) + 1
            _callbacks[key] = on_iteration
        prm.on_iteration = _lib._core_on_iteration
        prm.userdata = _ffi.cast("void *", key)
    res = _ffi.new("SearchResult *")
    turn = _ffi.new("uint32_t[4]")
    turnlen = _ffi.new("int *")
    try:
        rc = _lib.core_search(GAMES[game], h, t, e, side, _phase(phase), prm, int(hash_mb),
                              res, turn, turnlen)
    finally:
        if key:
            with _callbacks_lock:
                _callbacks.pop(key, None)
    if rc < 0:
        raise MemoryError("search failed (bad position or out of memory)")
    return SearchResult(moves=[decode_move(game, turn[i]) for i in range(turnlen[0])],
                        score=res.score, depth=res.depth, nodes=res.nodes, time_ms=res.time_ms,
                        pv=[res.pv[i] for i in range(res.pvlen)], proven=bool(res.proven),
                        seldepth=res.seldepth)


def info_line(game: str, it: SearchResult, names: Optional[Sequence[str]] = None) -> str:
    """``info depth D score S nodes N nps X time T pv ...`` (pv in point names if given)."""
    def text(raw: int) -> str:
        kind, src, dst = decode_move(game, raw)
        if kind == "pass" or names is None:
            return kind if kind == "pass" else f"{src}-{dst}" if src >= 0 else str(dst)
        return f"{names[src]}-{names[dst]}" if src >= 0 else names[dst]

    return (f"info depth {it.depth} seldepth {it.seldepth} score {it.score} nodes {it.nodes} "
            f"nps {it.nps} time {int(it.time_ms)} pv {' '.join(text(m) for m in it.pv)}").rstrip()


def clear_hash() -> None:
    """Forget the transposition table (it persists between searches otherwise)."""
    _require()
    _lib.core_clear_hash()

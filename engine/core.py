"""Python bindings to the compiled search core (``engine._core``, cffi API mode).

Import is cheap and never compiles: when the extension is missing or broken,
``AVAILABLE`` is False, ``UNAVAILABLE_REASON`` says why, and every function
raises ``CoreUnavailable``.

Positions are passed as in the rules modules: ``game`` = a registered game's name
(engine/registry.py), ``cells`` = one string per point in canonical order (stack
bottom-to-top), ``side`` 0 White / 1 Black, ``phase`` = ``phase(rules object)``
(TZAAR: 2 is the second action of a turn).  The game's GameSpec.core
(engine/registry.py CoreCodec) says how a stack is encoded (``top_codes``, ``extra``),
names the move kinds (``kinds``) and turns decoded actions into the rules' moves and
text (``phase``, ``to_move``, ``first_move``, ``action_text`` here).  The C constants (the
move layout, the limits, the scores) come through cffi from csrc/core/core_api.h, their only
copy; without the core they are None.

Moves come back as tuples (kind, from, to): DVONN ('place', -1, to) /
('move', from, to) / ('pass', -1, -1); TZAAR ('capture'|'stack', from, to) /
('pass', -1, -1).  A failing core raises ``CoreError``.
The C calls release the GIL, so another thread may ``StopFlag.set()`` a search.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from .registry import SPECS, CoreCodec
from .stop_flag import StopFlag

try:
    from . import _core  # type: ignore[attr-defined]  # the module cffi builds, absent to mypy

    _ffi, _lib = _core.ffi, _core.lib
    AVAILABLE = True
    UNAVAILABLE_REASON = ""
except Exception as _exc:  # noqa: BLE001 - any import failure means "no core"
    _ffi = _lib = None
    AVAILABLE = False
    UNAVAILABLE_REASON = f"engine._core not importable ({type(_exc).__name__}: {_exc})"

Move = tuple[str, int, int]


def _constant(name: str) -> Any:
    """A #define of csrc/core/core_api.h as the compiled module has it (None without it)."""
    return getattr(_lib, name) if AVAILABLE else None


MAX_MOVES = _constant("CORE_MAX_MOVES")  # room core_legal needs
TURN_MAX = _constant("CORE_TURN_MAX")  # actions of one turn core_search / core_solve return
WIN = _constant("SCORE_WIN")  # |score| >= WIN: a proven win/loss
MARGIN = _constant("SCORE_MARGIN")  # score per point of a proven final margin
MAX_MULTIPV = _constant("MAX_MULTIPV")
WEIGHT_MAX = _constant("CORE_WEIGHT_MAX")  # |weight value| at most this
_TO_SHIFT, _KIND_SHIFT, _POINT_MASK = (_constant(n) for n in ("MOVE_TO_SHIFT", "MOVE_KIND_SHIFT",
                                                             "MOVE_POINT_MASK"))


class CoreError(RuntimeError):
    """The core could not do what was asked (bad position, out of memory, a failed callback)."""


class CoreUnavailable(CoreError):
    """The compiled core is not built or cannot be loaded."""


class Interrupted(Exception):
    """A perft was stopped through its StopFlag before it finished counting."""


@dataclass
class Line:
    """One multi-PV candidate: an exact score and its principal variation (raw moves)."""
    score: int
    pv: list[int]
    proven: bool = False


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
    lines: list[Line] = field(default_factory=list)  # multi-PV candidates, best first

    @property
    def nps(self) -> int:
        return int(self.nodes * 1000 / self.time_ms) if self.time_ms > 0 else 0


def _stop_cell(stop: Optional[StopFlag]):
    """The int32 cell the C code polls for `stop` (made on first use), or NULL for none."""
    if stop is None:
        return _ffi.NULL
    if stop.core_cell is None:
        cell = _ffi.new("int32_t *")
        stop.core_cell = cell
        cell[0] = int(stop.is_set())  # a set() while the cell was being made
    return stop.core_cell


def core_version() -> str:
    _require()
    return _ffi.string(_lib.core_version()).decode()


def _codec(game: str) -> CoreCodec:
    spec = SPECS.get(game)
    if spec is None:
        raise CoreError(f"no such game: {game!r}")
    if spec.core is None:
        raise CoreUnavailable(f"{spec.title} has no compiled core")
    return spec.core


# --- a rules object seen by the core, through its game's codec (no compiled core needed) ---

def phase(game) -> int:
    """The phase code of csrc/CONTRACT.md of a rules object's position."""
    return _codec(game.name).phase(game)


def to_move(game, actions: list[Move]):
    """The core's decoded actions for one move (TZAAR: a whole turn) as the rules' move."""
    return _codec(game.name).to_move(game, actions)


def action_text(game, action: Move) -> str:
    """One decoded core action (a PV entry) as text."""
    return _codec(game.name).action_text(game, action)


def first_move(game, actions: list[Move]):
    """The rules-checked move a line of decoded core actions starts with (one or, for a
    TZAAR turn, two of its actions), or None if the rules accept neither."""
    for count in (1, 2):
        if len(actions) < count:
            return None
        try:  # IllegalMove is a ValueError
            return game.check_move(to_move(game, actions[:count]))
        except (IndexError, TypeError, ValueError):  # refused, or no move at all
            continue
    return None


_game_ids: dict[str, int] = {}


def _game_id(game: str) -> int:
    """The core's number for a game (its place in csrc/core/games.c), -1 if it has none."""
    if not AVAILABLE:
        return -1
    if game not in _game_ids:
        _game_ids[game] = int(_lib.core_game(game.encode()))
    return _game_ids[game]


def has_game(game: str) -> bool:
    """The core is built with this game, which its GameSpec lets cross (a spec without a
    codec plays with the Python player)."""
    spec = SPECS.get(game)
    return AVAILABLE and spec is not None and spec.core is not None \
        and bool(_lib.core_has_game(_game_id(game)))


def _require(game: Optional[str] = None) -> None:
    if not AVAILABLE:
        raise CoreUnavailable(UNAVAILABLE_REASON)
    if game is not None and not has_game(game):
        raise CoreUnavailable(f"the compiled core has no {game!r} module")


def _arrays(game: str, cells: Sequence[str]):
    """The per-point height/top/extra arrays of csrc/CONTRACT.md; ValueError if impossible."""
    codec = _codec(game)
    n = _lib.core_points(_game_id(game))
    if len(cells) != n:
        raise ValueError(f"{game} needs {n} cells, got {len(cells)}")
    height = _ffi.new("uint8_t[]", n)
    top = _ffi.new("uint8_t[]", n)
    extra = _ffi.new("uint8_t[]", n)
    codes = codec.top_codes
    for i, stack in enumerate(cells):
        if not stack:
            continue
        code = codes.find(stack[-1])
        if code < 0:
            raise ValueError(f"bad piece {stack[-1]!r} at point {i} for {game}")
        if len(stack) > 255 or not 0 <= codec.extra(stack) <= 255:
            raise ValueError("stack too tall")
        height[i], top[i], extra[i] = len(stack), code, codec.extra(stack)
    return height, top, extra


def decode_move(game: str, raw: int) -> Move:
    """A core move as (kind, from, to), by the layout of csrc/core/core_api.h."""
    _require()
    kind = _codec(game).kinds[raw >> _KIND_SHIFT]
    if kind == "pass":
        return ("pass", -1, -1)
    src = raw & _POINT_MASK
    return (kind, -1 if kind == "place" else src, (raw >> _TO_SHIFT) & _POINT_MASK)


def perft(game: str, cells: Sequence[str], side: int, phase: int, depth: int,
          stop: Optional[StopFlag] = None) -> int:
    """Leaf count after depth plies (DVONN: moves; TZAAR: whole turns); Interrupted when
    ``stop`` is set before it is done."""
    _require(game)
    h, t, e = _arrays(game, cells)
    out = _ffi.new("uint64_t *")
    if stop is None:
        rc = _lib.core_perft(_game_id(game), h, t, e, side, phase, depth, out)
    else:
        stop.running += 1
        try:
            rc = _lib.core_perft_stoppable(_game_id(game), h, t, e, side, phase, depth,
                                           _stop_cell(stop), out)
        finally:
            stop.running -= 1
    if rc == _lib.CORE_INTERRUPTED:
        raise Interrupted("perft interrupted")
    if rc < 0:
        raise ValueError("bad perft arguments")
    return int(out[0])


def legal_moves(game: str, cells: Sequence[str], side: int, phase: int) -> list[Move]:
    """Legal single actions for the side to act, as the core generates them."""
    _require(game)
    h, t, e = _arrays(game, cells)
    buf = _ffi.new("uint32_t[]", MAX_MOVES)
    n = _lib.core_legal(_game_id(game), h, t, e, side, phase, buf)
    if n < 0:
        raise ValueError("bad position arguments")
    return [decode_move(game, buf[i]) for i in range(n)]


def evaluate(game: str, cells: Sequence[str], side: int, phase: int) -> int:
    """Static evaluation from the side to act's view, as the search calls it (tests check
    that eval_terms agrees with it)."""
    _require(game)
    h, t, e = _arrays(game, cells)
    out = _ffi.new("int *")
    if _lib.core_eval(_game_id(game), h, t, e, side, phase, out) < 0:
        raise ValueError("bad position arguments")
    return int(out[0])


@dataclass
class Weight:
    name: str
    value: int
    default: int
    help: str
    low: int    # the values that take effect (a search parameter's are clamped)
    high: int


def weights(game: str) -> list[Weight]:
    """The game's named weights, current and default values, meanings and ranges, as the core
    declares them: the evaluation's (csrc/<game>/<game>_eval.h), then the search parameters
    (search_*, csrc/core/search_params.h)."""
    _require(game)
    out = []
    name, text = _ffi.new("const char **"), _ffi.new("const char **")
    value, default = _ffi.new("int *"), _ffi.new("int *")
    low, high = _ffi.new("int *"), _ffi.new("int *")
    for i in range(_lib.core_weight_count(_game_id(game))):
        _lib.core_weight_info(_game_id(game), i, name, text, value, default)
        _lib.core_weight_range(_game_id(game), i, low, high)
        out.append(Weight(_ffi.string(name[0]).decode(), int(value[0]), int(default[0]),
                          _ffi.string(text[0]).decode(), int(low[0]), int(high[0])))
    return out


def eval_weights(game: str) -> list[Weight]:
    """The evaluation's weights only (those eval_terms measures), in the same order."""
    return weights(game)[:_lib.core_eval_weight_count(_game_id(game))]


def search_parameters(game: str) -> list[Weight]:
    """The search's parameters only (search_*), with the game's defaults and their ranges."""
    return weights(game)[_lib.core_eval_weight_count(_game_id(game)):]


def next_iteration_share(game: str) -> float:
    """The share of a timed search's time after which the core starts no new iteration: the
    game's `search_next_iteration` as the core holds it now (its own default, or what `weights
    set` gave), clamped to its range as a search clamps it."""
    w = next(w for w in search_parameters(game) if w.name == "search_next_iteration")
    return min(max(w.value, w.low), w.high) / 100


def set_weight(game: str, name: str, value: int) -> None:
    """Change one weight (process-wide, until changed again); KeyError / ValueError when bad.
    Clears the transposition table, whose scores were made with the old weights."""
    names = [w.name for w in weights(game)]
    if name not in names:
        raise KeyError(name)
    if not -WEIGHT_MAX <= value <= WEIGHT_MAX:
        raise ValueError(f"a weight is between {-WEIGHT_MAX} and {WEIGHT_MAX}")
    _lib.core_weight_set(_game_id(game), names.index(name), int(value))


def eval_terms(game: str, cells: Sequence[str], side: int,
               phase: int) -> tuple[int, list[tuple[str, float, float]]]:
    """Static evaluation (side to act's view) and each weight's share: (name, White, Black)."""
    _require(game)
    h, t, e = _arrays(game, cells)
    n = _lib.core_eval_weight_count(_game_id(game))  # the search parameters have no terms
    terms = _ffi.new("double[]", 2 * n)
    out = _ffi.new("int *")
    if _lib.core_eval_terms(_game_id(game), h, t, e, side, phase, terms, out) < 0:
        raise ValueError("bad position arguments")
    names = [w.name for w in eval_weights(game)]
    return int(out[0]), [(names[i], terms[2 * i], terms[2 * i + 1]) for i in range(n)]


def _lines(res) -> list[Line]:
    return [Line(line.score, [line.pv[i] for i in range(line.pvlen)], bool(line.proven))
            for line in (res.lines[k] for k in range(min(res.nlines, MAX_MULTIPV)))]


_callbacks: dict[int, tuple[Callable[[SearchResult], Any], Optional[StopFlag]]] = {}
_callback_errors: dict[int, BaseException] = {}
_callbacks_lock = threading.Lock()

if AVAILABLE:
    @_ffi.def_extern()
    def _core_on_iteration(userdata, it):  # runs in a searching thread, GIL re-acquired
        key = int(_ffi.cast("uintptr_t", userdata))
        cb, stop = _callbacks.get(key, (None, None))
        if cb is not None and key not in _callback_errors:
            try:
                cb(SearchResult(moves=[], score=it.score, depth=it.depth, nodes=it.nodes,
                                time_ms=it.time_ms, pv=[it.pv[i] for i in range(it.pvlen)],
                                proven=bool(it.proven), seldepth=it.seldepth, lines=_lines(it)))
            except Exception as e:  # noqa: BLE001 - raised by search() once the C call returns
                _callback_errors[key] = e
            except BaseException as e:  # KeyboardInterrupt: never a traceback inside cffi
                _callback_errors[key] = e
                if stop is not None:
                    stop.set()


def search(game: str, cells: Sequence[str], side: int, phase: int, *,
           time_ms: Optional[float] = None, depth: Optional[int] = None,
           nodes: Optional[int] = None, threads: int = 1, hash_mb: int = 64, seed: int = 0,
           on_iteration: Optional[Callable[[SearchResult], Any]] = None,
           stop: Optional[StopFlag] = None, multipv: int = 1,
           report_ms: int = 0, soft_ms: Optional[float] = None) -> SearchResult:
    """Iterative-deepening search; at least depth 1 always completes.

    With no limit at all, searches to the maximum depth (or until proven, or until
    ``stop`` is set): give time_ms, depth, nodes or stop.  ``on_iteration`` gets a
    SearchResult (without ``moves``) after every completed iteration and, with
    ``report_ms``, that often in between (the last iteration, current nodes and time).
    ``multipv`` candidates with exact scores come back in ``lines``.  With ``time_ms``, no
    new iteration starts after the game's `search_next_iteration` share of it (DVONN
    60 %, TZAAR 45 %), or after ``soft_ms`` when given, and it is the deadline.  CoreError when
    the core fails: a position it cannot take, no memory for the table, a callback
    that raised (a KeyboardInterrupt in it stops the search and is raised as is).
    """
    h, t, e = _position(game, cells)
    lim = _ffi.new("SearchLimits *")
    lim.time_ms = min(int(time_ms), 1 << 62) if time_ms else 0  # the C side saturates
    lim.multipv = max(1, min(MAX_MULTIPV, int(multipv)))
    lim.report_ms = max(0, int(report_ms))
    lim.soft_ms = min(int(soft_ms), 1 << 62) if soft_ms else 0
    lim.depth = int(depth) if depth else 0
    lim.nodes = int(nodes) if nodes else 0
    lim.threads = max(1, int(threads))
    lim.seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    lim.stop = _stop_cell(stop)
    key = 0
    if on_iteration is not None:
        with _callbacks_lock:
            key = max(_callbacks, default=0) + 1
            _callbacks[key] = (on_iteration, stop)
        lim.on_iteration = _lib._core_on_iteration
        lim.userdata = _ffi.cast("void *", key)
    res = _ffi.new("SearchResult *")
    turn = _ffi.new("uint32_t[]", TURN_MAX)
    turnlen = _ffi.new("int *")
    if stop is not None:
        stop.running += 1
    try:
        rc = _lib.core_search(_game_id(game), h, t, e, side, phase, lim, int(hash_mb),
                              res, turn, turnlen)
    finally:
        if stop is not None:
            stop.running -= 1
        failed = None
        if key:
            with _callbacks_lock:
                _callbacks.pop(key, None)
                failed = _callback_errors.pop(key, None)
    if rc < 0:
        raise CoreError(f"no memory for a {hash_mb} MB table" if rc == _lib.CORE_NO_MEMORY
                        else "bad position")
    if failed is not None and not isinstance(failed, Exception):
        raise failed
    if failed is not None:
        raise CoreError(f"the progress callback failed: {type(failed).__name__}: {failed}") from failed
    return SearchResult(moves=[decode_move(game, turn[i]) for i in range(turnlen[0])],
                        score=res.score, depth=res.depth, nodes=res.nodes, time_ms=res.time_ms,
                        pv=[res.pv[i] for i in range(res.pvlen)], proven=bool(res.proven),
                        seldepth=res.seldepth, lines=_lines(res))


def set_hash(hash_mb: int) -> None:
    """Allocate the table now, every page resident, outside any search (no search's clock pays
    for it)."""
    _require()
    if _lib.core_set_hash(int(hash_mb)) < 0:
        raise CoreError(f"no memory for a {hash_mb} MB table")


def prepare(hash_mb: int) -> None:
    """The first-call set-up (tables, a hash table of hash_mb unless one exists already, left
    the OS's zero pages until a search writes to it)."""
    _require()
    if _lib.core_prepare(int(hash_mb)) < 0:
        raise CoreError(f"no memory for a {hash_mb} MB table")


@dataclass
class Solution:
    """An exact endgame solve: ``solved`` False when the budget ran out first."""
    solved: bool
    value: int          # final score (DVONN: height margin, TZAAR: +1/-1), side to act's view
    moves: list[Move]   # what the side to act plays now (TZAAR: the whole turn)
    pv: list[int]       # raw moves to the end of the game (empty if the table lost the line)
    nodes: int
    time_ms: float

    @property
    def score(self) -> int:
        """The value as the search reports a proven result (0 for a draw)."""
        if self.value == 0:
            return 0
        ply = len(self.pv)
        mag = WIN + abs(self.value) * MARGIN - ply
        return mag if self.value > 0 else -mag


def _position(game: str, cells: Sequence[str]):
    """The core's arrays of a position about to be searched or solved; CoreError if it cannot
    take it."""
    _require(game)
    try:
        return _arrays(game, cells)
    except ValueError as e:
        raise CoreError(f"bad position: {e}") from None


def solve(game: str, cells: Sequence[str], side: int, phase: int, *,
          time_ms: Optional[float] = None, nodes: Optional[int] = None,
          stop: Optional[StopFlag] = None) -> Solution:
    """Exact endgame solve within the budget (see csrc/core/solve.h); CoreError on failure."""
    h, t, e = _position(game, cells)
    lim = _ffi.new("SolveLimits *")
    lim.time_ms = min(int(time_ms), 1 << 62) if time_ms else 0  # the C side saturates
    lim.nodes = int(nodes) if nodes else 0
    lim.stop = _stop_cell(stop)
    res = _ffi.new("SolveResult *")
    turn = _ffi.new("uint32_t[]", TURN_MAX)
    turnlen = _ffi.new("int *")
    rc = _lib.core_solve(_game_id(game), h, t, e, side, phase, lim, res, turn, turnlen)
    if rc < 0:
        raise CoreError("no memory for the solver's table" if rc == _lib.CORE_NO_MEMORY
                        else "bad position")
    solved = bool(res.solved)
    return Solution(solved=solved, value=res.value if solved else 0,
                    moves=[decode_move(game, turn[i]) for i in range(turnlen[0])] if solved else [],
                    pv=[res.pv[i] for i in range(res.pvlen)], nodes=res.nodes, time_ms=res.time_ms)


def clear_hash() -> None:
    """Forget the transposition table (it persists between searches otherwise)."""
    _require()
    _lib.core_clear_hash()

"""Evaluation networks as data: the file format, its checks, and installing one in the core.

A network file (written by gipf-train, engine/tools/train.py) is, little-endian:
  header  magic b"GIPFNNUE", format version (u32), game name (8 bytes, NUL-padded),
          features, hidden, buckets, QA, QB, mode (u32 each; mode 1: the network is the
          whole stacking evaluation, 2: a correction added to the named weights' one), the
          most stacks a position it values has (u32, 1 .. 49; 49 in mode 1: all; the
          weights' evaluation alone in the others), score scale (i32: score points per unit
          of the output, the win-probability logit)
  body    first layer int16[features][hidden], its bias int16[hidden],
          output int16[buckets][2 * hidden], its bias int32[buckets]
  trailer SHA-256 of header and body (32 bytes)
The core's shape (csrc/dvonn/dvonn_nnue.h) must match.  A network is process-wide like the
weights: `weights load <file>` installs one, `weights reset` goes back to the default.
"""
from __future__ import annotations

import hashlib
import os
import struct
from array import array
from dataclasses import dataclass
from typing import Optional

from . import core
from .bounded_read import MIB, InputError, read_bytes

MAGIC = b"GIPFNNUE"
FORMAT_VERSION = 1
HEADER = struct.Struct("<8sI8s7Ii")
MODES = {1: "alone", 2: "added to the weights' evaluation"}
DIGEST_BYTES = 32
MAX_NETWORK_BYTES = 16 * MIB
QA, QB = 127, 64  # the core's fixed scales (dvonn_nnue.h)
DEFAULT_FILE: dict[str, str] = {}  # game -> file in engine/data/ loaded at start (none yet)


class NetworkError(ValueError):
    """A network file that cannot be used; the message says why."""


@dataclass
class Network:
    game: str
    features: int
    hidden: int
    buckets: int
    scale: int
    mode: int   # MODES
    max_stacks: int
    w1: array   # int16, features x hidden
    b1: array   # int16, hidden
    w2: array   # int16, buckets x 2 hidden
    b2: array   # int32, buckets

    def to_bytes(self) -> bytes:
        head = HEADER.pack(MAGIC, FORMAT_VERSION, self.game.encode(), self.features, self.hidden,
                           self.buckets, QA, QB, self.mode, self.max_stacks, self.scale)
        body = head + b"".join(_little(a).tobytes() for a in (self.w1, self.b1, self.w2, self.b2))
        return body + hashlib.sha256(body).digest()


def _little(a: array) -> array:
    if struct.pack("=h", 1) != struct.pack("<h", 1):
        a = array(a.typecode, a)
        a.byteswap()
    return a


def is_network(data: bytes) -> bool:
    return data[:len(MAGIC)] == MAGIC


def parse(data: bytes) -> Network:
    """The network in a file's bytes; NetworkError naming the first check that fails."""
    if len(data) < HEADER.size + DIGEST_BYTES or not is_network(data):
        raise NetworkError("not a network file (no GIPFNNUE header)")
    magic, version, game, features, hidden, buckets, qa, qb, mode, max_stacks, scale = HEADER.unpack_from(data)
    if version != FORMAT_VERSION:
        raise NetworkError(f"network format version {version}, this engine reads {FORMAT_VERSION}")
    if (qa, qb) != (QA, QB):
        raise NetworkError(f"network scales {qa}/{qb}, the core uses {QA}/{QB}")
    if mode not in MODES:
        raise NetworkError(f"network mode {mode}: 1 (alone) or 2 (added to the weights' evaluation)")
    if not 1 <= max_stacks <= 49 or (mode == 1 and max_stacks != 49):
        raise NetworkError(f"network stack limit {max_stacks}: 1 .. 49 (49 when alone)")
    sizes = [features * hidden * 2, hidden * 2, buckets * 2 * hidden * 2, buckets * 4]
    if len(data) != HEADER.size + sum(sizes) + DIGEST_BYTES:
        raise NetworkError(f"network size {len(data)} bytes does not match its shape "
                           f"{features}x{hidden}x{buckets}")
    if hashlib.sha256(data[:-DIGEST_BYTES]).digest() != data[-DIGEST_BYTES:]:
        raise NetworkError("network checksum mismatch (a damaged file)")
    parts, at = [], HEADER.size
    for code, size in zip("hhhi", sizes):
        part = array(code, data[at:at + size])
        parts.append(_little(part))
        at += size
    return Network(game.rstrip(b"\0").decode("ascii", "replace"), features, hidden, buckets,
                   scale, mode, max_stacks, *parts)


_loaded: dict[str, str] = {}  # game -> the loaded network's name


def loaded(game: str) -> Optional[str]:
    """The name of the game's network in use ("<file> <hash>"), or None: the weights' evaluation."""
    return _loaded.get(game)


def loaded_names() -> list[tuple[str, str]]:
    """(game, network name) of every game that has one in use, the name without spaces."""
    return [(game, name.replace(" ", ":")) for game, name in sorted(_loaded.items())]


def install(net: Network, name: str) -> None:
    """Put net into the core for its game; NetworkError (nothing changed) if it does not fit."""
    if not core.AVAILABLE:
        raise NetworkError(f"the compiled core is unavailable: {core.UNAVAILABLE_REASON}")
    lib, ffi = core._lib, core._ffi
    gid = lib.core_game(net.game.encode())
    shape = ffi.new("int[3]")
    if gid < 0 or lib.core_net_shape(gid, shape, shape + 1, shape + 2) != 0:
        raise NetworkError(f"the compiled core has no network for {net.game!r}")
    if (net.features, net.hidden, net.buckets) != tuple(shape):
        raise NetworkError(f"network shape {net.features}x{net.hidden}x{net.buckets}, the core's "
                           f"is {shape[0]}x{shape[1]}x{shape[2]}")
    arrays = [ffi.from_buffer(t, a) for t, a in
              zip(("int16_t[]",) * 3 + ("int32_t[]",), (net.w1, net.b1, net.w2, net.b2))]
    if lib.core_net_set(gid, net.mode, *arrays, net.scale, net.max_stacks) != 0:
        raise NetworkError(f"network scale {net.scale} out of range")
    _loaded[net.game] = name


def load(path: str, data: Optional[bytes] = None) -> str:
    """Read, check and install the network in a file; returns its name."""
    if data is None:
        try:
            data = read_bytes(path, MAX_NETWORK_BYTES)
        except InputError as e:
            raise NetworkError(str(e)) from None
    try:
        net = parse(data)
    except NetworkError as e:
        raise NetworkError(f"{path}: {e}") from None
    name = f"{os.path.basename(path)} {hashlib.sha256(data).hexdigest()[:12]}"
    install(net, name)
    return name


def unload(game: str) -> None:
    """Back to the weights' evaluation for game (if it has a network)."""
    if core.AVAILABLE and game in _loaded:
        lib = core._lib
        lib.core_net_set(lib.core_game(game.encode()), 0, core._ffi.NULL, core._ffi.NULL,
                         core._ffi.NULL, core._ffi.NULL, 0, 0)
        del _loaded[game]


def reset() -> None:
    """Every game back to its default network (engine/data/), or to none."""
    for game in list(_loaded):
        unload(game)
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    for file in DEFAULT_FILE.values():
        load(os.path.join(here, file))


def check(game: str, cells, side: int, phase: int, depth: int) -> int:
    """Positions up to depth plies on whose incrementally kept first layer differs from a
    fresh one (0 when the updates are right)."""
    h, t, e = core._arrays(game, cells)
    out = core._ffi.new("uint64_t *")
    if core._lib.core_net_check(core._game_id(game), h, t, e, side, phase, depth, out) != 0:
        raise NetworkError(f"the compiled core has no network for {game!r}")
    return int(out[0])


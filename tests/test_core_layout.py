"""The compiled core's layout (csrc/CONTRACT.md, "C layout and the GameOps contract"): the games'
registry, the cffi declarations taken from core_api.h, no game named outside its folder."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from conftest import REPO

from engine import _core_build, core
from engine.games import GAMES

CSRC = REPO / "csrc"
needs_core = pytest.mark.skipif(not core.AVAILABLE, reason=core.UNAVAILABLE_REASON or "no core")


def test_cdef_is_the_marked_part_of_core_api_h():
    header = (CSRC / "core" / "core_api.h").read_text()
    marked = header.split(_core_build.CDEF_BEGIN)[1].split(_core_build.CDEF_END)[0]
    cdef = _core_build.api_cdef()
    assert cdef.startswith(marked)
    assert 'extern "Python"' in cdef
    # Every function and constant of the API is in the marked part (outside it only the guard).
    assert re.findall(r"\bcore_\w+(?=\()", header) == re.findall(r"\bcore_\w+(?=\()", marked)
    marked_defines = re.findall(r"#define (\w+)", marked)
    assert [d for d in re.findall(r"#define (\w+)", header) if d not in marked_defines] == ["GIPF_CORE_API_H"]


@needs_core
def test_compiled_module_has_every_declared_function():
    marked = _core_build.api_cdef()
    for name in set(re.findall(r"\bcore_\w+(?=\()", marked)):
        assert callable(getattr(core._lib, name)), name


@needs_core
def test_every_game_is_registered_by_name():
    for number, (name, cls) in enumerate(sorted(GAMES.items(), key=lambda kv: core._game_id(kv[0]))):
        assert core._lib.core_game(name.encode()) == number  # numbers are 0, 1, ... in registry order
        assert core.has_game(name)
        assert core._lib.core_points(number) == len(cls.start().cells)
    for bad in (b"chess", b"", b"DVONN"):
        assert core._lib.core_game(bad) == -1
    assert core._lib.core_game(core._ffi.NULL) == -1
    assert not core._lib.core_has_game(len(GAMES)) and not core._lib.core_has_game(-1)
    assert core._lib.core_points(len(GAMES)) == -1
    assert core._lib.core_weight_count(-1) == -1 and core._lib.core_eval_weight_count(len(GAMES)) == -1
    assert not core.has_game("chess")


@needs_core
def test_move_layout_comes_from_the_module():
    lib = core._lib

    def move(src: int, dst: int, kind: int) -> int:
        return src | dst << lib.MOVE_TO_SHIFT | kind << lib.MOVE_KIND_SHIFT

    assert move(lib.MOVE_POINT_MASK, lib.MOVE_POINT_MASK, 2) == 0x2FFF  # MOVE_PASS in both games
    for game in GAMES:
        assert core.decode_move(game, 0x2FFF) == ("pass", -1, -1)
    assert core.decode_move("tzaar", move(5, 17, 1)) == ("stack", 5, 17)
    assert core.decode_move("dvonn", move(63, 30, 1)) == ("place", -1, 30)
    assert core.TURN_MAX >= 2 and core.WEIGHT_MAX == 1_000_000


def _code_lines_naming_a_game(path) -> list[str]:
    """path's code lines (comments stripped by the preprocessor, string literals dropped) that
    name a game."""
    code = subprocess.run(["gcc", "-fpreprocessed", "-dD", "-E", "-P", "-x", "c", str(path)],
                          check=True, capture_output=True, text=True).stdout
    return [line for line in (re.sub(r'"[^"]*"', "", s) for s in code.splitlines())
            if re.search(r"dvonn|tzaar|\b(dv|tz)_", line, re.IGNORECASE)]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
def test_only_the_registry_names_a_game_outside_the_games_folders():
    games = {"dvonn", "tzaar"}
    found = {}
    for path in sorted(p for p in CSRC.glob("*/*") if p.suffix in (".c", ".h", ".inc")):
        folder = path.parent.name
        if folder in games:
            continue
        lines = _code_lines_naming_a_game(path)
        if lines:
            found[str(path.relative_to(CSRC))] = lines
    assert list(found) == ["core/games.c"], found
    assert len(found["core/games.c"]) <= 2


def test_each_game_folder_has_its_table():
    for game in GAMES:
        source = (CSRC / game / f"{game}_game.c").read_text()
        assert f"#define GAME_NAME {game}\n" in source
        assert '#include "game_impl.h"' in source
    assert all(f"&{game}_game" in (CSRC / "core" / "games.c").read_text() for game in GAMES)


def test_adding_a_game_shows_dvonns_own_search_values_as_written():
    doc = (REPO / "docs" / "adding-a-game.md").read_text()
    blocks = re.findall(r"```c\n(.*?)```", doc, flags=re.S)
    assert blocks and all(line in (CSRC / "dvonn" / "dvonn_game.c").read_text().split("\n")
                          for block in blocks for line in block.strip().split("\n"))


@needs_core
def test_a_game_changes_only_the_search_values_it_names():
    """The shared defaults (search_params.h) hold wherever a game names no value of its own."""
    table = (CSRC / "core" / "search_params.h").read_text()
    shared = {name: int(default) for name, default in
              re.findall(r"X\((search_\w+), -?\d+, -?\d+, (-?\d+),", table)}
    assert shared
    for game in GAMES:
        if not core.has_game(game):
            continue
        source = (CSRC / game / f"{game}_game.c").read_text()
        own = dict(re.findall(r"X\((search_\w+), (-?\d+)\)", source.split("GAME_SEARCH_VALUES(X)")[1]
                              .split("\n")[0]))
        assert {w.name: w.default for w in core.search_parameters(game)} == \
            {**shared, **{name: int(value) for name, value in own.items()}}


def test_every_header_has_a_guard_and_every_part_is_included_by_game_impl_only():
    """A .h stands on its own (an include guard); a .inc is a part of one game's instantiation,
    says so in its first line, and only game_impl.h includes it."""
    sources = {p: p.read_text() for p in CSRC.glob("*/*") if p.suffix in (".c", ".h", ".inc")}
    for path, text in sources.items():
        if path.suffix == ".h":
            assert re.search(r"^#ifndef GIPF_\w+_H\n#define GIPF_\w+_H", text, re.M), path
    parts = sorted(p for p in sources if p.suffix == ".inc")
    assert len(parts) >= 5
    for part in parts:
        assert sources[part].startswith("/* Included by game_impl.h only"), part
        includers = [str(p.relative_to(CSRC)) for p, text in sources.items()
                     if f'#include "{part.name}"' in text]
        assert includers == ["core/game_impl.h"], (part, includers)


def test_the_move_loop_is_written_once():
    """The root is a node of the one move loop: ABDADA's deferral and the window of a move
    (full, null, re-searched) each appear once in the search."""
    code = "".join(p.read_text() for p in sorted((CSRC / "core").glob("*")) if p.suffix in (".h", ".inc"))
    assert code.count("S(busy_test)(") == 2  # its definition and the one loop
    assert code.count("deferred[ndeferred++]") == 1
    assert len(re.findall(r"S\(child\)\(t, &c, same, alpha, alpha \+ 1", code)) == 2  # reduced, then full depth

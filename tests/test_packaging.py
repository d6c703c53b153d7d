"""The source distribution carries everything its wheel needs: built as a user would build it
(`python -m build`: sdist, then the wheel from the sdist), installed into a fresh virtual
environment outside the checkout, the engine has its compiled core and plays both games."""
from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytest.importorskip("build", reason="the build package (test extra) builds the distributions")


def _build(outdir: Path, source: Path = REPO, sdist_only: bool = False, env=None):
    args = [sys.executable, "-m", "build", "--outdir", str(outdir)]
    args += ["--sdist"] if sdist_only else []
    return subprocess.run(args + [str(source)], capture_output=True, text=True, env=env,
                          timeout=600)


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = _build(out)
    assert done.returncode == 0, done.stderr[-2000:]
    return out


def test_sdist_carries_the_sources_tests_docs_and_licence(dists):
    (sdist,) = dists.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    core_files = {n for n in names if n.startswith("csrc/")}
    assert any(n.endswith(".h") for n in core_files) and any(n.endswith(".c") for n in core_files)
    assert "csrc/CONTRACT.md" in names
    for needed in ("LICENSE", "protocol.md", "README.md", "setup.py", "pyproject.toml",
                   "tests/conftest.py", "engine/_core_build.py"):
        assert needed in names, needed
    assert any(n.startswith("tests/regress/") and n.endswith(".tst") for n in names)
    assert any(n.startswith("docs/") for n in names)
    assert not any(n.endswith((".so", ".pyc")) for n in names)


def test_wheel_from_the_sdist_has_the_compiled_core_and_the_licence(dists):
    (wheel,) = dists.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.startswith("engine/_core") and n.endswith(".so") for n in names)
    assert any(n.endswith("licenses/LICENSE") for n in names)
    assert any(n.startswith("engine/gui/static/") for n in names)
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith("METADATA"))).decode()
    assert "License-Expression: MIT" in metadata
    assert "](docs/" not in metadata  # no relative picture links on PyPI


def test_installed_wheel_plays_both_games_from_outside_the_checkout(dists, tmp_path):
    (wheel,) = dists.glob("*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)],
                             capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-2000:]
    clean_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    for game in ("dvonn", "tzaar"):
        # genmove after the end is refused; the last status shows the game played out
        script = f"version\nnewgame {game}\noption depth 1\n" + "genmove\n" * 400 + "status\nquit\n"
        done = subprocess.run([str(env_dir / "bin" / "gipf-engine")], input=script,
                              capture_output=True, text=True, cwd=tmp_path, env=clean_env,
                              timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
        replies = [r for r in done.stdout.split("\n\n") if r.strip()]
        assert "core=compiled" in replies[0]
        assert f"game={game}" in replies[-2] and "over=yes" in replies[-2], replies[-2]

    # every installed command answers --help from any folder; a two-game match runs
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith("entry_points.txt"))).decode()
    commands = [line.split("=")[0].strip() for line in entry_points.splitlines() if " = " in line]
    assert len(commands) >= 19
    for command in commands:
        done = subprocess.run([str(env_dir / "bin" / command), "--help"], capture_output=True,
                              text=True, cwd=tmp_path, env=clean_env, timeout=120)
        assert done.returncode == 0 and done.stdout.startswith("usage: "), (command, done.stderr[-500:])
    engine = str(env_dir / "bin" / "gipf-engine")
    match = subprocess.run([str(env_dir / "bin" / "gipf-match"), "--game", "dvonn", "--games", "2",
                            "--movetime", "20", "--a", engine, "--b", engine], capture_output=True,
                           text=True, cwd=tmp_path, env=clean_env, timeout=600)
    assert match.returncode == 0, match.stderr[-2000:]
    assert "2 games" in match.stdout, match.stdout


def test_a_core_that_cannot_compile_is_said_loudly_or_fails_when_required(dists, tmp_path):
    (sdist,) = dists.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp_path, filter="data")
    (tree,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    for header in tree.joinpath("csrc").rglob("*.h"):
        header.unlink()
    env = {k: v for k, v in os.environ.items() if k != "GIPF_REQUIRE_CORE"}
    warned = _build(tmp_path / "plain", source=tree, env=env)
    assert warned.returncode == 0, warned.stderr[-2000:]
    assert "WARNING: the compiled core engine._core could not be built" in warned.stderr
    (plain_wheel,) = (tmp_path / "plain").glob("*.whl")
    assert not any(n.endswith(".so") for n in zipfile.ZipFile(plain_wheel).namelist())

    failed = _build(tmp_path / "out", source=tree, env=dict(env, GIPF_REQUIRE_CORE="1"))
    assert failed.returncode != 0
    assert "GIPF_REQUIRE_CORE is set" in failed.stdout + failed.stderr

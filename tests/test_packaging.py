"""The source distribution carries everything its wheel needs: built as a user would build it
(`python -m build`: sdist, then the wheel from the sdist), installed into a fresh virtual
environment outside the checkout, the engine has its compiled core and plays both games, and
every installed command runs its documented example without pointing at a checkout."""
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
    assert "csrc/core/search_node.inc" in core_files  # the search's parts, which only game_impl.h includes
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
    assert "engine/data/protocol.md" in names and "engine/data/examples/README.md" in names
    assert sum(n.startswith("engine/data/examples/") for n in names) >= 6
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
    assert len(commands) >= 18
    for command in commands:
        done = subprocess.run([str(env_dir / "bin" / command), "--help"], capture_output=True,
                              text=True, cwd=tmp_path, env=clean_env, timeout=120)
        assert done.returncode == 0 and done.stdout.startswith("usage: "), (command, done.stderr[-500:])
        assert not checkout_words(done.stdout), (command, checkout_words(done.stdout))
    engine = str(env_dir / "bin" / "gipf-engine")
    match = subprocess.run([str(env_dir / "bin" / "gipf-match"), "--game", "dvonn", "--games", "2",
                            "--movetime", "20", "--a", engine, "--b", engine], capture_output=True,
                           text=True, cwd=tmp_path, env=clean_env, timeout=600)
    assert match.returncode == 0, match.stderr[-2000:]
    assert "2 games" in match.stdout, match.stdout


def our_site_packages() -> list[str]:
    """The folders this interpreter imports installed packages from: a virtual environment's own
    (not its base interpreter's, unless it was made to see them), or the system's."""
    return [path for path in sys.path if Path(path).name in ("site-packages", "dist-packages")
            and Path(path).is_dir()]


def sees_our_packages(env_dir: Path) -> None:
    """Let a new virtual environment import the packages of this interpreter, after its own: a
    .pth file naming our site-packages folders (their own .pth files, such as an editable install
    of this checkout, are not read)."""
    code = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = subprocess.run([str(env_dir / "bin" / "python"), "-c", code], capture_output=True, text=True,
                          timeout=60, check=True).stdout.strip()
    Path(site, "tests-running-interpreter.pth").write_text("\n".join(our_site_packages()) + "\n")


def test_the_new_environment_sees_the_packages_of_the_running_interpreter(tmp_path):
    """Not those of the base interpreter: tests run from a virtual environment (README's set-up)
    see their own packages, which the base interpreter may lack."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    sees_our_packages(env_dir)
    seen = subprocess.run([str(env_dir / "bin" / "python"), "-c", "import sys, pytest; print(sys.path)"],
                          capture_output=True, text=True, timeout=60, env={"PATH": os.environ["PATH"]})
    assert seen.returncode == 0, seen.stderr
    assert all(path in seen.stdout for path in our_site_packages()) and our_site_packages()


def checkout_words(text: str) -> list[str]:
    """What in an installed command's output would point at a source checkout."""
    words = [str(REPO), str(REPO.parent / "shared"), "../shared", "this checkout", "in README.md"]
    return [word for word in words if word in text]


def test_every_installed_command_runs_its_documented_example_without_a_checkout(dists, tmp_path):
    """docs/tools.md's examples, in order, with the commands of the wheel installed outside the
    checkout (a virtual environment that sees the packages of the interpreter running the tests,
    for the extras' numpy, scipy and nevergrad), in an empty folder: each prints what the
    document shows and nothing that points at a checkout; the GUI and the LittleGolem bot, which
    need a browser or a site, answer --help."""
    from doc_replay import matches
    from test_docs_examples import ALL, FAILING, NOT_HERE

    (wheel,) = dists.glob("*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    sees_our_packages(env_dir)
    bin_dir = env_dir / "bin"
    install = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-index",
                              str(wheel)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr[-2000:]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"  # as after `source venv/bin/activate`
    work = tmp_path / "work"
    work.mkdir()
    examples = subprocess.run(["gipf-engine", "--examples"], capture_output=True, text=True, env=env,
                              cwd=work, timeout=60).stdout.strip()
    assert examples.startswith(str(env_dir)) and Path(examples, "README.md").is_file(), examples
    shown_help = subprocess.run(["gipf-engine", "--help"], capture_output=True, text=True, env=env,
                                cwd=work, timeout=60).stdout
    assert str(env_dir) in shown_help and "protocol.md" in shown_help
    reference = shown_help.split("the protocol reference:\n")[1].split("\n")[0].strip()
    assert "## 9. Sample sessions" in Path(reference).read_text(encoding="utf-8")

    ran = set()
    documented = [(command, shown) for command, shown in ALL if command.split()[0] not in NOT_HERE]
    for command, shown in [(f"{name} --help", None) for name in NOT_HERE] + documented:
        done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=work, env=env,
                              capture_output=True, text=True, timeout=600)
        printed = (done.stdout + done.stderr).rstrip("\n")
        assert done.returncode == FAILING.get(command, 0), (command, done.stderr[-1500:])
        assert not checkout_words(printed), (command, checkout_words(printed))
        if shown is not None:
            expected = shown.rstrip("\n").split("\n") if shown.strip() else []
            assert matches(expected, printed.split("\n") if printed else []), (command, printed)
        ran.update(word for word in command.replace("|", " ").split() if word.startswith("gipf-"))
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in zipfile.ZipFile(wheel).namelist() if n.endswith("entry_points.txt"))).decode()
    commands = {line.split("=")[0].strip() for line in entry_points.splitlines() if " = " in line}
    assert commands <= ran, sorted(commands - ran)


def test_a_core_that_cannot_compile_is_said_loudly_or_fails_when_required(dists, tmp_path):
    (sdist,) = dists.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        # the data filter where this Python has it (3.11.4 on; Debian 12's python3 is 3.11.2)
        tar.extractall(tmp_path, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
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

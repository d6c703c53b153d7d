"""What every tool shares at its edges: the exit status of main(), one-line usage errors,
output files that appear whole or not at all, the compiled-engine check, Ray start-up."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, NoReturn, Optional, Sequence

from engine.client import EngineError, EngineProcess, install_cleanup


class ToolError(Exception):
    """A failure a tool reports as one line on stderr, exit status 1."""


class ArgumentParser(argparse.ArgumentParser):
    """argparse, with a usage error in one line (no usage block) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        message = " ".join(message.split())
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def parser(prog: str, doc: Optional[str], **kwargs) -> ArgumentParser:
    """The parser of tool `prog` (named as installed, gipf-<prog>), described by its
    docstring's first paragraph."""
    description = (doc or "").split("\n\n")[0]
    return ArgumentParser(prog=f"gipf-{prog.replace('_', '-')}", description=description, **kwargs)


def guarded(run: Callable[[Optional[Sequence[str]]], int], argv: Optional[Sequence[str]],
            name: str) -> int:
    """run(argv)'s status; a closed stdout (`| head -1`) ends quietly with 0, Ctrl-C with 130,
    a ToolError with its one line and 1.  The engines a tool starts, from any thread, are
    ended with it (on SIGTERM and a second Ctrl-C too: set up here, in the main thread)."""
    install_cleanup()
    try:
        status = run(argv)
        sys.stdout.flush()
        return status
    except ToolError as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        return 130


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's flush at exit finds no closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


# --- output files -----------------------------------------------------------------------------

def check_writable(path, option: str = "--out") -> Path:
    """Fail now (before any work) if `path` cannot be created: its folder must exist and be
    writable, and the path must not be a folder."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise ToolError(f"{option} {path}: is a directory")
    if not folder.is_dir():
        raise ToolError(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ToolError(f"{option} {path}: cannot write into {folder}")
    return target


@contextmanager
def atomic_output(path, option: str = "--out", encoding: str = "utf-8",
                  newline: Optional[str] = None) -> Iterator:
    """A text file written beside `path` and renamed onto it when the block ends normally;
    on an error or Ctrl-C the temporary file is removed and `path` is left as it was."""
    target = check_writable(path, option)
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part",
                                         dir=target.parent if str(target.parent) else ".")
    except OSError as e:
        raise ToolError(f"cannot write {path}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline=newline) as f:
            yield f
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def write_atomically(path, text: str, option: str = "--out") -> None:
    try:
        with atomic_output(path, option) as f:
            f.write(text)
    except OSError as e:
        raise ToolError(f"cannot write {path}: {e.strerror or e}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# --- engines ----------------------------------------------------------------------------------

ALLOW_PYTHON_HELP = "accept an engine whose search is not the compiled core (its games say " \
                    "nothing about the engine's strength)"


def require_compiled(engine: EngineProcess, name: str = "the engine") -> None:
    """EngineError unless the engine's `version` says its search is the compiled core: a
    strength-relevant tool would otherwise measure the slow Python fallback."""
    ok, text = engine.send("version")
    if not ok or "core=compiled" not in text.split():
        raise EngineError(f"{name} does not run the compiled core (version: {text.strip()[:120]!r}); "
                          "build it (pip install -e ., or python3 engine/_core_build.py) or pass "
                          "--allow-python-player")


# --- Ray --------------------------------------------------------------------------------------

def ray_init(tool: str, **kwargs):
    """Ray, started (or joined: RAY_ADDRESS); ToolError in one line if Ray is missing or the
    cluster cannot be reached."""
    try:
        import ray
    except ImportError:
        raise ToolError("--ray needs Ray (pip install 'gipf-engine[cluster]')") from None
    if ray.is_initialized():
        return ray
    options: dict[str, Any] = dict(include_dashboard=False, log_to_driver=False,
                                   configure_logging=False)
    options.update(kwargs)
    try:
        ray.init(**options)
    except Exception as e:  # noqa: BLE001 - Ray raises ConnectionError, RuntimeError, ...
        address = os.environ.get("RAY_ADDRESS")
        where = f"the Ray cluster at RAY_ADDRESS={address}" if address else "Ray"
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ToolError(f"cannot start {where}: {first[:200]}") from None
    return ray


# --- inputs -----------------------------------------------------------------------------------

def read_input(path: str, limit: int, allow_stdin: bool = False) -> str:
    """A text file (or stdin for "-" where allowed), bounded; ToolError in one line."""
    from engine.bounded_read import InputError, read_text
    try:
        return read_text(str(path), limit, allow_stdin=allow_stdin)
    except InputError as e:
        raise ToolError(str(e)) from None


def weights_text(path: str) -> str:
    """The text of a weights file (`weights load`'s format), bounded and checked; ToolError."""
    from engine import evaluation
    text = read_input(path, evaluation.MAX_WEIGHTS_BYTES)  # the limit of `weights load`
    try:
        evaluation.parse_file(text)
    except evaluation.WeightsError as e:
        raise ToolError(f"{path}: {e}") from None
    return text


def apply_weights(text: str, game: str, path: str = "weights") -> int:
    """Set every weight a weights file's text names (all or none); ToolError."""
    from engine import evaluation
    try:
        return evaluation.set_weights(evaluation.parse_file(text), game)
    except evaluation.WeightsError as e:
        raise ToolError(f"{path}: {e}") from None


def bounded_lines(stream, *, limit: int, name: str = "standard input"):
    """The lines of a binary stream as text, each at most `limit` bytes: a peer that sends
    an endless line (`< /dev/zero`) or bytes that are not UTF-8 is a ToolError, not a
    MemoryError or a traceback."""
    number = 0
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        number += 1
        if len(raw) > limit:
            raise ToolError(f"{name}: line {number} is longer than {limit} bytes")
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ToolError(f"{name}: line {number} is not UTF-8 text (byte {e.start})") from None


def positive(text: str) -> int:
    """argparse type of a count or a budget: a whole number from 1."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1 or len(text) > 9:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1")
    return int(text)


def command(text: str) -> str:
    """argparse type of an option that names a command to start: not empty (a command that
    cannot be split or started is the starting code's one-line error)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty command")
    return text

"""Shared fixtures: the real engine process, and where the shared records live."""
from __future__ import annotations

import contextlib
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from engine.protocol import gtp

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


# Positions and records several test modules share.
DVONN_POINTS = ("A1 B1 C1 D1 E1 F1 G1 H1 I1 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 A3 B3 C3 D3 E3 F3 G3 H3 "
                "I3 J3 K3 B4 C4 D4 E4 F4 G4 H4 I4 J4 K4 C5 D5 E5 F5 G5 H5 I5 J5 K5").split()
FIXED_TZAAR = ("tzaar w opening C,C,C,C,c/c,B,B,B,b,c/c,b,A,A,a,b,c/c,b,a,C,c,a,b,c/c,b,a,c,C,A,B,C/"
               "C,B,A,C,c,A,B,C/C,B,A,a,a,B,C/C,B,b,b,b,C/C,c,c,c,c")
HAND_BUILT_TZAAR = (
    "(;FF[TZAAR]VA[RANDOM]PB[Built]PW[Hand]"
    "POS[cBbCbcBCCBBcabaBbCcCbbbCCACAcbcbcBccBCCBaAAacCCcaacCACcCccAB]"
    "SO[https://www.littlegolem.net];W[npmq];B[prqq-kplp];W[smrn-pqqp];B[lqmp-lpmp]"
    ";W[omnm-mnnm];B[mpmo-lomo];W[nonq-nqop];B[monn-nsnr];W[nmpm-opmr];B[nror-orqp]"
    ";W[mrpo-pmqm];B[rorn-qpsn];W[slrm-qmrm];B[nnkq-snsk];W[oqms-rmrl];B[skrk-rkqk]"
    ";W[qlqn-rlpl];B[qkqn-qnpo];W[plkq-onln];B[lrmq-pols];W[lnpn-mspp];B[krks-ksls]"
    ";W[nlol-rpqq])")


REPLY = re.compile(r"[=?][0-9]*(?: [^\n]*)?\n(?:[^\n]+\n)*\n")


def transcript(out: str) -> list[tuple[bool, str, str]]:
    """An engine's stdout cut into (ok, id, text) replies; anything else there fails the test."""
    replies, pos = [], 0
    while pos < len(out):
        m = REPLY.match(out, pos)
        assert m, f"not a GTP reply at offset {pos}: {out[pos:pos + 200]!r}"
        ok, cid, text = gtp.parse_reply(m.group(0).rstrip("\n").split("\n"))
        replies.append((ok, cid or "", text))
        pos = m.end()
    return replies


@contextlib.contextmanager
def gui_server():
    """`python3 -m engine.gui` on a free port, as a user starts it; its address, ending in '/'."""
    with subprocess.Popen([sys.executable, "-m", "engine.gui", "--port", "0"], cwd=str(REPO),
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as proc:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if "http://127.0.0.1:" not in line:
            proc.kill()
            pytest.fail(f"the GUI server did not start: {line!r}")
        try:
            yield line.split()[3]
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def sigint_as_in_a_terminal() -> None:
    """preexec_fn for a child that must see Ctrl-C as a terminal user's does: a shell starts
    background jobs with SIGINT ignored, and a Python child would inherit that and never stop."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def shared_dir(*parts: str) -> Path:
    """A folder under ../shared, or skip the test saying why."""
    path = SHARED.joinpath(*parts)
    if not path.is_dir():
        pytest.skip(f"{path} is absent (CI lays shared/ beside the repo)")
    return path


class EngineClient:
    """Talks to the real engine over pipes, as a GUI or bridge would."""

    def __init__(self, *args: str) -> None:
        from pexpect.popen_spawn import PopenSpawn

        self.child = PopenSpawn([sys.executable, "-m", "engine", *args], cwd=str(REPO),
                                encoding="utf-8", timeout=60)

    def send_raw(self, data: str) -> None:
        self.child.send(data)

    def read_reply(self) -> tuple[bool, str, str]:
        """(ok, id, text) of the next reply; the text without the status prefix."""
        self.child.expect(r"[=?]\d*(?: [^\n]*)?\n(?:[^\n]+\n)*\n")
        ok, cid, text = gtp.parse_reply(self.child.after.rstrip("\n").split("\n"))
        return ok, cid or "", text

    def ask(self, line: str) -> tuple[bool, str]:
        self.send_raw(line + "\n")
        ok, _, text = self.read_reply()
        return ok, text

    def ok(self, line: str) -> str:
        ok, text = self.ask(line)
        assert ok, f"{line!r} failed: {text}"
        return text

    def error(self, line: str) -> str:
        ok, text = self.ask(line)
        assert not ok, f"{line!r} should have failed but gave {text!r}"
        return text

    def close(self) -> int:
        """End of input (unless the engine has ended already), then its exit status; our
        ends of the pipes are closed (no ResourceWarning)."""
        import pexpect

        proc = self.child.proc
        if not proc.stdin.closed:
            self.child.sendeof()
        self.child.expect(pexpect.EOF)
        status = self.child.wait()
        proc.stdout.close()
        return status


@pytest.fixture
def engine():
    client = EngineClient()
    yield client
    if not client.child.proc.stdout.closed:
        client.close()


FAKE_ENGINE = '''\
import sys, time
version, hang = sys.argv[1], sys.argv[2:]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] in hang:
        time.sleep(3600)
    if words[0] == "quit":
        print("=\\n", flush=True)
        break
    print("= " + (version if words[0] == "version" else "") + "\\n", flush=True)
'''


@pytest.fixture
def fake_engine(tmp_path):
    """fake_engine(version, *hang): the command of a stand-in engine that says `=` to every
    command, answers `version` with `version`, and never answers the commands in `hang`."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)

    def command(version: str = "0.1.0 core=compiled", *hang: str) -> str:
        import shlex
        return " ".join(shlex.quote(part) for part in (sys.executable, str(script), version, *hang))

    return command


def pytest_terminal_summary(terminalreporter):
    """The documents' replayed replies, counted per document (tests/doc_replay.py): all of them
    were equal to what the documents show, or the tests that compared them failed."""
    from doc_replay import COMPARED
    for document, count in sorted(COMPARED.items()):
        unit = {"stderr": "stderr lines", "examples": "commands' outputs",
                "blocks": "usage blocks"}.get(document.split()[-1], "replies")
        terminalreporter.write_line(f"documents replayed: {document.split()[0]}: {count} {unit} compared, "
                                    "all equal")

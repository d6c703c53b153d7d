"""scripts/regress: the runner's parsing and verdicts, and the suite tests/regress/*.tst."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.tools import regress

REPO = Path(__file__).resolve().parents[1]


class FakeEngine:
    """Answers from a table: command (without id) -> (ok, text)."""

    def __init__(self, replies: dict) -> None:
        self.replies = replies
        self.sent: list[str] = []

    def send(self, line: str):
        self.sent.append(line)
        name = line.split(None, 1)[1] if line.split()[0].isdigit() else line
        return self.replies.get(name, (False, f"unknown command: {name}"))


SYNTHETIC = """\
# comment
newgame dvonn
1 name
#? [Gipf.*]

2 version
#? [!0\\.0.*]

3 bogus
#? [?unknown command: bogus]

4 name
#? [Other]*

5 name
#? [Gipfbot]*

6 status
#? [over=no]

7 status
# a numbered command without '#?' is no test
"""


def run(text: str, replies: dict):
    summary = regress.Summary()
    regress.run_items(regress.parse_tst(text), FakeEngine(replies), "t.tst", summary)
    return summary


def test_parse_tst():
    items = regress.parse_tst(SYNTHETIC)
    assert [i.command for i in items] == ["newgame dvonn", "1 name", "2 version", "3 bogus",
                                          "4 name", "5 name", "6 status", "7 status"]
    tests = {i.test_id: i.expectation for i in items if i.expectation}
    assert sorted(tests) == ["1", "2", "3", "4", "5", "6"]
    assert tests["2"].negated and tests["2"].regex == "0\\.0.*" and not tests["2"].error
    assert tests["3"].error and not tests["3"].negated
    assert tests["4"].expected_failure and tests["5"].expected_failure
    assert items[1].line == 3


def test_verdicts():
    replies = {"newgame dvonn": (True, ""), "name": (True, "Gipfbot"),
               "version": (True, "0.1.0"), "status": (True, "game=dvonn over=no")}
    summary = run(SYNTHETIC, replies)
    assert summary.tests == 6
    # 6 fails: the regex must match the whole reply
    assert len(summary.failures) == 1 and "6 status" in summary.failures[0]
    assert len(summary.expected) == 1                      # test 4
    assert len(summary.unexpected_passes) == 1 and "5 name" in summary.unexpected_passes[0]
    assert not summary.ok
    assert summary.text() == ("6 tests, 1 unexpected failures, 1 unexpected passes, "
                              "1 expected failures")


def test_negation_error_replies_and_setup_errors():
    text = "1 a\n#? [!x]\n2 b\n#? [!?x]\n3 c\n#? [?.*]\nd\n"
    summary = run(text, {"a": (False, "y"), "b": (False, "y"), "c": (True, "")})
    failed = " ".join(summary.failures)
    assert "1 a" in failed          # an error reply never passes a success expectation
    assert "2 b" not in failed      # an error whose text does not match x
    assert "3 c" in failed          # a success where an error was expected
    assert "setup command failed" in failed  # 'd' is unknown to the fake engine
    assert summary.tests == 3


def test_multi_line_replies_and_dead_engines():
    summary = run("1 a\n#? [x\\ny]\n2 b\n#? [.*z.*]\n", {"a": (True, "x\ny"), "b": (True, "a\nz")})
    assert summary.ok and summary.tests == 2

    class Dead(FakeEngine):
        def send(self, line):
            raise regress.EngineError("gone")

    summary = regress.Summary()
    regress.run_items(regress.parse_tst("1 a\n#? [.*]\n2 b\n#? [.*]*\n"), Dead({}), "t", summary)
    assert len(summary.failures) == 1 and len(summary.expected) == 1


@pytest.mark.parametrize("text", ["#? [x]\n", "1 a\n#? x\n", "1 a\n#? [(]\n"])
def test_malformed_files(text):
    with pytest.raises(regress.TstError):
        regress.parse_tst(text)


def test_the_suite_passes():
    files = sorted(str(p) for p in (REPO / "tests" / "regress").glob("*.tst"))
    assert len(files) >= 3
    result = subprocess.run([sys.executable, "scripts/regress", *files], cwd=REPO,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert " 0 unexpected failures, 0 unexpected passes" in result.stdout


def test_exit_status_reports_unexpected_failures(tmp_path):
    path = tmp_path / "bad.tst"
    path.write_text("1 name\n#? [Nobody]\n2 name\n#? [Nobody]*\n")
    result = subprocess.run([sys.executable, "scripts/regress", str(path)], cwd=REPO,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "FAIL" in result.stdout and "1 name" in result.stdout
    assert result.stdout.strip().endswith("2 tests, 1 unexpected failures, 0 unexpected passes, "
                                          "1 expected failures")

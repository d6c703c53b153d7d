"""Run gogui-regress-style test files (.tst) against an engine.

Each file runs in a fresh engine process (`python3 -m engine`, or --engine).
The file is a list of protocol commands, sent one by one in order:

  # a comment                        (not sent)
  setposition dvonn b move ...       (a command; its reply is not checked ...)
  10 legal_moves                     (a numbered command ...)
  #? [pass]                          (... followed by its expectation: a test)

Semantics (GoGui's where known; where GoGui is silent, these are ours):

* A test is a command with a numeric id whose next non-blank line is `#? [...]`.
  The id is the test's name in reports; ids need not be unique or ordered.
* `#? [regex]`: the reply must be a success ('=') and the regex (Python `re`,
  DOTALL, so '.' also matches a newline in a multi-line reply) must match the
  WHOLE reply text, without the '=', the id and surrounding blanks.
* `#? [!regex]`: the reply must be a success and the regex must NOT match it.
* `#? [?regex]`: the reply must be an error ('?') whose text matches the regex
  (`[?.*]` = any error; `[!?regex]` = an error whose text does not match).
  A '?' reply to any test without the '?' fails it.
* A trailing `*` after the closing bracket (`#? [regex]*`) marks an expected
  failure (a known bug): failing it is an "expected failure", passing it an
  "unexpected pass" (reported, but the run still succeeds).
* A command without an expectation that gets an error reply is reported as a
  setup error and counts as an unexpected failure: tests after a broken setup
  mean nothing.  If the engine dies, the rest of the file fails.

Output: one line per unexpected failure or unexpected pass (`file:line: id
command: got ... expected ...`), with -v also every passing test and expected failure, then a
summary `N tests, F unexpected failures, P unexpected passes, E expected
failures` per run.  Exit status 0 iff there was no unexpected failure.

Example:
  gipf-regress tests/regress/*.tst
  gipf-regress --engine "python3 -m engine --seed 3" -v tests/regress/dvonn.tst
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from engine.bounded_read import InputError, read_text
from engine.client import DEFAULT_ENGINE, EngineError, EngineProcess
from engine.tools import cli

MAX_TST_BYTES = 16 << 20
_ID = re.compile(r"^([0-9]+)\s+(\S.*)$")
_EXPECT = re.compile(r"^#\?\s*\[(.*)\](\*?)\s*$")


class TstError(ValueError):
    """A malformed .tst line."""


@dataclass
class Expectation:
    regex: str
    negated: bool = False
    error: bool = False           # the reply must be a '?' error
    expected_failure: bool = False

    def check(self, ok: bool, text: str) -> bool:
        """Whether a reply (success flag, text) passes this expectation."""
        if ok == self.error:
            return False
        matched = re.fullmatch(self.regex, text, re.DOTALL) is not None
        return matched != self.negated

    def __str__(self) -> str:
        body = ("!" if self.negated else "") + ("?" if self.error else "") + self.regex
        return f"[{body}]" + ("*" if self.expected_failure else "")


@dataclass
class Item:
    line: int                      # 1-based line of the command
    command: str                   # as sent, with its id
    test_id: Optional[str] = None
    expectation: Optional[Expectation] = None


def parse_expectation(text: str, line: int = 0) -> Expectation:
    m = _EXPECT.match(text.strip())
    if not m:
        raise TstError(f"line {line}: expected '#? [regex]' with an optional trailing '*'")
    body, star = m.groups()
    negated = body.startswith("!")
    body = body[1:] if negated else body
    error = body.startswith("?")
    body = body[1:] if error else body
    try:
        re.compile(body)
    except re.error as e:
        raise TstError(f"line {line}: bad regex {body!r}: {e}") from None
    return Expectation(body, negated, error, star == "*")


def parse_tst(text: str) -> list[Item]:
    """The commands of a .tst file, each with its expectation if it is a test."""
    items: list[Item] = []
    pending: Optional[Item] = None   # a numbered command that may still get '#?'
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#?"):
            if pending is None:
                raise TstError(f"line {number}: '#?' must follow a numbered command")
            pending.expectation = parse_expectation(line, number)
            pending = None
            continue
        if line.startswith("#"):
            continue
        item = Item(number, line)
        m = _ID.match(line)
        if m:
            item.test_id = m.group(1)
        pending = item if item.test_id else None
        items.append(item)
    return items


@dataclass
class Summary:
    tests: int = 0
    failures: list[str] = field(default_factory=list)        # unexpected failures
    unexpected_passes: list[str] = field(default_factory=list)
    expected: list[str] = field(default_factory=list)        # expected failures
    passes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def text(self) -> str:
        return (f"{self.tests} tests, {len(self.failures)} unexpected failures, "
                f"{len(self.unexpected_passes)} unexpected passes, "
                f"{len(self.expected)} expected failures")


def _show(text: str) -> str:
    return repr(text if len(text) <= 200 else text[:200] + "...")


def run_items(items: list[Item], engine, name: str, summary: Summary) -> None:
    """Send the items to an engine (anything with send(line) -> (ok, text))."""
    dead: Optional[str] = None
    for item in items:
        where = f"{name}:{item.line}: {item.command}"
        if dead is None:
            try:
                ok, text = engine.send(item.command)
            except EngineError as e:
                dead = str(e)
        if dead is not None:
            ok, text = False, f"(no reply: {dead})"
        reply = ("= " if ok else "? ") + text
        if item.expectation is None:
            if not ok:
                summary.failures.append(f"{where}: setup command failed: {_show(reply)}")
            continue
        summary.tests += 1
        expectation = item.expectation
        passed = not dead and expectation.check(ok, text)
        report = f"{where}: got {_show(reply)}, expected {expectation}"
        if passed and expectation.expected_failure:
            summary.unexpected_passes.append(report)
        elif passed:
            summary.passes.append(report)
        elif expectation.expected_failure:
            summary.expected.append(report)
        else:
            summary.failures.append(report)


def run_file(path: Path, engine_command: str, summary: Summary) -> None:
    items = parse_tst(read_text(str(path), MAX_TST_BYTES))
    engine = EngineProcess(engine_command, f"the engine ({engine_command})")
    try:
        run_items(items, engine, str(path), summary)
    finally:
        engine.close()


def main(argv=None) -> int:
    return cli.guarded(run, argv, "regress")


def run(argv=None) -> int:
    parser = cli.parser("regress", __doc__)
    parser.add_argument("files", nargs="+", type=Path, help=".tst files")
    parser.add_argument("--engine", type=cli.command, default=DEFAULT_ENGINE, help="command starting the engine")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also list passing tests and expected failures")
    args = parser.parse_args(argv)
    summary = Summary()
    for path in args.files:
        try:
            run_file(path, args.engine, summary)
        except (InputError, TstError, EngineError) as e:
            summary.failures.append(f"{path}: {e}")
    if args.verbose:
        for line in summary.passes:
            print(f"PASS {line}")
    for line in summary.failures:
        print(f"FAIL {line}")
    for line in summary.unexpected_passes:
        print(f"UNEXPECTED PASS {line}")
    if args.verbose:
        for line in summary.expected:
            print(f"EXPECTED FAIL {line}")
    print(summary.text())
    return 0 if summary.ok else 1


if __name__ == "__main__":
    sys.exit(main())

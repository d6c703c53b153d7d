"""Source files and functions a reader can take in: no source file in engine/, csrc/ or
tests/csrc/ over 500 lines, no Python or C function over 80 lines.

C functions are found by reading the code as tokens (comments, strings and preprocessor lines
left out) and matching braces, so a head in any shape counts: wrapped parameters,
`__attribute__`, `static inline`, a name made by a macro (`S(node)`).

PENDING names the files and functions still over a limit while they are split, with their
length today: one of them may not grow, and its entry must go once it is under the limit (the
test fails on a stale entry too), so the list only ever shrinks.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import REPO

FILE_LIMIT = 500
FUNCTION_LIMIT = 80
SOURCES = [("engine", ("*.py", "*.js", "*.css", "*.html")), ("csrc", ("*.c", "*.h", "*.inc")),
           ("tests/csrc", ("*.c", "*.h", "*.inc"))]
C_SUFFIXES = (".c", ".h", ".inc")

PENDING: dict[str, int] = {}

C_TOKEN = re.compile(r"""
    (?P<skip>//[^\n]*|/\*.*?\*/                     # comments
      |"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'   # string and character literals
      |^[ \t]*\#(?:\\\n|[^\n])*)                   # preprocessor lines, continued or not
  | (?P<token>[A-Za-z_]\w*|[{}();=])
  | (?P<other>\s+|.)
""", re.S | re.M | re.X)
C_STATEMENT_WORDS = {"if", "for", "while", "switch", "return", "sizeof"}


def source_files() -> list[Path]:
    found: list[Path] = []
    for folder, patterns in SOURCES:
        for pattern in patterns:
            found += (REPO / folder).rglob(pattern)
    return sorted(set(found))


def python_functions(text: str) -> list[tuple[str, int]]:
    return [(node.name, node.end_lineno - node.lineno + 1) for node in ast.walk(ast.parse(text))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno]


def c_tokens(text: str) -> list[tuple[str, int]]:
    """The words and the punctuation `{}();=` of C source, each with its line (from 1)."""
    tokens, line, pos = [], 1, 0
    for m in C_TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        if m.lastgroup == "token":
            tokens.append((m.group(), line))
    return tokens


def matching(words: list[str], i: int) -> int:
    """The index of the bracket closing the one at words[i]."""
    pair = {"(": ")", "{": "}"}[words[i]]
    depth = 0
    for j in range(i, len(words)):
        depth += (words[j] == words[i]) - (words[j] == pair)
        if depth == 0:
            return j
    raise ValueError(f"unbalanced {words[i]!r}")


def opening(words: list[str], j: int) -> int:
    """The index of the `(` that the `)` at words[j] closes."""
    depth = 0
    for i in range(j, -1, -1):
        depth += (words[i] == ")") - (words[i] == "(")
        if depth == 0:
            return i
    raise ValueError("unbalanced ')'")


def function_name(head: list[str]) -> str | None:
    """The name a definition's head gives (the words before its `{`), None for anything else
    (a struct, an enum, an initialiser)."""
    if "=" in head:
        return None
    while head and head[-1] == ")":  # trailing __attribute__((...)) groups
        i = opening(head, len(head) - 1)
        if i == 0 or head[i - 1] != "__attribute__":
            break
        head = head[:i - 1]
    if len(head) < 3 or head[-1] != ")":
        return None
    params = opening(head, len(head) - 1)
    if params == 0:
        return None
    before = head[params - 1]
    if before == ")":  # a name made by a macro: S(node)(...)
        made = opening(head, params - 1)
        return head[made - 1] + "".join(head[made:params]) if made else None
    return before if before not in C_STATEMENT_WORDS else None


def c_functions(text: str) -> list[tuple[str, int]]:
    """(name, lines) of each function defined in C source: from its head's first line to the
    line of its closing brace."""
    tokens = c_tokens(text)
    words = [w for w, _ in tokens]
    found: list[tuple[str, int]] = []
    start = i = 0
    while i < len(words):
        if words[i] == "{":
            close = matching(words, i)
            name = function_name(words[start:i])
            if name:
                found.append((name, tokens[close][1] - tokens[start][1] + 1))
            start = i = close + 1
            continue
        if words[i] == "}":
            raise ValueError(f"unbalanced '}}' at line {tokens[i][1]}")
        if words[i] == ";":
            start = i + 1
        i += 1
    return found


def lengths() -> dict[str, int]:
    """Every source file's lines and every function's, by name."""
    sizes = {}
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        rel = str(path.relative_to(REPO))
        sizes[rel] = text.count("\n")
        functions = python_functions(text) if path.suffix == ".py" else \
            c_functions(text) if path.suffix in C_SUFFIXES else []
        for name, count in functions:
            key = f"{rel} {name}"
            sizes[key] = max(count, sizes.get(key, 0))
    return sizes


def limit_of(key: str) -> int:
    return FUNCTION_LIMIT if " " in key else FILE_LIMIT


def test_the_c_reader_finds_functions_and_their_length():
    text = ("static int S(node)(S(Thread) *t, int depth)\n{\n    return 0;\n}\n\n"
            "static inline __attribute__((always_inline)) int eval_impl(const P *p) {\n"
            "    if (x) {\n        y();\n    }\n    return 1;\n}\n"
            "static const GameOps OPS = {\n    .a = 1,\n};\nint declared(void);\n"
            "typedef struct {\n    int a;\n} T;\n")
    assert c_functions(text) == [("S(node)", 4), ("eval_impl", 6)]


def test_the_c_reader_measures_a_wrapped_head_with_attributes():
    """The head's parameters run over three lines and an attribute follows them; braces in a
    comment, a string, a character and a preprocessor line are not the code's."""
    text = ("/* { */\n"
            "static inline __attribute__((always_inline)) int\n"
            "wrapped(const P *p,\n"
            "        int depth,\n"
            "        int ply) __attribute__((hot))\n"
            "{\n"
            "#define OPEN {\n"
            "    const char *s = \"}\"; // }\n"
            "    char c = '{';\n"
            "    return s[0] + c + depth;\n"
            "}\n"
            "static int\nlong_one(void)\n{\n" + "    x++;\n" * 90 + "}\n")
    assert c_functions(text) == [("wrapped", 10), ("long_one", 94)]


def test_no_source_file_over_500_lines_and_no_function_over_80():
    sizes = lengths()
    over = {key: count for key, count in sizes.items()
            if count > limit_of(key) and key not in PENDING}
    assert over == {}
    grown = {key: (sizes.get(key), most) for key, most in PENDING.items()
             if sizes.get(key, 0) > most}
    assert grown == {}, "a file or function being split grew"
    done = [key for key in PENDING if sizes.get(key, 0) <= limit_of(key)]
    assert done == [], "under the limit now: take it out of PENDING"

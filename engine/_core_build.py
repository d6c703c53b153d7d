"""cffi (API mode, out-of-line) builder for the compiled search core ``engine._core``.

Used by setup.py (``cffi_modules``) and runnable directly for an in-tree build:
``python engine/_core_build.py``.  It compiles every ``csrc/<folder>/*.c`` (the core and
one folder per game, csrc/CONTRACT.md) and gives cffi the declarations between the marker
comments of csrc/core/core_api.h.  Environment: ``GIPF_CORE_CFLAGS`` replaces
the optimisation flags (scripts/sanitize uses it), ``GIPF_CORE_LDFLAGS`` adds
link flags.
"""
from __future__ import annotations

import glob
import os
import platform
import shlex
import subprocess
import tempfile

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CSRC = os.path.join(ROOT, "csrc")

API_HEADER = os.path.join(CSRC, "core", "core_api.h")
CDEF_BEGIN, CDEF_END = "/* cdef-begin */", "/* cdef-end */"


def api_cdef(header: str = API_HEADER) -> str:
    """The declarations cffi is given: core_api.h's part between its two marker comments (so
    the C header is the only copy), then the Python callback."""
    with open(header, encoding="utf-8") as f:  # one of our own sources, a few kB
        text = f.read()
    begin, end = text.find(CDEF_BEGIN), text.find(CDEF_END)
    if begin < 0 or end < begin:
        raise RuntimeError(f"{header}: no {CDEF_BEGIN} ... {CDEF_END} section")
    return (text[begin + len(CDEF_BEGIN):end] +
            '\nextern "Python" void _core_on_iteration(void *userdata, const SearchResult *iteration);\n')


def _compiler_accepts(flag: str) -> bool:
    cc = shlex.split(os.environ.get("CC", "cc"))
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "t.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        try:
            return subprocess.run(cc + [flag, "-c", src, "-o", os.path.join(tmp, "t.o")],
                                  capture_output=True).returncode == 0
        except OSError:
            return False


def _cflags() -> list[str]:
    override = os.environ.get("GIPF_CORE_CFLAGS")
    base = ["-std=c11", "-pthread", "-Wall", "-Wextra"]
    if override is not None:
        return base + shlex.split(override)
    flags = base + ["-O3"]
    # Only the module's init function is looked up by name: calls between the core's files
    # then go direct instead of through the PLT (about 1 % more nodes/s).
    if _compiler_accepts("-fvisibility=hidden"):
        flags.append("-fvisibility=hidden")
    # x86-64-v2 = SSE4.2 + POPCNT (hardware bit counts); never -march=native.
    if platform.machine().lower() in ("x86_64", "amd64") and _compiler_accepts("-march=x86-64-v2"):
        flags.append("-march=x86-64-v2")
    return flags


# The core (csrc/core) and one folder per game (csrc/<game>).
INCLUDE_DIRS = ["core"]


def _files(pattern: str, relative: bool) -> list[str]:
    """The core's and the games' files (csrc/<folder>/<pattern>), in a fixed order."""
    found = sorted(glob.glob(os.path.join(CSRC, "*", pattern)))
    # setuptools wants paths relative to setup.py's directory; ffi.compile() needs absolute ones.
    return [os.path.relpath(f, ROOT) for f in found] if relative else found


def make_builder(relative: bool = True) -> FFI:
    builder = FFI()
    builder.cdef(api_cdef())
    builder.set_source(
        "engine._core",
        '#include "core_api.h"\n',
        sources=_files("*.c", relative),
        depends=_files("*.h", relative) + _files("*.inc", relative),  # a changed header or part rebuilds too
        include_dirs=[os.path.join(CSRC, d) for d in INCLUDE_DIRS],
        extra_compile_args=_cflags(),
        extra_link_args=["-pthread"] + shlex.split(os.environ.get("GIPF_CORE_LDFLAGS", "")),
    )
    return builder


ffibuilder = make_builder(relative=os.path.abspath(os.getcwd()) == ROOT)

if __name__ == "__main__":
    import shutil

    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        built = make_builder(relative=False).compile(tmpdir=tmp, verbose=False)
        for old in glob.glob(os.path.join(HERE, "_core.*.so")):
            os.remove(old)
        shutil.copy(built, HERE)
        print(os.path.join(HERE, os.path.basename(built)))

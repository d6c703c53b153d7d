"""cffi (API mode, out-of-line) builder for the compiled search core ``engine._core``.

Used by setup.py (``cffi_modules``) and runnable directly for an in-tree build:
``python engine/_core_build.py``.  Environment: ``GIPF_CORE_CFLAGS`` replaces
the optimisation flags (scripts/sanitize uses it), ``GIPF_CORE_LDFLAGS`` adds
link flags.
"""
from __future__ import annotations

import os
import platform
import shlex
import subprocess
import tempfile

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CSRC = os.path.join(ROOT, "csrc")

CDEF = """
#define MAX_PLY ...
#define MAX_MULTIPV ...
#define SCORE_WIN ...
#define SCORE_MARGIN ...
#define CORE_GAME_DVONN ...
#define CORE_GAME_TZAAR ...
#define CORE_MAX_MOVES ...
#define CORE_NO_MEMORY ...
#define CORE_INTERRUPTED ...
typedef struct {
    uint32_t move; int32_t score; int32_t proven; int32_t pvlen; uint32_t pv[...];
    ...;
} SearchLine;
typedef struct {
    uint32_t best; int32_t score; int32_t depth; int32_t seldepth; int32_t proven;
    int32_t pvlen; uint64_t nodes; double time_ms; uint32_t pv[...];
    int32_t nlines; SearchLine lines[...];
    ...;
} SearchResult;
typedef void (*SearchCallback)(void *userdata, const SearchResult *iteration);
typedef struct {
    int64_t time_ms; int64_t soft_ms; int32_t depth; uint64_t nodes; int32_t threads;
    uint64_t seed; int32_t *stop; SearchCallback on_iteration; void *userdata;
    int32_t multipv; int32_t report_ms;
    ...;
} SearchParams;

typedef struct {
    int64_t time_ms; uint64_t nodes; const int32_t *stop;
    ...;
} SolveParams;
typedef struct {
    int32_t solved; int32_t value; uint32_t best; int32_t pvlen; uint64_t nodes; double time_ms;
    uint32_t pv[...];
    ...;
} SolveResult;

const char *core_version(void);
int core_has_game(int game);
int core_points(int game);
int core_perft(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, int depth, uint64_t *out);
int core_legal(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, uint32_t *moves);
int core_eval(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
              int side, int phase, int *out);
int core_search(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                int side, int phase, const SearchParams *prm, int hash_mb,
                SearchResult *res, uint32_t *turn, int *turnlen);
int core_solve(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, const SolveParams *prm, SolveResult *res,
               uint32_t *turn, int *turnlen);
int core_perft_stoppable(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                         int side, int phase, int depth, const int32_t *stop, uint64_t *out);
int core_set_hash(int hash_mb);
int core_prepare(int hash_mb);
void core_clear_hash(void);
#define CORE_WEIGHT_MAX 1000000
int core_eval_weight_count(int game);
int core_weight_count(int game);
int core_weight_info(int game, int i, const char **name, const char **help, int *value, int *deflt);
int core_weight_set(int game, int i, int value);
int core_eval_terms(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                    int side, int phase, double *terms, int *out);

extern "Python" void _core_on_iteration(void *userdata, const SearchResult *iteration);
"""


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


SOURCES = ["dvonn/dvonn.c", "dvonn/dvonn_eval.c", "dvonn/dvonn_net.c", "tzaar/tzaar.c", "tzaar/tzaar_eval.c",
           "core/tt.c", "core/search.c", "core/solve.c", "core/core_api.c"]
INCLUDE_DIRS = ["core", "dvonn", "tzaar", "generated"]


def _sources(relative: bool) -> list[str]:
    # setuptools wants paths relative to setup.py's directory; ffi.compile() needs absolute ones.
    base = "csrc" if relative else CSRC
    return [os.path.join(base, n) for n in SOURCES]


def make_builder(relative: bool = True) -> FFI:
    builder = FFI()
    builder.cdef(CDEF)
    builder.set_source(
        "engine._core",
        '#include "core_api.h"\n',
        sources=_sources(relative),
        include_dirs=[os.path.join(CSRC, d) for d in INCLUDE_DIRS],
        extra_compile_args=_cflags(),
        extra_link_args=["-pthread"] + shlex.split(os.environ.get("GIPF_CORE_LDFLAGS", "")),
    )
    return builder


ffibuilder = make_builder(relative=os.path.abspath(os.getcwd()) == ROOT)

if __name__ == "__main__":
    import glob
    import shutil

    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        built = make_builder(relative=False).compile(tmpdir=tmp, verbose=False)
        for old in glob.glob(os.path.join(HERE, "_core.*.so")):
            os.remove(old)
        shutil.copy(built, HERE)
        print(os.path.join(HERE, os.path.basename(built)))

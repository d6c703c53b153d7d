/* Flat C API used by the Python bindings (engine/core.py).
 * Positions come in as per-point arrays in canonical order (CONTRACT.md).  A game is a number:
 * its index in the registry (core/games.c), found by name with core_game.
 * Functions return < 0 on bad arguments.
 *
 * Between the two marker comments below: the declarations engine/_core_build.py hands to cffi
 * as its cdef, unchanged (so only what cffi's parser takes: integer #defines, typedefs,
 * prototypes; no includes, no expressions).  Everything Python reads of the core is there. */
#ifndef GIPF_CORE_API_H
#define GIPF_CORE_API_H

#include <stdint.h>

/* cdef-begin */
/* Moves (uint32_t): from | to << MOVE_TO_SHIFT | kind << MOVE_KIND_SHIFT, points below
 * MOVE_POINT_MASK + 1; a point of 63 is none (a placement's from, a pass).  The kinds are
 * the game's (CoreCodec.kinds, engine/games/<game>/codec.py). */
#define MOVE_TO_SHIFT 6
#define MOVE_KIND_SHIFT 12
#define MOVE_POINT_MASK 63

#define CORE_MAX_MOVES 400  /* room core_legal needs */
#define CORE_TURN_MAX 3     /* room core_search and core_solve need in turn[] */
#define CORE_NO_MEMORY -2   /* core_search, core_solve: the table could not be allocated */
#define CORE_INTERRUPTED -3 /* core_perft_stoppable: stopped before the count was done */
#define CORE_WEIGHT_MAX 1000000

#define MAX_PLY 200
#define MAX_MULTIPV 10
#define SCORE_WIN 1000000   /* game won; the margin and the length are added */
#define SCORE_MARGIN 256    /* per point of final margin (>= MAX_PLY so margin beats length) */
#define SOLVE_MAX_PV 128

/* One candidate line of a multi-PV search; its score is exact (never a bound). */
typedef struct SearchLine {
    uint32_t move;
    int32_t score;
    int32_t proven;
    int32_t pvlen;
    uint32_t pv[MAX_PLY];
} SearchLine;

typedef struct SearchResult {
    uint32_t best;        /* MOVE_NONE iff the game is over at the root */
    int32_t score;        /* from the side to act's view */
    int32_t depth;        /* last completed iteration */
    int32_t seldepth;
    int32_t proven;       /* result is certain: exact from game ends, or a proven win */
    int32_t pvlen;
    uint64_t nodes;       /* all threads */
    double time_ms;
    uint32_t pv[MAX_PLY];
    int32_t nlines;       /* multi-PV candidates, best first; lines[0] is best/score/pv */
    SearchLine lines[MAX_MULTIPV];
} SearchResult;

typedef void (*SearchCallback)(void *userdata, const SearchResult *iteration);

typedef struct SearchLimits {
    int64_t time_ms;      /* <= 0: no time limit; else a hard deadline (no new iteration after
                             the game's search_next_iteration % of it) */
    int32_t depth;        /* <= 0: no depth limit */
    uint64_t nodes;       /* 0: no node limit */
    int32_t threads;      /* searching threads incl. the caller (ABDADA beyond one) */
    uint64_t seed;        /* root tie-break shuffle */
    int32_t *stop;        /* optional external stop flag (non-zero = stop), read atomically */
    SearchCallback on_iteration; /* optional, called by the main thread per iteration */
    void *userdata;
    int32_t multipv;      /* candidates with exact scores, 1..MAX_MULTIPV (<= 0: 1) */
    int32_t report_ms;    /* > 0: also call on_iteration this often (latest iteration, current nodes) */
    int64_t soft_ms;      /* > 0: no new iteration after this many ms (else the game's share of time_ms) */
} SearchLimits;

typedef struct SolveLimits {
    int64_t time_ms;     /* <= 0: none */
    uint64_t nodes;      /* 0: none */
    const int32_t *stop; /* optional external stop flag */
} SolveLimits;

typedef struct SolveResult {
    int32_t solved;      /* 1: value and best are exact */
    int32_t value;       /* final score_white from the side to act's view */
    uint32_t best;       /* MOVE_NONE iff the game is over at the root */
    int32_t pvlen;       /* plies to the end along the stored best moves (0 if unknown) */
    uint64_t nodes;
    double time_ms;
    uint32_t pv[SOLVE_MAX_PV];
} SolveResult;

const char *core_version(void);
/* The number of the game named name (its GameSpec's name, engine/games/), -1 if the core has none. */
int  core_game(const char *name);
int  core_has_game(int game);
int  core_points(int game);
int  core_perft(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                int side, int phase, int depth, uint64_t *out);
/* Legal actions now (count, or -1); moves needs room for CORE_MAX_MOVES. */
int  core_legal(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                int side, int phase, uint32_t *moves);
int  core_eval(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, int *out);
/* Search; turn[0..*turnlen) = actions the side to act plays now (TZAAR: the whole turn).
 * One search at a time per process (serialised by a lock); the TT persists between calls
 * until core_clear_hash.  Returns 0, -1 for a bad position, CORE_NO_MEMORY. */
int  core_search(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                 int side, int phase, const SearchLimits *lim, int hash_mb,
                 SearchResult *res, uint32_t *turn, int *turnlen);
/* Exact endgame solve within lim's budget; res->solved = 0 when it ran out.
 * turn[0..*turnlen) = the actions to play now (TZAAR: the whole turn), res->pv
 * the line from the root.  Its table is kept until core_clear_hash. */
int  core_solve(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                int side, int phase, const SolveLimits *lim, SolveResult *res,
                uint32_t *turn, int *turnlen);
/* Perft that gives up (returns CORE_INTERRUPTED) soon after *stop becomes non-zero. */
int  core_perft_stoppable(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                          int side, int phase, int depth, const int32_t *stop, uint64_t *out);
/* Allocate the table now, every page of it resident (and set up the games' tables), outside
 * any search, so that no search's clock pays for it: 0 or -1. */
int  core_set_hash(int hash_mb);
/* Set up the games' tables and, unless a table exists already (a start-up warm-up must not
 * undo `option hash`), allocate one whose pages stay the OS's zero pages until a search
 * writes there: nothing resident for a process that never searches. */
int  core_prepare(int hash_mb);
void core_clear_hash(void);

/* Named weights, changed between searches: the evaluation's (the game's <game>_eval.h;
 * indexes below core_eval_weight_count), then the search parameters (core/search_params.h,
 * the defaults the game's own).  core_weight_range: the values that take effect (a search
 * parameter outside its range is clamped; an evaluation weight's is +-CORE_WEIGHT_MAX).
 * core_weight_set waits for a running search and clears the TT. */
int  core_eval_weight_count(int game);
int  core_weight_count(int game);
int  core_weight_info(int game, int i, const char **name, const char **help, int *value, int *deflt);
int  core_weight_range(int game, int i, int *low, int *high);
int  core_weight_set(int game, int i, int value);
/* Static evaluation (*out, side to act's view) and terms[2*i + c] = weight i's share
 * for colour c (0 White, 1 Black); terms needs room for 2 * core_eval_weight_count(game). */
int  core_eval_terms(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                     int side, int phase, double *terms, int *out);
/* The game's evaluation network: its shape (-1 if it has none); installing weights of that
 * shape (w1 features x hidden, b1 hidden, w2 buckets x 2 hidden, b2 buckets; on = 0: back to
 * the named weights' evaluation; max_stacks: the network values positions with at most this
 * many stacks (or pieces), the others the game's own evaluation; clears the table); and the positions up to depth plies on
 * whose incrementally kept first layer differs from a fresh one (*out). */
int  core_net_shape(int game, int *features, int *hidden, int *buckets);
int  core_net_set(int game, int on, const int16_t *w1, const int16_t *b1, const int16_t *w2,
                  const int32_t *b2, int32_t scale, int32_t max_stacks);
int  core_net_check(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                    int side, int phase, int depth, uint64_t *out);
/* cdef-end */

#endif

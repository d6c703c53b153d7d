/* One alpha-beta search for every game (compiled per game from search_impl.h). */
#ifndef GIPF_SEARCH_H
#define GIPF_SEARCH_H

#include "common.h"
#include "eval_weights.h"
#include "tt.h"

/* Search parameters, named like the evaluation weights (one set per game, listed by `weights`
 * as <game>.search_*, changed between searches).  PER_GAME(dvonn, tzaar) gives each game's
 * default: the SPRT-confirmed setting (README, "Search experiments"); an idea not confirmed
 * stays at the value that switches it off.  Values outside the range named in the help are
 * clamped where they are read.  Reductions are in 1/100 ply. */
#define SEARCH_TUNING(X, PER_GAME) \
    X(search_lmr_min_depth, PER_GAME(3, 3), "reduce late quiet moves from this remaining depth (1..20)") \
    X(search_lmr_min_move, PER_GAME(3, 3), "... from this move index on (1..100)") \
    X(search_lmr_base, PER_GAME(100, 100), "reduction, flat part, 1/100 ply (0..400)") \
    X(search_lmr_log, PER_GAME(0, 0), "reduction, 1/100 ply per ln(depth) x ln(move index) (0..400)") \
    X(search_lmr_pv, PER_GAME(0, 0), "reduction, 1/100 ply less at PV nodes (0..400)") \
    X(search_lmr_history, PER_GAME(0, 0), "reduction, 1/100 ply less for a move with full history (0..400)") \
    X(search_lmr_even, PER_GAME(0, 0), "reductions rounded down to whole turns of two plies, so a reduced line ends at the same side and phase (0 = off; 0..1)") \
    X(search_aspiration, PER_GAME(0, 0), "root aspiration window half-width from depth 4 (0 = off; 1..100000)") \
    X(search_lmp, PER_GAME(3, 0), "late-move pruning near the horizon outside the PV: quiet moves after this many x depth (0 = off)") \
    X(search_lmp_depth, PER_GAME(2, 2), "... at remaining depths up to this (1..6)") \
    X(search_countermove, PER_GAME(0, 0), "ordering bonus of the reply that refuted the previous move (0 = off; 0..499)") \
    X(search_phase_extension, PER_GAME(0, 0), "plies added to a line crossing into a new phase (DVONN stacking; 0..2)") \
    X(search_rfp, PER_GAME(0, 0), "reverse futility: outside the PV, a static score this much per ply above beta cuts (0 = off; 0..100000)") \
    X(search_rfp_depth, PER_GAME(3, 3), "... at remaining depths up to this (1..20)") \
    X(search_futility, PER_GAME(0, 0), "futility: outside the PV, quiet moves are not searched when the static score plus this per ply is below alpha (0 = off; 0..100000)") \
    X(search_nullmove, PER_GAME(2, 0), "null-move pruning: depth reduction of the imagined pass (0 = off; 1..6; DVONN stacking only)") \
    X(search_whole_turns, PER_GAME(0, 0), "iterations at even depths only after depth 2 (whole TZAAR turns; a depth limit is still reached; 0 = off, 1 = on)")

#define DVONN_DEFAULT(dvonn, tzaar) dvonn
#define TZAAR_DEFAULT(dvonn, tzaar) tzaar
#define DV_SEARCH_TUNING(X) SEARCH_TUNING(X, DVONN_DEFAULT)
#define TZ_SEARCH_TUNING(X) SEARCH_TUNING(X, TZAAR_DEFAULT)

#define SEARCH_TUNING_INDEX(name, deflt, help) ST_##name,
DECLARE_WEIGHTS(DV_SEARCH_TUNING, SEARCH_TUNING_INDEX, SEARCH_NTUNING, SearchTuning, SearchTuningSet)

extern SearchTuningSet dv_search_tuning, tz_search_tuning;
extern const WeightInfo DV_SEARCH_TUNING_INFO[SEARCH_NTUNING], TZ_SEARCH_TUNING_INFO[SEARCH_NTUNING];

#define MAX_PLY 200
#define EVAL_CACHE_SIZE 8192  /* leaf evaluations kept per thread (a power of 2; 128 KB) */
#define SCORE_INF 2000000000
#define SCORE_WIN 1000000       /* game won; the margin and the length are added */
#define SCORE_MARGIN 256        /* per point of final margin (>= MAX_PLY so margin beats length) */
#define SCORE_PROVEN_MIN (SCORE_WIN - 1000)
#define SCORE_EVAL_MAX 500000
#define MAX_MULTIPV 10

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

typedef struct SearchParams {
    int64_t time_ms;      /* <= 0: no time limit; else a hard deadline */
    int64_t soft_ms;      /* > 0: start no new iteration after this, scaled by the root's
                           * stability (S(last_start_ns)); <= 0: after 45 % of time_ms */
    int32_t depth;        /* <= 0: no depth limit */
    uint64_t nodes;       /* 0: no node limit */
    int32_t threads;      /* lazy SMP workers incl. the caller */
    uint64_t seed;        /* root tie-break shuffle */
    int32_t *stop;        /* optional external stop flag (non-zero = stop), read atomically */
    SearchCallback on_iteration; /* optional, called by the main thread per iteration */
    void *userdata;
    int32_t multipv;      /* candidates with exact scores, 1..MAX_MULTIPV (<= 0: 1) */
    int32_t report_ms;    /* > 0: also call on_iteration this often (latest iteration, current nodes) */
} SearchParams;

/* Terminal value from the side to act's view; score_white from <game>_over. */
static inline int search_terminal_score(int score_white, int side, int ply)
{
    int v = score_white > 0 ? SCORE_WIN + score_white * SCORE_MARGIN - ply
          : score_white < 0 ? -SCORE_WIN + score_white * SCORE_MARGIN + ply : 0;
    return side ? -v : v;
}

#include "dvonn.h"
#include "dvonn_order.h"
int search_dv(const DvPos *root, const SearchParams *prm, TT *tt, SearchResult *res);
#include "tzaar.h"
int search_tz(const TzPos *root, const SearchParams *prm, TT *tt, SearchResult *res);

#endif

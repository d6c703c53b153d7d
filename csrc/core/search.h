/* One alpha-beta search for every game (compiled in each game's folder from search_impl.h by
 * game_impl.h).  The result and parameter structs are the API's (core_api.h). */
#ifndef GIPF_SEARCH_H
#define GIPF_SEARCH_H

#include "common.h"
#include "eval_weights.h"
#include "tt.h"

/* Search parameters, named like the evaluation weights (one set per game, listed by `weights`
 * as <game>.search_*, changed between searches).  D(name) is the game's default: each game
 * gives every one in its <game>_game.c (the SPRT-confirmed setting, README "Search
 * experiments"; an idea not confirmed stays at the value that switches it off).  Values
 * outside the range named in the help are clamped where they are read.  Reductions are in
 * 1/100 ply. */
#define SEARCH_TUNING(X, D) \
    X(search_lmr_min_depth, D(search_lmr_min_depth), "reduce late quiet moves from this remaining depth (1..20)") \
    X(search_lmr_min_move, D(search_lmr_min_move), "... from this move index on (1..100)") \
    X(search_lmr_base, D(search_lmr_base), "reduction, flat part, 1/100 ply (0..400)") \
    X(search_lmp, D(search_lmp), "late-move pruning near the horizon outside the PV: quiet moves after this many x depth (0 = off)") \
    X(search_lmp_depth, D(search_lmp_depth), "... at remaining depths up to this (1..6)") \
    X(search_rfp, D(search_rfp), "reverse futility: outside the PV, a static score this much per ply above beta cuts (0 = off; 0..100000)") \
    X(search_rfp_depth, D(search_rfp_depth), "... at remaining depths up to this (1..20)") \
    X(search_nullmove, D(search_nullmove), "null-move pruning: depth reduction of the imagined pass (0 = off; 1..6; only where the game imagines a pass)")

#define SEARCH_NO_DEFAULT(name) 0  /* the struct and its indexes need no default */
#define SEARCH_TUNING_NAMES(X) SEARCH_TUNING(X, SEARCH_NO_DEFAULT)
#define SEARCH_TUNING_INDEX(name, deflt, help) ST_##name,
DECLARE_WEIGHTS(SEARCH_TUNING_NAMES, SEARCH_TUNING_INDEX, SEARCH_NTUNING, SearchTuning, SearchTuningSet)

/* The parameters as one search reads them: each clamped to the range its help names. */
SearchTuning search_tuning_clamped(const SearchTuning *set);

#define EVAL_CACHE_SIZE 8192  /* leaf evaluations kept per thread (a power of 2; 128 KB) */
#define SCORE_INF 2000000000
#define SCORE_PROVEN_MIN (SCORE_WIN - 1000)
#define SCORE_EVAL_MAX 500000

/* Proven scores are stored relative to the node so they stay valid at any ply. */
static inline int score_to_tt(int v, int ply)
{
    return v >= SCORE_PROVEN_MIN ? v + ply : v <= -SCORE_PROVEN_MIN ? v - ply : v;
}

static inline int score_from_tt(int v, int ply)
{
    return v >= SCORE_PROVEN_MIN ? v - ply : v <= -SCORE_PROVEN_MIN ? v + ply : v;
}

/* Terminal value from the side to act's view; score_white from <game>_over. */
static inline int search_terminal_score(int score_white, int side, int ply)
{
    int v = score_white > 0 ? SCORE_WIN + score_white * SCORE_MARGIN - ply
          : score_white < 0 ? -SCORE_WIN + score_white * SCORE_MARGIN + ply : 0;
    return side ? -v : v;
}

#endif

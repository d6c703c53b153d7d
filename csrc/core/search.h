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
    X(search_lmr_log, D(search_lmr_log), "reduction, 1/100 ply per ln(depth) x ln(move index) (0..400)") \
    X(search_lmr_pv, D(search_lmr_pv), "reduction, 1/100 ply less at PV nodes (0..400)") \
    X(search_lmr_history, D(search_lmr_history), "reduction, 1/100 ply less for a move with full history (0..400)") \
    X(search_lmr_even, D(search_lmr_even), "reductions rounded down to whole turns of two plies, so a reduced line ends at the same side and phase (0 = off; 0..1)") \
    X(search_aspiration, D(search_aspiration), "root aspiration window half-width from depth 4 (0 = off; 1..100000)") \
    X(search_lmp, D(search_lmp), "late-move pruning near the horizon outside the PV: quiet moves after this many x depth (0 = off)") \
    X(search_lmp_depth, D(search_lmp_depth), "... at remaining depths up to this (1..6)") \
    X(search_countermove, D(search_countermove), "ordering bonus of the reply that refuted the previous move (0 = off; 0..499)") \
    X(search_phase_extension, D(search_phase_extension), "plies added to a line crossing into a new phase (0..2)") \
    X(search_rfp, D(search_rfp), "reverse futility: outside the PV, a static score this much per ply above beta cuts (0 = off; 0..100000)") \
    X(search_rfp_depth, D(search_rfp_depth), "... at remaining depths up to this (1..20)") \
    X(search_futility, D(search_futility), "futility: outside the PV, quiet moves are not searched when the static score plus this per ply is below alpha (0 = off; 0..100000)") \
    X(search_nullmove, D(search_nullmove), "null-move pruning: depth reduction of the imagined pass (0 = off; 1..6; only where the game imagines a pass)") \
    X(search_whole_turns, D(search_whole_turns), "iterations at even depths only after depth 2 (whole turns of two actions; a depth limit is still reached; 0 = off, 1 = on)") \
    X(search_history_malus, D(search_history_malus), "history malus: at a cutoff, the moves searched before the cutoff move lose this percent of its history bonus (0 = off; 0..400)") \
    X(search_iir, D(search_iir), "internal iterative reduction: a node of at least this remaining depth without a hash move is searched one ply shallower (0 = off; 2..20)") \
    X(search_singular, D(search_singular), "singular extension: a hash move that beats every other move by this much per ply of depth, in a search of half the depth, is searched a ply deeper (0 = off; 0..1000)") \
    X(search_singular_depth, D(search_singular_depth), "... at remaining depths from this (4..20)") \
    X(search_eval_order, D(search_eval_order), "from this remaining depth, moves after the hash move are tried in the order of their static scores (0 = off; 2..40)") \
    X(search_abdada, D(search_abdada), "with two or more threads: from this remaining depth, a later move another thread is searching is put off until the node's other moves are searched, and every thread searches the same depth (ABDADA; 0 = off, lazy SMP; 1..40)")

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

/* 100 x ln(i) for late-move reductions (search.c); hidden: read directly, not through the
 * shared library's symbol table. */
#pragma GCC visibility push(hidden)
extern int LN100[256];
#pragma GCC visibility pop

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

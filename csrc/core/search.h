/* One alpha-beta search for every game, compiled in each game's folder by game_impl.h from
 * search_node.inc (the node), movepick.inc, prune.inc, reduce.h and history.h (its parts) and
 * search_root.inc (iterations, threads, time).  The result and parameter structs are the API's
 * (core_api.h); its limits are in CONTRACT.md. */
#ifndef GIPF_SEARCH_H
#define GIPF_SEARCH_H

#include "common.h"
#include "search_params.h"
#include "tt.h"

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

/* One game's instance of the shared search and solver, and its GameOps table: included once by
 * the game's <game>_game.c after its own headers (the functions of CONTRACT.md, in scope with
 * their real types, so the search calls them directly: no function pointers below the API).
 * Before including (and _POSIX_C_SOURCE 200809L before any header), define:
 *   GAME_NAME  the game's name token (dvonn): the table is <GAME_NAME>_game, its .name the string
 *   GP, GPU    the prefix in lower and upper case (dv, DV): GP_gen ..., GPU_POINTS ...
 *   POS        the position type (DvPos)
 *   GAME_NET   (optional) the game has an evaluation network: GP_net_set, GP_net_check and
 *              GPU_NET_FEATURES, GPU_NET_HIDDEN, GPU_NET_BUCKETS (its <game>_nnue.h), and
 *              GP_copy, which copies a position (the search's copy-make), leaving out the
 *              network's part where it is not kept
 *   GAME_SEARCH_VALUES(X)  the search parameters whose value the game changes, X(name, value)
 *              each (search_params.h); empty when the shared defaults serve
 * The game's header defines GPU_POINTS, GPU_MAX_MOVES, GPU_TURN_ACTIONS, GPU_NWEIGHTS and
 * GPU_WEIGHT_INFO; its evaluation the set GP_weights. */
#ifndef GIPF_GAME_IMPL_H
#define GIPF_GAME_IMPL_H
#else
#error "game_impl.h instantiates one game per translation unit"
#endif

#if !defined(GAME_NAME) || !defined(GP) || !defined(GPU) || !defined(POS) || !defined(GAME_SEARCH_VALUES)
#error "define GAME_NAME, GP, GPU, POS and GAME_SEARCH_VALUES before including game_impl.h"
#endif

#ifndef _POSIX_C_SOURCE
#error "define _POSIX_C_SOURCE 200809L first in the game's <game>_game.c (clock_gettime)"
#endif
#include "game_ops.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock_ns.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)
#define G(name) CAT(CAT(GP, _), name)   /* game function: dv_gen ... */
#define GU(name) CAT(CAT(GPU, _), name) /* game constant: DV_POINTS ... */
#define S(name) CAT(CAT(name, _), GP)   /* this instantiation: node_dv ... */
#define MAXMOVES GU(MAX_MOVES)
#ifdef GAME_NET
#define COPY_POS(dst, src) G(copy)((dst), (src))
#else
#define COPY_POS(dst, src) (*(dst) = *(src))
#endif

_Static_assert(sizeof(POS) <= GAME_POS_BYTES, "GAME_POS_BYTES (game_ops.h) is too small for " STR(POS));
_Static_assert(GU(MAX_MOVES) <= CORE_MAX_MOVES, "core_legal's buffer (CORE_MAX_MOVES) is too small");
_Static_assert(GU(TURN_ACTIONS) >= 1 && GU(TURN_ACTIONS) <= CORE_TURN_MAX, "turn actions out of range");

/* The game's search parameters: the shared defaults with its own values (set up by
 * S(ops_global_init)). */
static SearchTuningSet S(search_params);
static WeightInfo S(search_params_info)[SEARCH_NPARAMS];
/* the last entry only keeps the array from being empty */
static const SearchValue S(search_own)[] = {GAME_SEARCH_VALUES(SEARCH_VALUE) {-1, 0}};

#include "history.h"
#include "reduce.h"
#include "search_thread.inc"
#include "movepick.inc"
#include "prune.inc"
#include "search_node.inc"
#include "search_root.inc"
#include "solve_impl.inc"

/* A later action of the turn when the PV does not reach it (short or TT-cut PV): a short
 * search from the position after the first. */
static uint32_t S(next_action)(const POS *after, const SearchResult *res, const SearchLimits *lim, TT *tt)
{
    uint32_t moves[MAXMOVES];
    int n = G(gen)(after, moves);
    if (res->pvlen >= 2)
        for (int i = 0; i < n; i++)
            if (moves[i] == res->pv[1]) return moves[i];
    SearchLimits sub = *lim;
    sub.time_ms = 0;
    sub.nodes = 0;
    sub.threads = 1;
    sub.on_iteration = NULL;
    sub.multipv = 1;
    sub.report_ms = 0;
    sub.depth = res->depth > 2 ? res->depth - 1 : 1;
    if (sub.depth > 3) sub.depth = 3;
    SearchResult r2;
    S(search)(after, &sub, tt, &r2);
    return r2.best;
}

static int S(search_turn)(const void *root, const SearchLimits *lim, TT *tt, SearchResult *res,
                          uint32_t *turn, int *turnlen)
{
    const POS *p = root;
    int rc = S(search)(p, lim, tt, res);
    *turnlen = 0;
    if (rc == 0 && res->best != MOVE_NONE) {
        turn[(*turnlen)++] = res->best;
        if (GU(TURN_ACTIONS) > 1) {
            POS after = *p;
            G(play)(&after, res->best);
            if (G(side)(&after) == G(side)(p) && !G(over)(&after, NULL)) {
                uint32_t m2 = S(next_action)(&after, res, lim, tt);
                if (m2 != MOVE_NONE) turn[(*turnlen)++] = m2;
            }
        }
    }
    return rc;
}

/* The table's entries: the game's functions on void * positions. */
static void S(ops_global_init)(void)
{
    G(global_init)();
    G(eval_init)();
    int nown = (int)(sizeof S(search_own) / sizeof *S(search_own)) - 1;
    search_params_init(&S(search_params), S(search_params_info), S(search_own), nown);
}
static void S(ops_init)(void *p, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                        int side, int phase)
{
    G(init)(p, height, top, extra, side, phase);
}
static int S(ops_gen)(const void *p, uint32_t *moves) { return G(gen)(p, moves); }
static void S(ops_play)(void *p, uint32_t move) { G(play)(p, move); }
static int S(ops_side)(const void *p) { return G(side)(p); }
static int S(ops_over)(const void *p, int *score_white) { return G(over)(p, score_white); }
static int S(ops_eval)(const void *p) { return G(eval)(p); }
static int S(ops_eval_terms)(const void *p, double *terms) { return G(eval_terms)(p, terms); }
static uint64_t S(ops_perft)(const void *p, int depth) { return G(perft)(p, depth); }
static uint64_t S(ops_perft_stoppable)(const void *p, int depth, const int32_t *stop, int *stopped)
{
    return G(perft_stoppable)(p, depth, stop, stopped);
}
#ifdef GAME_NET
static uint64_t S(ops_net_check)(const void *p, int depth) { return G(net_check)(p, depth); }
#endif
static int S(ops_solve)(const void *p, const SolveLimits *lim, SolveTT *tt, SolveResult *res)
{
    return S(solve)(p, lim, tt, res);
}

const GameOps CAT(GAME_NAME, _game) = {
    .name = STR(GAME_NAME),
    .points = GU(POINTS),
    .global_init = S(ops_global_init),
    .init = S(ops_init),
    .gen = S(ops_gen),
    .play = S(ops_play),
    .side = S(ops_side),
    .over = S(ops_over),
    .eval = S(ops_eval),
    .eval_terms = S(ops_eval_terms),
    .perft = S(ops_perft),
    .perft_stoppable = S(ops_perft_stoppable),
    .search = S(search_turn),
    .solve = S(ops_solve),
#ifdef GAME_NET
    .net_features = GU(NET_FEATURES),
    .net_hidden = GU(NET_HIDDEN),
    .net_buckets = GU(NET_BUCKETS),
    .net_set = G(net_set),
    .net_check = S(ops_net_check),
#endif
    .eval_weights = {G(weights).v, GU(WEIGHT_INFO), GU(NWEIGHTS)},
    .search_params = {S(search_params).v, S(search_params_info), SEARCH_NPARAMS},
};

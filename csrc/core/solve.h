/* Exact endgame solver for every game (compiled per game from solve_impl.inc).
 *
 * Depth-first alpha-beta over final results only (no evaluation, no depth
 * limit: every action empties a point in both games, so lines are short once
 * few stacks remain).  Values are the game's final score_white from the side
 * to act's view: DVONN the exact height margin, TZAAR +1/-1.  The driver first
 * settles win/draw/loss with the window (-1, 1), then the exact margin inside
 * the known sign by MTD(f) (null windows; 10-50 % fewer nodes than one wide
 * window on Boardspace endgames).  Its own table keeps [lower, upper] bounds on the exact
 * value: they hold at any depth and in any later search, so nothing ages.
 * A node or time budget ends the attempt as "unknown".  Compiled in each game's folder from
 * solve_impl.inc by game_impl.h; the parameter and result structs are the API's (core_api.h). */
#ifndef GIPF_SOLVE_H
#define GIPF_SOLVE_H

#include "common.h"

typedef struct {
    uint64_t key;
    int16_t lo, hi;    /* bounds on the exact value (side to act's view) */
    uint16_t move;     /* best or refuting move, 0 if none */
    uint16_t used;
} SolveSlot;

typedef struct {
    SolveSlot *slots;
    uint64_t mask;
} SolveTT;

int  solve_tt_init(SolveTT *tt, int log2_slots); /* 0 ok, -1 no memory */
void solve_tt_clear(SolveTT *tt);

#endif

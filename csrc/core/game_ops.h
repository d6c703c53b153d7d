/* A game as the core's API sees it: one table of entry points per game, defined in the game's
 * folder by game_impl.h, listed in the registry (games.c).  CONTRACT.md, "C layout and the
 * GameOps contract". */
#ifndef GIPF_GAME_OPS_H
#define GIPF_GAME_OPS_H

#include "search.h"
#include "solve.h"

#define GAME_POS_BYTES 1024  /* room for any game's position (game_impl.h checks each) */

/* A position of any game: the game's own struct in the bytes, suitably aligned. */
typedef union {
    max_align_t align;
    unsigned char bytes[GAME_POS_BYTES];
} GamePos;

/* Named weights: the values (changed between searches, under the search lock) and their
 * names, defaults and meanings. */
typedef struct {
    int *values;
    const WeightInfo *info;
    int n;
} WeightTable;

/* The game's functions (CONTRACT.md) on its positions passed as void *. */
typedef struct GameOps {
    const char *name;   /* as the game's GameSpec names it (engine/games/) */
    int points;         /* entries of the per-point arrays */
    void (*global_init)(void);  /* once, before any other call */
    void (*init)(void *pos, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                 int side, int phase);
    int (*gen)(const void *pos, uint32_t *moves);
    void (*play)(void *pos, uint32_t move);
    int (*side)(const void *pos);
    int (*over)(const void *pos, int *score_white);
    int (*eval)(const void *pos);
    int (*eval_terms)(const void *pos, double *terms);
    uint64_t (*perft)(const void *pos, int depth);
    uint64_t (*perft_stoppable)(const void *pos, int depth, const int32_t *stop, int *stopped);
    /* The search; turn[0..*turnlen) gets the actions to play now (up to the game's
     * <P>_TURN_ACTIONS, the later ones from short searches when the PV stops short). */
    int (*search)(const void *root, const SearchLimits *lim, TT *tt, SearchResult *res,
                  uint32_t *turn, int *turnlen);
    int (*solve)(const void *root, const SolveLimits *lim, SolveTT *tt, SolveResult *res);
    /* An evaluation network (NULL entries: the game has none): its shape, installing its
     * weights (on = 0: off again), and counting positions up to depth plies whose
     * incrementally kept first layer differs from a fresh one. */
    int net_features, net_hidden, net_buckets;
    int (*net_set)(int on, const int16_t *w1, const int16_t *b1, const int16_t *w2,
                   const int32_t *b2, int32_t scale, int32_t max_stacks);
    uint64_t (*net_check)(const void *pos, int depth);
    WeightTable eval_weights;   /* the evaluation's (<game>_eval.h) */
    WeightTable search_params;  /* the search parameters with the game's defaults */
} GameOps;

/* The registry (games.c): game number i is GAMES[i], i < NGAMES. */
extern const GameOps *const GAMES[];
extern const int NGAMES;

#endif

/* Flat C API used by the Python bindings (engine/_core_build.py, engine/core.py).
 * Positions come in as per-point arrays in canonical order (CONTRACT.md).
 * Games: 0 = DVONN, 1 = TZAAR.  Functions return < 0 on bad arguments. */
#ifndef GIPF_CORE_API_H
#define GIPF_CORE_API_H

#include "search.h"
#include "solve.h"

#define CORE_GAME_DVONN 0   /* engine/core.py finds CORE_GAME_<NAME> by the game's name */
#define CORE_GAME_TZAAR 1
#define CORE_MAX_MOVES 400  /* room core_legal needs */
#define CORE_NO_MEMORY -2   /* core_search: the hash table could not be allocated */
#define CORE_INTERRUPTED -3 /* core_perft_stoppable: stopped before the count was done */

const char *core_version(void);
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
                 int side, int phase, const SearchParams *prm, int hash_mb,
                 SearchResult *res, uint32_t *turn, int *turnlen);
/* Exact endgame solve within prm's budget; res->solved = 0 when it ran out.
 * turn[0..*turnlen) = the actions to play now (TZAAR: the whole turn), res->pv
 * the line from the root.  Its table is kept until core_clear_hash. */
int  core_solve(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                int side, int phase, const SolveParams *prm, SolveResult *res,
                uint32_t *turn, int *turnlen);
/* Perft that gives up (returns CORE_INTERRUPTED) soon after *stop becomes non-zero. */
int  core_perft_stoppable(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                          int side, int phase, int depth, const int32_t *stop, uint64_t *out);
/* Allocate and clear the table now (and the games' tables), outside any search: 0 or -1. */
int  core_set_hash(int hash_mb);
/* The same, unless a table exists already (a start-up warm-up must not undo `option hash`). */
int  core_prepare(int hash_mb);
void core_clear_hash(void);

/* Named weights, changed between searches: the evaluation's (csrc/dvonn_eval.h,
 * csrc/tzaar_eval.h; indexes below core_eval_weight_count), then the search parameters
 * (csrc/search.h).  core_weight_set waits for a running search and clears the TT. */
#define CORE_WEIGHT_MAX 1000000
int  core_eval_weight_count(int game);
int  core_weight_count(int game);
int  core_weight_info(int game, int i, const char **name, const char **help, int *value, int *deflt);
int  core_weight_set(int game, int i, int value);
/* Static evaluation (*out, side to act's view) and terms[2*i + c] = weight i's share
 * for colour c (0 White, 1 Black); terms needs room for 2 * core_eval_weight_count(game). */
int  core_eval_terms(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                     int side, int phase, double *terms, int *out);

#endif

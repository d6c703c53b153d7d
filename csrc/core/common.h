/* Shared definitions for the compiled core (every game, the search, the TT). */
#ifndef GIPF_COMMON_H
#define GIPF_COMMON_H

#include <stdint.h>
#include <stddef.h>

#include "core_api.h"  /* the move layout */

#define CORE_VERSION "0.1.0"

/* Move = from | to << MOVE_TO_SHIFT | kind << MOVE_KIND_SHIFT (core_api.h); see CONTRACT.md. */
#define MOVE_NONE 0u
#define MOVE_NULL 0xFFFFFFFFu  /* the search's imagined pass (null-move pruning) */
#define MOVE_NO_POINT MOVE_POINT_MASK  /* a placement's from, a pass's from and to */
#define MOVE_FROM(m) ((int)((m) & MOVE_POINT_MASK))
#define MOVE_TO(m) ((int)(((m) >> MOVE_TO_SHIFT) & MOVE_POINT_MASK))
#define MOVE_KIND(m) ((int)((m) >> MOVE_KIND_SHIFT))
#define MAKE_MOVE(from, to, kind) \
    ((uint32_t)(from) | (uint32_t)(to) << MOVE_TO_SHIFT | (uint32_t)(kind) << MOVE_KIND_SHIFT)
#define MOVE_KIND_PASS 2       /* the same kind in every game */
#define MOVE_PASS MAKE_MOVE(MOVE_NO_POINT, MOVE_NO_POINT, MOVE_KIND_PASS)  /* 0x2FFF */

static inline int popcount64(uint64_t x) { return __builtin_popcountll(x); }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }

/* Deterministic key generator: Zobrist keys are the same in every run. */
static inline uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* One step of a selection sort: the best-scored of moves[i..n) goes to slot i and is returned.
 * Searches try moves in this order and mostly cut off early, so a full sort would be wasted. */
static inline __attribute__((always_inline)) uint32_t pick_next(uint32_t *moves, int32_t *score, int i, int n)
{
    /* The first of the best in one branch-free pass the compiler vectorises: the maximum of
     * keys holding the score above the slot's complement (equal scores: the first slot wins). */
    int64_t best = (int64_t)((uint64_t)(int64_t)score[i] << 32 | (uint32_t)~i);
    for (int k = i + 1; k < n; k++) {
        int64_t key = (int64_t)((uint64_t)(int64_t)score[k] << 32 | (uint32_t)~k);
        best = key > best ? key : best;
    }
    int j = (int)~(uint32_t)best;
    int32_t s = score[j];
    uint32_t m = moves[j];
    moves[j] = moves[i]; score[j] = score[i];
    moves[i] = m; score[i] = s;
    return m;
}

#endif

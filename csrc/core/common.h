/* Shared definitions for the compiled core (both games, search, TT). */
#ifndef GIPF_COMMON_H
#define GIPF_COMMON_H

#include <stdint.h>
#include <stddef.h>

#define CORE_VERSION "0.1.0"

/* Move = from | to << 6 | kind << 12; see CONTRACT.md. */
#define MOVE_NONE 0u
#define MOVE_NULL 0xFFFFFFFFu  /* the search's imagined pass (null-move pruning) */
#define MOVE_PASS 0x2FFFu
#define MOVE_FROM(m) ((int)((m) & 63u))
#define MOVE_TO(m) ((int)(((m) >> 6) & 63u))
#define MOVE_KIND(m) ((int)((m) >> 12))
#define MAKE_MOVE(from, to, kind) ((uint32_t)(from) | (uint32_t)(to) << 6 | (uint32_t)(kind) << 12)

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

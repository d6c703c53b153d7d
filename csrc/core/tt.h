/* Shared transposition table: 4-slot buckets (one cache line), lock-free.
 * Each slot stores key^data next to data, so a torn write from another
 * thread is detected as a miss instead of returning garbage. */
#ifndef GIPF_TT_H
#define GIPF_TT_H

#include "common.h"

#define TT_EXACT 3
#define TT_LOWER 1
#define TT_UPPER 2
#define TT_BUCKET 4         /* slots per bucket: one 64-byte cache line */
#define TT_DEPTH_PROVEN 255 /* value backed up from game ends only: valid at any depth */

typedef struct {
    uint64_t keyx;
    uint64_t data;
} TTSlot;

typedef struct {
    TTSlot *slots;     /* mapped from the OS: zero pages until first written (tt.c) */
    size_t bytes;
    uint64_t mask;     /* bucket count - 1 */
    size_t mb;
    unsigned age;      /* 6 bits, bumped per search */
    int written;       /* a search may have stored since the table was allocated or cleared */
    int resident;      /* every page touched (tt_resize with touch, or a clear) */
} TT;

typedef struct {
    uint32_t move;
    int32_t score;
    int depth;
    int flag;
} TTHit;

/* 0 ok, -1 out of memory (table left empty).  touch: every page resident now (else each on a
 * search's first write to it). */
int  tt_resize(TT *tt, size_t mb, int touch);
void tt_free(TT *tt);
void tt_clear(TT *tt);
void tt_new_search(TT *tt);
int  tt_probe(const TT *tt, uint64_t key, TTHit *hit);
/* key's bucket: TT_BUCKET slots (probe, store and prefetch use this one rule) */
static inline TTSlot *tt_bucket(const TT *tt, uint64_t key)
{
    return tt->slots + (size_t)((key >> 20) & tt->mask) * TT_BUCKET;
}
/* Start loading key's bucket into the cache (a probe of it follows soon). */
static inline void tt_prefetch(const TT *tt, uint64_t key) { __builtin_prefetch(tt_bucket(tt, key)); }
void tt_store(TT *tt, uint64_t key, uint32_t move, int32_t score, int depth, int flag);

#endif

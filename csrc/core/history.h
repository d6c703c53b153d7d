/* What a search thread learns about moves as it searches, for the move picker (movepick.inc):
 * two killer moves per ply (the last moves that cut off there) and a history score per side
 * and move.  The history is keyed by HISTORY_KEY(m), the move's low 14 bits (from and to:
 * CONTRACT.md, "Limits").  Per thread; the history halves at each new iteration. */
#ifndef GIPF_HISTORY_H
#define GIPF_HISTORY_H

#include "common.h"

#define HISTORY_KEY(m) ((m) & 0x3FFF)
#define HISTORY_SIZE (1 << 14)

typedef struct {
    uint32_t killers[MAX_PLY][2];
    uint16_t hist[2][HISTORY_SIZE];  /* 0..65535 (16 bits: half the cache lines) */
} History;

/* The ordering bonus the history gives move m of `side`: 0..4095. */
static inline int history_score(const History *h, int side, uint32_t m)
{
    int hs = h->hist[side][HISTORY_KEY(m)] >> 4;
    return hs > 4095 ? 4095 : hs;
}

/* Move m cut off at `ply` with `depth` to go: it becomes the first killer there, and its
 * history gains depth squared. */
static inline void history_cutoff(History *h, int side, int ply, int depth, uint32_t m)
{
    if (m != h->killers[ply][0]) {
        h->killers[ply][1] = h->killers[ply][0];
        h->killers[ply][0] = m;
    }
    uint16_t *hh = &h->hist[side][HISTORY_KEY(m)];
    int32_t hv = *hh + depth * depth;
    *hh = (uint16_t)(hv > 65535 ? 65535 : hv);
}

/* A new iteration: what was learnt at shallower depths counts half. */
static inline void history_age(History *h)
{
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < HISTORY_SIZE; i++) h->hist[s][i] >>= 1;
}

#endif

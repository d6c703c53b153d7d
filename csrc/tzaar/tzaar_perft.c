/* TZAAR perft over whole turns: the positions a depth of turns reaches, to check the move
 * generator (and tz_count_actions' bulk count) against the Python rules. */
#include "tzaar.h"

#include <string.h>

#define BIT(i) (1ULL << (i))

static uint64_t perft_rec(const TzPos *p, int depth)
{
    if (depth == 0) return 1;
    if (p->over) return 0;
    uint32_t mv[TZ_MAX_MOVES];
    int n = tz_gen(p, mv);
    uint64_t total = 0;
    if (p->phase != 1) {
        /* phase 0 (opening turn) or 2 (rest of the current turn): one action */
        if (depth == 1) return (uint64_t)n;
        for (int i = 0; i < n; i++) {
            TzPos q = *p;
            tz_play(&q, mv[i]);
            total += perft_rec(&q, depth - 1);
        }
        return total;
    }
    if (depth == 1) {
        /* bulk count: after each first capture, the second actions.  Only
         * occupancy, colours, heights and visible counts matter here, so the
         * capture is applied to a light copy (no hash / line-of-sight data). */
        const int s = p->side;
        for (int i = 0; i < n; i++) {
            const int f = MOVE_FROM(mv[i]), t = MOVE_TO(mv[i]);
            if (p->cnt[p->code[t]] == 1) {      /* the first capture ends the game */
                total++;
                continue;
            }
            TzPos q;
            q.occ = p->occ & ~BIT(f);
            q.col[s] = (p->col[s] & ~BIT(f)) | BIT(t);
            q.col[s ^ 1] = p->col[s ^ 1] & ~BIT(t);
            memcpy(q.h, p->h, sizeof q.h);
            q.h[t] = p->h[f];
            q.h[f] = 0;
            q.side = (uint8_t)s;
            q.phase = 2;
            q.over = 0;
            total += (uint64_t)tz_count_actions(&q);
        }
        return total;
    }
    for (int i = 0; i < n; i++) {
        TzPos q = *p;
        tz_play(&q, mv[i]);
        if (q.over) {               /* the first capture ended the game */
            continue;
        }
        uint32_t mv2[TZ_MAX_MOVES];
        int n2 = tz_gen(&q, mv2);
        for (int j = 0; j < n2; j++) {
            TzPos r = q;
            tz_play(&r, mv2[j]);
            total += perft_rec(&r, depth - 1);
        }
    }
    return total;
}

uint64_t tz_perft(const TzPos *p, int depth)
{
    return perft_rec(p, depth);
}

/* The same count, looking at *stop between subtrees small enough to count in well under a
 * millisecond (a first capture that ends the game is a leaf only at depth 1). */
uint64_t tz_perft_stoppable(const TzPos *p, int depth, const int32_t *stop, int *stopped)
{
    if (depth <= 1) return tz_perft(p, depth);
    if (*stopped || (*stopped = __atomic_load_n(stop, __ATOMIC_RELAXED) != 0)) return 0;
    if (tz_over(p, NULL)) return 0;
    uint32_t mv[TZ_MAX_MOVES];
    int n = tz_gen(p, mv);
    uint64_t total = 0;
    for (int i = 0; i < n && !*stopped; i++) {
        TzPos q = *p;
        tz_play(&q, mv[i]);
        if (p->phase != 1) {
            total += tz_perft_stoppable(&q, depth - 1, stop, stopped);
            continue;
        }
        if (tz_over(&q, NULL)) continue;
        uint32_t mv2[TZ_MAX_MOVES];
        int n2 = tz_gen(&q, mv2);
        for (int j = 0; j < n2 && !*stopped; j++) {
            TzPos r = q;
            tz_play(&r, mv2[j]);
            total += tz_perft_stoppable(&r, depth - 1, stop, stopped);
        }
    }
    return total;
}

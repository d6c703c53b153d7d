/* DVONN move ordering hint (CONTRACT.md: <p>_move_order), inline: the search calls it for
 * every move of every node it expands. */
#ifndef GIPF_DVONN_ORDER_H
#define GIPF_DVONN_ORDER_H

#include "dvonn.h"
#include "dvonn_geom.h"
#include "dvonn_eval.h"

static inline int dv_move_order(const DvPos *p, uint32_t move)
{
    int kind = MOVE_KIND(move);
    if (kind == DV_KIND_PASS) return 0;
    int t = IDX2BIT[MOVE_TO(move)];
    if (kind == DV_KIND_PLACE) {
        if (p->placed < 3) {
            /* Reds: spread them (minimise the summed squared distance to the nearest red). */
            int cost = 0;
            for (uint64_t c = VALID; c; c &= c - 1) {
                int b = ctz64(c), d = DIST[b][t];
                for (uint64_t r = p->red; r; r &= r - 1) {
                    int dr = DIST[b][ctz64(r)];
                    if (dr < d) d = dr;
                }
                cost += d * d;
            }
            int v = 4000 - cost;
            return v < 0 ? 0 : v;
        }
        int dmin = 10;
        for (uint64_t r = p->red; r; r &= r - 1) {
            int d = DIST[t][ctz64(r)];
            if (d < dmin) dmin = d;
        }
        return 100 - 10 * dmin;
    }
    /* without branches: which targets are enemy or red stacks is anyone's guess */
    int h = p->height[t] > 10 ? 10 : p->height[t];
    int enemy = (int)(p->col[p->side ^ 1] >> t & 1), red = (int)(p->red >> t & 1);
    int endgame = popcount64(p->occ) <= dv_weights.w.order_unreduced_stacks;
    return 100 + enemy * (300 + 20 * h) + red * 200 + endgame * 200;
}

#endif

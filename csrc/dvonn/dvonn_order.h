/* DVONN move ordering hint (CONTRACT.md: <p>_move_order), inline: the search calls it for
 * every move of every node it expands. */
#ifndef GIPF_DVONN_ORDER_H
#define GIPF_DVONN_ORDER_H

#include "dvonn.h"
#include "dvonn_geom.h"
#include "dvonn_eval.h"

/* A learned order of stacking moves, by class (0: onto an own or red-topped stack, 1: onto an
 * enemy stack): a softmax over the legal moves, linear in these terms, fitted to the moves
 * self-play searches chose (points x 40). */
/* ORDER TABLES */
static const int16_t DV_ORDER_TARGET_HEIGHT[2][6] = {{-10, -7, -3, -4, -7, -11}, {26, 23, 4, -3, -4, -5}};
static const int16_t DV_ORDER_MOVER_HEIGHT[2][6] = {{-47, -15, 0, 1, 9, 10}, {-3, 6, 17, 15, 7, 1}};
static const int16_t DV_ORDER_TARGET_RED_DIST[2][4] = {{36, -20, -23, -34}, {49, 27, 12, -46}};
static const int16_t DV_ORDER_MOVER_RED_DIST[4] = {-2, -16, -2, 20};
static const int16_t DV_ORDER_MOVER_RED = -2;
static const int16_t DV_ORDER_RESULT_HEIGHT[2][8] = {{-10, -10, -12, -5, -4, -1, 1, 0}, {29, 16, -1, 0, 7, 0, -1, -8}};
static const int16_t DV_ORDER_TARGET_NEIGHBOURS[2][7] = {{0, 25, 12, 0, -7, -29, -43}, {-26, -3, 0, 13, 31, 16, 10}};
static const int16_t DV_ORDER_SOURCE_NEIGHBOURS[7] = {5, 24, 7, -9, -18, -9, 0};
static const int16_t DV_ORDER_SOURCE_CUT[2] = {12, -2};
/* END ORDER TABLES */

static inline int dv_red_distance(const DvPos *p, int b)
{
    int d = 3;
    for (uint64_t r = p->red; r; r &= r - 1) {
        int x = DIST[b][ctz64(r)];
        if (x < d) d = x;
    }
    return d;
}

static inline int dv_policy_order(const DvPos *p, int f, int t, int enemy, int red, int k)
{
    int hs = p->height[f], ht = p->height[t];
    int sum = hs + ht > 9 ? 9 : hs + ht;
    uint64_t fbit = 1ull << f;
    int nt = popcount64(NBR[t] & p->occ & ~fbit), inner = popcount64(NBR[t]) == 6;
    if (!inner && nt > 5) nt = 5;
    int ns = popcount64(NBR[f] & p->occ);
    int s = DV_ORDER_TARGET_HEIGHT[enemy][(ht > 6 ? 6 : ht) - 1] + DV_ORDER_MOVER_HEIGHT[enemy][(hs > 6 ? 6 : hs) - 1] +
            DV_ORDER_TARGET_RED_DIST[enemy][dv_red_distance(p, t)] + DV_ORDER_MOVER_RED_DIST[dv_red_distance(p, f)] +
            (int)(p->red >> f & 1) * DV_ORDER_MOVER_RED + DV_ORDER_RESULT_HEIGHT[enemy][sum - 2] +
            DV_ORDER_TARGET_NEIGHBOURS[enemy][nt] + DV_ORDER_SOURCE_NEIGHBOURS[ns > 6 ? 6 : ns] +
            (int)(cut_cells(p->occ) >> f & 1) * DV_ORDER_SOURCE_CUT[enemy];
    if (enemy || red) {
        int v = 600 + 4 * s / k;
        return v < 200 ? 200 : v > 1000 ? 1000 : v;
    }
    int v = 150 + s / k;
    return v < 100 ? 100 : v > 199 ? 199 : v;
}

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
    if (dv_weights.w.order_policy) return dv_policy_order(p, IDX2BIT[MOVE_FROM(move)], t, enemy, red, dv_weights.w.order_policy);
    return 100 + enemy * (300 + 20 * h) + red * 200;
}

#endif

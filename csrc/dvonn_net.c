/* DVONN network: per occupied point one first-layer row (its category seen from White and from
 * Black), summed into two accumulators from scratch at each evaluation, clipped to [0, QA]; the
 * output weighs the side to act's accumulator and the other's apart.  Integer throughout, so
 * scripts/train_net's numpy forward pass gives the same points. */
#include "dvonn_net.h"
#include "dvonn_geom.h"
#include "dvonn_net_weights.h"

#include <string.h>

enum { H = DV_NET_HIDDEN };

/* DV_NET_W1 by board bit instead of canonical point */
static int16_t ROWS[DV_BITS][DV_NET_CATEGORIES][H] __attribute__((aligned(64)));

void dv_net_init(void)
{
    memset(ROWS, 0, sizeof ROWS);
    for (int i = 0; i < DV_POINTS; i++) memcpy(ROWS[IDX2BIT[i]], DV_NET_W1[i], sizeof DV_NET_W1[i]);
}

void dv_net_pair(const DvPos *p, int weight, int out[2])
{
    int32_t acc[2][H];
    for (int k = 0; k < H; k++) acc[0][k] = acc[1][k] = DV_NET_B1[k];
    uint64_t sur = surrounded(p->occ), tops = p->col[0] | p->col[1];
    for (uint64_t o = p->occ; o; o &= o - 1) {
        int b = ctz64(o);
        const int16_t *rw = ROWS[b][0], *rb = rw;  /* category 0: a lone red */
        if (tops >> b & 1) {
            int h = p->height[b];
            int mobile = !(sur >> b & 1) && (LAND[b][h > 10 ? 11 : h] & p->occ);
            int colour = (int)(p->col[1] >> b & 1);
            int rest = ((h < 5 ? h - 1 : 4) * 2 + (int)(p->red >> b & 1)) * 2 + mobile;
            rw = ROWS[b][1 + colour * 20 + rest];
            rb = ROWS[b][1 + (colour ^ 1) * 20 + rest];
        }
        for (int k = 0; k < H; k++) {
            acc[0][k] += rw[k];
            acc[1][k] += rb[k];
        }
    }
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < H; k++) acc[s][k] = acc[s][k] < 0 ? 0 : acc[s][k] > DV_NET_QA ? DV_NET_QA : acc[s][k];
    for (int s = 0; s < 2; s++) {
        int64_t raw = DV_NET_B2;
        for (int k = 0; k < H; k++) raw += DV_NET_OUT[0][k] * acc[s][k] + DV_NET_OUT[1][k] * acc[s ^ 1][k];
        out[s] = (int)(raw * weight / DV_NET_DIV);
    }
}

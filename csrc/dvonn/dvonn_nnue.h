/* DVONN stacking-phase network (dvonn_nnue.c): an efficiently updated first layer.
 *
 * Inputs: one feature per occupied point, from one colour's view: the top piece (the
 * viewer's / the opponent's / red), the stack's height (1 .. 4, 5 for 5 and more), for a
 * coloured top whether a red piece is inside, and whether the stack is surrounded (six occupied
 * neighbours: it cannot move) (DV_NET_KINDS per point, point-major in the canonical point order).  Two accumulators (White's view, Black's view) share one weight
 * matrix; the side to act's comes first.  Clipped ReLU at DV_NET_QA (= 1.0), then one output
 * per bucket of stacks left.  The weights are loaded from a file (engine/network.py).  A network
 * is either the whole stacking evaluation or a correction added to the named weights' one
 * (on = 2 in dv_net_set). */
#ifndef GIPF_DVONN_NNUE_H
#define GIPF_DVONN_NNUE_H

#include <stdint.h>

#define DV_NET_KINDS 50
#define DV_NET_FEATURES (49 * DV_NET_KINDS)
#define DV_NET_HIDDEN 32
#define DV_NET_BUCKETS 4
#define DV_NET_QA 127   /* the accumulator's 1.0 (its clip) */
#define DV_NET_QB 64    /* the output weights' 1.0 */

typedef struct {
    int16_t w1[DV_NET_FEATURES][DV_NET_HIDDEN];
    int16_t b1[DV_NET_HIDDEN];
    int16_t w2[DV_NET_BUCKETS][2 * DV_NET_HIDDEN];
    int32_t b2[DV_NET_BUCKETS];
    int32_t scale;  /* score points per unit of the output (the win-probability logit) */
    int32_t added;  /* 1: the output is added to the named weights' evaluation (a correction) */
    int32_t max_stacks;  /* the network values positions with at most this many stacks only */
} DvNet;

/* Read by dv_play and the evaluation; set between searches only (under the core's lock). */
#pragma GCC visibility push(hidden)
extern int dv_net_on;
extern DvNet dv_net;
#pragma GCC visibility pop

/* The feature of a stack for viewer v (0 White, 1 Black): top 0/1 a colour, 2 red. */
static inline int dv_net_feature(int point, int top, int height, int red, int stuck, int v)
{
    int hb = (height >= 5 ? 5 : height) - 1;
    int kind = top == 2 ? 20 + hb : (top == v ? 0 : 10) + 2 * hb + (red != 0);
    return point * DV_NET_KINDS + 25 * (stuck != 0) + kind;
}

/* acc[v] += (sign 1) or -= (sign -1) the columns of the stack's two features. */
static inline void dv_net_update(int16_t acc[2][DV_NET_HIDDEN], int point, int top, int height,
                                 int red, int stuck, int sign)
{
    const int16_t *w0 = dv_net.w1[dv_net_feature(point, top, height, red, stuck, 0)];
    const int16_t *w1 = dv_net.w1[dv_net_feature(point, top, height, red, stuck, 1)];
    if (sign > 0)
        for (int j = 0; j < DV_NET_HIDDEN; j++) {
            acc[0][j] = (int16_t)(acc[0][j] + w0[j]);
            acc[1][j] = (int16_t)(acc[1][j] + w1[j]);
        }
    else
        for (int j = 0; j < DV_NET_HIDDEN; j++) {
            acc[0][j] = (int16_t)(acc[0][j] - w0[j]);
            acc[1][j] = (int16_t)(acc[1][j] - w1[j]);
        }
}

/* The output from side s's view, in score points, for stacks stacks left. */
int dv_net_output(const int16_t acc[2][DV_NET_HIDDEN], int s, int stacks);

/* Install a network (shape as above): on = 1 alone, 2 added to the named weights' evaluation,
 * in positions of at most max_stacks stacks (the weights' evaluation alone in the others);
 * 0, or -1 if an argument is out of range.  on = 0 goes back to the named weights' evaluation
 * alone (the arrays may then be NULL). */
int dv_net_set(int on, const int16_t *w1, const int16_t *b1, const int16_t *w2,
               const int32_t *b2, int32_t scale, int32_t max_stacks);

#endif

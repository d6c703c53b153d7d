/* DVONN stacking-phase network: the output layer and installing the weights (dvonn_nnue.h). */
#include "dvonn_nnue.h"

#include <string.h>

int dv_net_on;
DvNet dv_net;

static inline int bucket_of(int stacks)
{
    int b = (48 - stacks) / 10;
    return b < 0 ? 0 : b >= DV_NET_BUCKETS ? DV_NET_BUCKETS - 1 : b;
}

/* Sum of clip(a[j], 0, QA) * w[j]: int16 products summed in int32 (vectorised by the compiler). */
static inline int32_t clipped_dot(const int16_t *a, const int16_t *w)
{
    int32_t sum = 0;
    for (int j = 0; j < DV_NET_HIDDEN; j++) {
        int16_t x = a[j] < 0 ? 0 : a[j] > DV_NET_QA ? DV_NET_QA : a[j];
        sum += (int32_t)x * w[j];
    }
    return sum;
}

int dv_net_output(const int16_t acc[2][DV_NET_HIDDEN], int s, int stacks)
{
    int b = bucket_of(stacks);
    const int16_t *w = dv_net.w2[b];
    int64_t sum = (int64_t)dv_net.b2[b] + clipped_dot(acc[s], w) + clipped_dot(acc[s ^ 1], w + DV_NET_HIDDEN);
    return (int)(sum * dv_net.scale / (DV_NET_QA * DV_NET_QB));
}

int dv_net_set(int on, const int16_t *w1, const int16_t *b1, const int16_t *w2,
               const int32_t *b2, int32_t scale, int32_t max_stacks)
{
    if (!on) {
        dv_net_on = 0;
        return 0;
    }
    if (on < 0 || on > 2 || !w1 || !b1 || !w2 || !b2 || scale <= 0 || scale > 100000 ||
        max_stacks < 1 || max_stacks > 49 || (on == 1 && max_stacks != 49))
        return -1;
    memcpy(dv_net.w1, w1, sizeof dv_net.w1);
    memcpy(dv_net.b1, b1, sizeof dv_net.b1);
    memcpy(dv_net.w2, w2, sizeof dv_net.w2);
    memcpy(dv_net.b2, b2, sizeof dv_net.b2);
    dv_net.scale = scale;
    dv_net.added = on == 2;
    dv_net.max_stacks = max_stacks;
    dv_net_on = 1;
    return 0;
}

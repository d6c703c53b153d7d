/* DVONN network: per occupied point one first-layer row (its category seen from White and from
 * Black), summed into two accumulators from scratch at each evaluation, clipped to [0, QA]; the
 * output weighs the side to act's accumulator and the other's apart.  Integer throughout, so
 * scripts/train_net's numpy forward pass gives the same points. */
#include "dvonn_net.h"
#include "dvonn_geom.h"
#include "dvonn_net_weights.h"

#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

enum { H = DV_NET_HIDDEN };

/* DV_NET_W1 by board bit instead of canonical point, each category's row seen from White beside
 * the row of the same stack seen from Black (one cache line per point) */
static int16_t ROWS[DV_BITS][DV_NET_CATEGORIES][2][H] __attribute__((aligned(64)));

void dv_net_init(void)
{
    memset(ROWS, 0, sizeof ROWS);
    for (int i = 0; i < DV_POINTS; i++)
        for (int c = 0; c < DV_NET_CATEGORIES; c++) {
            int black = c ? 1 + (c - 1 + 20) % 40 : 0;  /* own and enemy swapped */
            memcpy(ROWS[IDX2BIT[i]][c][0], DV_NET_W1[i][c], sizeof DV_NET_W1[i][c]);
            memcpy(ROWS[IDX2BIT[i]][c][1], DV_NET_W1[i][black], sizeof DV_NET_W1[i][c]);
        }
}

/* The category row pair of the stack on bit b (category 0 for a lone red: no top colour). */
static inline const int16_t *row_of(const DvPos *p, int b, uint64_t sur, uint64_t tops)
{
    int h = p->height[b];  /* without branches: which stacks can move is anyone's guess */
    int mobile = (int)(~sur >> b & 1) & ((LAND[b][h > 10 ? 11 : h] & p->occ) != 0);
    int rest = 1 + (int)(p->col[1] >> b & 1) * 20 + ((h < 5 ? h - 1 : 4) * 2 + (int)(p->red >> b & 1)) * 2 + mobile;
    return ROWS[b][(int)(tops >> b & 1) * rest][0];
}

#if defined(__SSE2__) && defined(__x86_64__)
void dv_net_pair(const DvPos *p, int weight, int out[2])
{
    /* 16-bit sums (scripts/train_net refuses weights whose sums could leave int16), in registers */
    _Static_assert(H == 16, "two 8-lane vectors per view");
    __m128i w0 = _mm_loadu_si128((const __m128i *)DV_NET_B1), w1 = _mm_loadu_si128((const __m128i *)(DV_NET_B1 + 8));
    __m128i b0 = w0, b1 = w1;
    uint64_t sur = surrounded(p->occ), tops = p->col[0] | p->col[1];
    for (uint64_t o = p->occ; o; o &= o - 1) {
        const __m128i *row = (const __m128i *)row_of(p, ctz64(o), sur, tops);
        w0 = _mm_add_epi16(w0, _mm_load_si128(row));
        w1 = _mm_add_epi16(w1, _mm_load_si128(row + 1));
        b0 = _mm_add_epi16(b0, _mm_load_si128(row + 2));
        b1 = _mm_add_epi16(b1, _mm_load_si128(row + 3));
    }
    const __m128i zero = _mm_setzero_si128(), top = _mm_set1_epi16(DV_NET_QA);
    __m128i acc[2][2] = {{_mm_min_epi16(_mm_max_epi16(w0, zero), top), _mm_min_epi16(_mm_max_epi16(w1, zero), top)},
                         {_mm_min_epi16(_mm_max_epi16(b0, zero), top), _mm_min_epi16(_mm_max_epi16(b1, zero), top)}};
    const __m128i *ow = (const __m128i *)DV_NET_OUT;  /* side to act's weights, then the other's */
    for (int s = 0; s < 2; s++) {
        __m128i d = _mm_add_epi32(_mm_add_epi32(_mm_madd_epi16(acc[s][0], _mm_loadu_si128(ow)),
                                                _mm_madd_epi16(acc[s][1], _mm_loadu_si128(ow + 1))),
                                  _mm_add_epi32(_mm_madd_epi16(acc[s ^ 1][0], _mm_loadu_si128(ow + 2)),
                                                _mm_madd_epi16(acc[s ^ 1][1], _mm_loadu_si128(ow + 3))));
        d = _mm_add_epi32(d, _mm_shuffle_epi32(d, 0x4E));
        d = _mm_add_epi32(d, _mm_shuffle_epi32(d, 0xB1));
        out[s] = (int)(((int64_t)_mm_cvtsi128_si32(d) + DV_NET_B2) * weight / DV_NET_DIV);
    }
}
#else
void dv_net_pair(const DvPos *p, int weight, int out[2])
{
    int16_t acc[2][H];
    for (int k = 0; k < H; k++) acc[0][k] = acc[1][k] = DV_NET_B1[k];
    uint64_t sur = surrounded(p->occ), tops = p->col[0] | p->col[1];
    for (uint64_t o = p->occ; o; o &= o - 1) {
        const int16_t *restrict row = row_of(p, ctz64(o), sur, tops);
        for (int k = 0; k < H; k++) {
            acc[0][k] = (int16_t)(acc[0][k] + row[k]);
            acc[1][k] = (int16_t)(acc[1][k] + row[H + k]);
        }
    }
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < H; k++) acc[s][k] = acc[s][k] < 0 ? 0 : acc[s][k] > DV_NET_QA ? DV_NET_QA : acc[s][k];
    for (int s = 0; s < 2; s++) {
        int32_t raw = 0;
        for (int k = 0; k < H; k++) raw += DV_NET_OUT[0][k] * acc[s][k] + DV_NET_OUT[1][k] * acc[s ^ 1][k];
        out[s] = (int)(((int64_t)raw + DV_NET_B2) * weight / DV_NET_DIV);
    }
}
#endif

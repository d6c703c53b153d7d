/* DVONN static evaluation: placement and stacking terms, each scaled by a named weight
 * (dvonn_eval.h).  One body serves the search (no trace, inlined away) and `eval`. */
#include "dvonn_eval.h"
#include "dvonn_geom.h"

#include <string.h>

DvWeightSet dv_weights = {{DV_WEIGHTS(WEIGHT_DEFAULT)}};
const WeightInfo DV_WEIGHT_INFO[DV_NWEIGHTS] = {DV_WEIGHTS(WEIGHT_INFO)};

/* Each weight's share per colour, when asked for. */
#define TRACE(i, colour, x) do { if (tr) tr[2 * (i) + (colour)] += (x); } while (0)

/* PrimaDvonna's field value: 64 plus 64/4^d for each red stack at distance d. */
static const int FIELD_ADD[11] = {64, 16, 4, 1, 0, 0, 0, 0, 0, 0, 0};

/* Each colour's share of the evaluation, whoever is to act: one pass scores a position and
 * its twin with the other side to act (the null move's). */
typedef struct {
    int stacking;  /* 0: placement points in v only */
    int v[2];      /* per colour: placement points, or the stacking sums in 1/64 point */
    int cut[2];    /* best cut-off the colour can make (cut_gain; 0 when not scored) */
    int reach[2];  /* tallest enemy stack a mobile stack of the colour can take */
} DvParts;

static inline __attribute__((always_inline)) void placement_eval(const DvPos *p, const DvWeights *w, double *tr,
                                                                 DvParts *e)
{
    int reds[3], nr = 0;
    for (uint64_t r = p->red; r && nr < 3; r &= r - 1) reds[nr++] = ctz64(r);
    if (!nr) return;
    int *v = e->v;
    for (int s = 0; s < 2; s++) {
        int edge = 0;
        for (uint64_t o = p->col[s]; o; o &= o - 1) {
            int b = ctz64(o), dmin = 99, dsum = 0;
            for (int i = 0; i < nr; i++) {
                int d = DIST[b][reds[i]];
                dsum += d;
                if (d < dmin) dmin = d;
            }
            int near = dmin == 1 ? w->place_red_adjacent : dmin == 2 ? w->place_red_near : 0;
            int far = dsum * w->place_red_distance / nr;
            TRACE(dmin == 1 ? DVW_place_red_adjacent : DVW_place_red_near, s, near);
            TRACE(DVW_place_red_distance, s, -far);
            int x = near - far;
            /* Clumps of own pieces get cut off together and block each other. */
            int own = popcount64(NBR[b] & p->col[s]);
            int nonown = popcount64(NBR[b]) - own;
            if (nonown < 2) {
                x -= w->place_clump * (2 - nonown);
                TRACE(DVW_place_clump, s, -w->place_clump * (2 - nonown));
            }
            int on_edge = !(INNER >> b & 1);
            edge += on_edge;
            x += w->place_own_nbr * own;
            TRACE(DVW_place_own_nbr, s, w->place_own_nbr * own);
            int entry = DVW_place_adj_inner_own0 + ((dmin == 1 ? 0 : dmin == 2 ? 1 : 2) * 2 + on_edge) * 4 +
                        (own < 3 ? own : 3);
            x += ((const int *)w)[entry];
            TRACE(entry, s, ((const int *)w)[entry]);
            v[s] += x;
        }
        v[s] += w->place_edge * edge;
        TRACE(DVW_place_edge, s, w->place_edge * edge);
    }
    /* Whoever surrounds a red with more pieces will own the stacks that reach it. */
    for (int i = 0; i < nr; i++) {
        int n[2] = {popcount64(NBR[reds[i]] & p->col[0]), popcount64(NBR[reds[i]] & p->col[1])};
        if (n[0] != n[1]) {
            int s = n[1] > n[0];
            v[s] += w->place_red_majority;
            TRACE(DVW_place_red_majority, s, w->place_red_majority);
        }
    }
}

/* Best (enemy - own) height side s removes by moving one mobile stack off a cell that alone
 * links some stacks to the reds (its occupied neighbours are not one contiguous arc). */
static int cut_gain(const DvPos *p, int s, uint64_t cutv)
{
    int best = 0;
    for (uint64_t cand = p->col[s] & cutv; cand; cand &= cand - 1) {
        int f = ctz64(cand), h = p->height[f];
        if (h > 10 || !(LAND[f][h] & p->occ)) continue;
        uint64_t occ = p->occ & ~(1ull << f), reach = p->red & occ, prev = 0;
        while (reach != prev) {
            prev = reach;
            reach = spread(reach) & occ;
        }
        uint64_t gone = occ & ~reach;
        if (!gone) continue;
        int g = 0;
        for (uint64_t x = gone; x; x &= x - 1) {
            int b = ctz64(x);
            if (p->col[s] >> b & 1) g -= p->height[b];
            else if (p->col[s ^ 1] >> b & 1) g += p->height[b];
        }
        if (!(LAND[f][h] & reach)) g -= h; /* the mover can only land in the lost part */
        if (g > best) best = g;
    }
    return best;
}

/* FIELD_FROM[r][b]: what a red stack on r adds to cell b's field value (bytes, padded to 64
 * cells so the per-red adds are whole vectors). */
static uint8_t FIELD_FROM[DV_BITS][64] __attribute__((aligned(64)));
static uint64_t BYTE_MASK[256];  /* bit i of the index -> byte i = 0xFF */

void dv_eval_init(void)
{
    for (int r = 0; r < DV_BITS; r++)
        for (int b = 0; b < 64; b++)  /* off-board cells: 0 (DIST is only meant for board cells) */
            FIELD_FROM[r][b] = (VALID >> r & 1) && b < DV_BITS && (VALID >> b & 1) ? (uint8_t)FIELD_ADD[DIST[b][r]] : 0;
    for (int m = 0; m < 256; m++) {
        BYTE_MASK[m] = 0;
        for (int i = 0; i < 8; i++) if (m >> i & 1) BYTE_MASK[m] |= 0xFFull << (8 * i);
    }
}

/* What own_sums also counts when asked: the tallest enemy stack a mobile own stack can land on
 * (enemy_height: heights on enemy stacks, 0 elsewhere and on the padding cell 63), and the
 * mobile stacks, the pieces in stacks with no landing point and the stack table's points
 * (table_pieces, when set, gets each table entry's pieces for the trace). */
typedef struct {
    const uint8_t *enemy_height;  /* NULL: no reach */
    const int *table;             /* the DV_STACK_TABLE weights */
    int *table_pieces;
    int reach, mobile, stuck, table_sum;
} OwnCounts;

_Static_assert(DVW_place_far_edge_own3 - DVW_place_adj_inner_own0 + 1 == 24,
               "the placement table's weights: one run of 3 distances x 2 x 4");

enum { DV_TABLE_HEIGHTS = 6, DV_TABLE_SIZE = DV_TABLE_HEIGHTS * 8 };
_Static_assert(DVW_stack_h6_far_mobile - DVW_stack_h1_red_still + 1 == DV_TABLE_SIZE,
               "the stack table's weights: one run of 6 heights x 4 places x 2");

/* Sums over the own stacks: what their landing points are worth, all[c] per landing point c
 * of any stack, mob[c] of a mobile one (the padding cell 63 is worth 0 in both); their field
 * values; their heights in (hs[0]), next to (hs[1]: field >= 80) and away from a red stack. */
static inline __attribute__((always_inline)) unsigned own_sums(const DvPos *p, uint64_t own, uint64_t sur,
                                                               const uint8_t *field, const uint32_t *all,
                                                               const uint32_t *mob, unsigned *fsum, unsigned *hs,
                                                               OwnCounts *oc)
{
    unsigned land = 0, f = 0, h_red = 0, h_near = 0, h_far = 0;
    int reach = 0, mobile = 0, stuck = 0, table_sum = 0;
    for (uint64_t o = own; o; o &= o - 1) {
        int b = ctz64(o), h = p->height[b];
        f += field[b];
        /* Height counts where it is safe: in or next to a red stack. */
        if (p->red >> b & 1) h_red += h;
        else if (field[b] >= 80) h_near += h;
        else h_far += h;
        const uint8_t *lc = LAND_CELLS[b][h > 10 ? 11 : h];
        int surrounded_here = sur >> b & 1;
        const uint32_t *x = surrounded_here ? all : mob;
        land += x[lc[0]] + x[lc[1]] + x[lc[2]] + x[lc[3]] + x[lc[4]] + x[lc[5]];
        if (oc && oc->enemy_height && !surrounded_here) {
            const uint8_t *eh = oc->enemy_height;
            int m01 = eh[lc[0]] > eh[lc[1]] ? eh[lc[0]] : eh[lc[1]];
            int m23 = eh[lc[2]] > eh[lc[3]] ? eh[lc[2]] : eh[lc[3]];
            int m45 = eh[lc[4]] > eh[lc[5]] ? eh[lc[4]] : eh[lc[5]];
            int m = m01 > m23 ? m01 : m23;
            m = m > m45 ? m : m45;
            if (m > reach) reach = m;
        }
        if (oc) {
            /* Landing cells only ever empty in this phase: no landing now means none later,
             * unless another stack lands on this one. */
            uint64_t t = h > 10 ? 0 : LAND[b][h] & p->occ;
            int can_move = t && !surrounded_here;
            if (!t) stuck += h;
            else mobile += can_move;
            int where = p->red >> b & 1 ? 0 : field[b] >= 80 ? 1 : field[b] >= 68 ? 2 : 3;
            int entry = ((h < DV_TABLE_HEIGHTS ? h : DV_TABLE_HEIGHTS) - 1) * 8 + where * 2 + can_move;
            table_sum += oc->table[entry] * h;
            if (oc->table_pieces) oc->table_pieces[entry] += h;
        }
    }
    *fsum = f;
    hs[0] = h_red;
    hs[1] = h_near;
    hs[2] = h_far;
    if (oc) {
        oc->reach = reach;
        oc->mobile = mobile;
        oc->stuck = stuck;
        oc->table_sum = table_sum;
    }
    return land;
}

/* Stacking phase: weighted sums per colour in 1/64 point, then the cut-off threats.  Sums are
 * unsigned (a huge weight wraps as the old per-term int sums did), so weighting each landing
 * point's value before summing gives the same total as weighting each term's sum (the search's
 * way: one pass over the stacks); `eval` gathers each term's sum for the trace.  The trace's
 * quotients by 64 are exact in a double, so its sums are too. */
static inline __attribute__((always_inline)) void stacking_eval(const DvPos *p, const DvWeights *w, double *tr,
                                                                DvParts *e)
{
    /* field[b] = min(255, 64 + the reds' FIELD_ADD), every cell at once (saturating adds) */
    uint8_t field[64] __attribute__((aligned(64)));
    for (int b = 0; b < 64; b++) field[b] = 64;
    for (uint64_t r = p->red; r; r &= r - 1) {
        const uint8_t *add = FIELD_FROM[ctz64(r)];
        for (int b = 0; b < 64; b++) {
            uint8_t f = (uint8_t)(field[b] + add[b]);
            field[b] = f < add[b] ? 255 : f;
        }
    }
    /* the field on occupied cells (0 on empty ones), and that times the landing weight */
    union { uint8_t b[64]; uint64_t w[8]; } fo;
    memcpy(fo.w, field, 64);
    for (int i = 0; i < 8; i++) fo.w[i] &= BYTE_MASK[p->occ >> (8 * i) & 255];
    uint32_t all[64] __attribute__((aligned(64))), mob[64] __attribute__((aligned(64)));
    for (int b = 0; b < 64; b++) all[b] = (uint32_t)w->landing * fo.b[b];
    uint64_t sur = surrounded(p->occ);
    int *v = e->v, *reach = e->reach;
    e->stacking = 1;
    for (int s = 0; s < 2; s++) {
        uint64_t enemy = p->col[s ^ 1], own = p->col[s];
        unsigned fsum, hs[3], land;
        union { uint8_t b[64]; uint64_t w[8]; } eh_own;  /* enemy stacks' heights, 0 elsewhere */
        int table_pieces[DV_TABLE_SIZE] = {0};
        OwnCounts oc = {NULL, &((const int *)w)[DVW_stack_h1_red_still], tr ? table_pieces : NULL, 0, 0, 0, 0};
        if (w->capture_now || w->capture_next || tr) {
            eh_own.w[6] = eh_own.w[7] = 0;
            memcpy(eh_own.b, p->height, DV_BITS);
            for (int i = 0; i < 8; i++) eh_own.w[i] &= BYTE_MASK[enemy >> (8 * i) & 255];
            oc.enemy_height = eh_own.b;
        }
        /* a mobile stack's landing point is also worth its red and enemy stacks */
        if (!tr) {
            memcpy(mob, all, sizeof mob);
            for (uint64_t x = p->red; x; x &= x - 1) {
                int c = ctz64(x);
                mob[c] += (uint32_t)w->landing_on_red * field[c];
            }
            for (uint64_t x = enemy; x; x &= x - 1) {
                int c = ctz64(x);
                mob[c] += (uint32_t)w->landing_on_enemy * field[c] + (uint32_t)w->enemy_height_in_reach * p->height[c];
            }
            land = own_sums(p, own, sur, field, all, mob, &fsum, hs, &oc);
        } else {
            /* each term's own sum: unit weights, one term at a time */
            uint32_t none[64] = {0}, occupied[64], red[64] = {0}, ef[64] = {0}, eh[64] = {0};
            for (int b = 0; b < 64; b++) occupied[b] = fo.b[b];
            for (uint64_t x = p->red; x; x &= x - 1) red[ctz64(x)] = field[ctz64(x)];
            for (uint64_t x = enemy; x; x &= x - 1) {
                ef[ctz64(x)] = field[ctz64(x)];
                eh[ctz64(x)] = p->height[ctz64(x)];
            }
            unsigned lsum = own_sums(p, own, sur, field, occupied, occupied, &fsum, hs, &oc);
            unsigned rsum = own_sums(p, own, sur, field, none, red, &fsum, hs, NULL);
            unsigned esum = own_sums(p, own, sur, field, none, ef, &fsum, hs, NULL);
            unsigned ehsum = own_sums(p, own, sur, field, none, eh, &fsum, hs, NULL);
            land = w->landing * lsum + w->landing_on_red * rsum + w->landing_on_enemy * esum +
                   w->enemy_height_in_reach * ehsum;
            TRACE(DVW_landing, s, (double)w->landing * lsum / 64.0);
            TRACE(DVW_landing_on_red, s, (double)w->landing_on_red * rsum / 64.0);
            TRACE(DVW_landing_on_enemy, s, (double)w->landing_on_enemy * esum / 64.0);
            TRACE(DVW_enemy_height_in_reach, s, (double)w->enemy_height_in_reach * ehsum / 64.0);
        }
        v[s] = (int)(w->field * fsum + w->height_on_red * hs[0] + w->height_near_red * hs[1] +
                     w->height_far * hs[2] + land);
        TRACE(DVW_field, s, (double)w->field * fsum / 64.0);
        TRACE(DVW_height_on_red, s, (double)w->height_on_red * hs[0] / 64.0);
        TRACE(DVW_height_near_red, s, (double)w->height_near_red * hs[1] / 64.0);
        TRACE(DVW_height_far, s, (double)w->height_far * hs[2] / 64.0);
        /* tallest enemy stack a mobile stack can take (only the capture terms use it) */
        reach[s] = oc.reach;
        v[s] += 64 * (w->mobile_stacks * oc.mobile - w->stuck_pieces * oc.stuck + oc.table_sum);
        TRACE(DVW_mobile_stacks, s, w->mobile_stacks * oc.mobile);
        TRACE(DVW_stuck_pieces, s, -w->stuck_pieces * oc.stuck);
        for (int i = 0; tr && i < DV_TABLE_SIZE; i++)
            TRACE(DVW_stack_h1_red_still + i, s, oc.table[i] * table_pieces[i]);
    }
    if (w->cut_now || w->cut_next) {
        uint64_t cutv = cut_cells(p->occ) & ~sur & ~p->red;
        if (cutv) {
            e->cut[0] = cut_gain(p, 0, cutv);
            e->cut[1] = cut_gain(p, 1, cutv);
        }
    }
}

/* The evaluation with `side` to act, from its view. */
static inline __attribute__((always_inline)) int side_eval(const DvParts *e, const DvWeights *w, int side,
                                                           double *tr)
{
    const int *v = e->v;
    if (!e->stacking) return v[side] - v[side ^ 1];
    int cut_now = w->cut_now * e->cut[side], cut_next = w->cut_next * e->cut[side ^ 1];
    TRACE(DVW_cut_now, side, cut_now);
    TRACE(DVW_cut_next, side ^ 1, cut_next);
    /* The side to act takes first: an unanswered capture is not yet in the material. */
    int now = w->capture_now * e->reach[side], next = w->capture_next * e->reach[side ^ 1];
    TRACE(DVW_capture_now, side, now);
    TRACE(DVW_capture_next, side ^ 1, next);
    TRACE(DVW_tempo, side, w->tempo);
    return (v[side] - v[side ^ 1]) / 64 + (cut_now - cut_next) + now - next + w->tempo;
}

/* always inlined: the search's copy has no trace code at all */
static inline __attribute__((always_inline)) void eval_parts(const DvPos *p, const DvWeights *w, double *tr,
                                                             DvParts *e)
{
    *e = (DvParts){0};
    /* Late placements may be scored as stacking positions: one scale across the phase change. */
    if (p->phase == 0 && p->placed < w->place_stacking_from) placement_eval(p, w, tr, e);
    else stacking_eval(p, w, tr, e);
}

int dv_eval(const DvPos *p)
{
    DvParts e;
    eval_parts(p, &dv_weights.w, NULL, &e);
    return side_eval(&e, &dv_weights.w, p->side, NULL);
}

void dv_eval_pair(const DvPos *p, int32_t out[2])
{
    DvParts e;
    eval_parts(p, &dv_weights.w, NULL, &e);
    out[0] = side_eval(&e, &dv_weights.w, 0, NULL);
    out[1] = side_eval(&e, &dv_weights.w, 1, NULL);
}

int dv_eval_terms(const DvPos *p, double *terms)
{
    for (int i = 0; i < 2 * DV_NWEIGHTS; i++) terms[i] = 0;
    DvParts e;
    eval_parts(p, &dv_weights.w, terms, &e);
    return side_eval(&e, &dv_weights.w, p->side, terms);
}

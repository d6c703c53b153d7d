/* DVONN static evaluation: placement and stacking terms, each scaled by a named weight
 * (dvonn_eval.h).  One body serves the search (no trace, inlined away) and `eval`. */
#include "dvonn_eval.h"
#include "dvonn_geom.h"

#include <string.h>
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

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
            reach = spread_in(reach, occ);
        }
        uint64_t gone = occ & ~reach;
        if (!gone) continue;
        int g = 0;
        for (uint64_t x = gone; x; x &= x - 1) {  /* without branches: whose stack is a guess */
            int b = ctz64(x);
            g += ((int)(p->col[s ^ 1] >> b & 1) - (int)(p->col[s] >> b & 1)) * p->height[b];
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
_Static_assert(DVW_place_far_edge_own3 - DVW_place_adj_inner_own0 + 1 == 24,
               "the placement table's weights: one run of 3 distances x 2 x 4");
enum { DV_TABLE_HEIGHTS = 6, DV_TABLE_SIZE = DV_TABLE_HEIGHTS * 8 };
_Static_assert(DVW_stack_h6_far_mobile - DVW_stack_h1_red_still + 1 == DV_TABLE_SIZE,
               "the stack table's weights: one run of 6 heights x 4 places x 2");
static uint8_t TABLE_ROW[256];  /* height -> its first table entry (heights of 6 and more share one) */

void dv_eval_init(void)
{
    for (int r = 0; r < DV_BITS; r++)
        for (int b = 0; b < 64; b++)  /* off-board cells: 0 (DIST is only meant for board cells) */
            FIELD_FROM[r][b] = (VALID >> r & 1) && b < DV_BITS && (VALID >> b & 1) ? (uint8_t)FIELD_ADD[DIST[b][r]] : 0;
    for (int h = 1; h < 256; h++) TABLE_ROW[h] = (uint8_t)(((h < DV_TABLE_HEIGHTS ? h : DV_TABLE_HEIGHTS) - 1) * 8);
    for (int m = 0; m < 256; m++) {
        BYTE_MASK[m] = 0;
        for (int i = 0; i < 8; i++) if (m >> i & 1) BYTE_MASK[m] |= 0xFFull << (8 * i);
    }
}

/* What own_sums also finds when asked: the landing points of the stacks that are not
 * surrounded, the stacks with no landing point, the stack table's points (and, for the trace,
 * each table entry's pieces).  Cheaper found always than tested for whether their weights are
 * set. */
typedef struct {
    uint64_t targets, stuck;  /* stuck: the stacks with no landing point */
    const uint8_t *where;     /* per cell: 2 x (0 holding a red, 1 next to one, 2 two steps, 3 farther) */
    const int *table;         /* the DV_STACK_TABLE weights */
    int *table_pieces;
    int table_sum;
} OwnCounts;


/* The sum of the bytes a[i] of the 64 where both masks are 0xFF: sums of absolute differences
 * from zero on x86-64, a handful of instructions where a loop over the stacks would branch. */
static inline unsigned masked_byte_sum(const uint8_t *a, const uint8_t *m1, const uint8_t *m2)
{
#if defined(__SSE2__) && defined(__x86_64__)
    __m128i s = _mm_setzero_si128();
    for (int i = 0; i < 64; i += 16) {
        __m128i m = _mm_and_si128(_mm_loadu_si128((const __m128i *)(m1 + i)), _mm_loadu_si128((const __m128i *)(m2 + i)));
        __m128i x = _mm_and_si128(_mm_loadu_si128((const __m128i *)(a + i)), m);
        s = _mm_add_epi64(s, _mm_sad_epu8(x, _mm_setzero_si128()));
    }
    return (unsigned)(_mm_cvtsi128_si64(s) + _mm_cvtsi128_si64(_mm_unpackhi_epi64(s, s)));
#else
    unsigned s = 0;
    for (int i = 0; i < 64; i++) s += a[i] & m1[i] & m2[i];
    return s;
#endif
}

/* One pass of own_sums over some stacks (surrounded or not), each landing point worth x[c];
 * with oc, their landing points into oc->targets (if not surrounded), the stacks with none into
 * oc->stuck and the stack table's points. */
static inline __attribute__((always_inline)) unsigned land_pass(const DvPos *p, uint64_t stacks, const uint32_t *x,
                                                                int surrounded, OwnCounts *oc)
{
    unsigned land = 0;
    for (uint64_t o = stacks; o; o &= o - 1) {
        int b = ctz64(o), h = p->height[b];
        int hc = h > 10 ? 11 : h;
        const uint8_t *lc = LAND_CELLS[b][hc];
        land += x[lc[0]] + x[lc[1]] + x[lc[2]] + x[lc[3]] + x[lc[4]] + x[lc[5]];
        if (oc) {
            /* without branches: which stacks are stuck is anyone's guess */
            uint64_t lb = LAND[b][hc];
            int can = (lb & p->occ) != 0;
            if (!surrounded) oc->targets |= lb;
            oc->stuck |= (uint64_t)!can << b;
            int entry = TABLE_ROW[h] + oc->where[b] + (can & !surrounded);
            oc->table_sum += oc->table[entry] * h;
            if (oc->table_pieces) oc->table_pieces[entry] += h;
        }
    }
    return land;
}

/* Sums over the own stacks: what their landing points are worth, all[c] per landing point c
 * of any stack, mob[c] of a mobile one (the padding cell 63 is worth 0 in both).  Two passes,
 * the stacks that are surrounded and the others: fewer steps per stack than telling them
 * apart in one. */
static inline __attribute__((always_inline)) unsigned own_sums(const DvPos *p, uint64_t own, uint64_t sur,
                                                               const uint32_t *all, const uint32_t *mob,
                                                               OwnCounts *oc)
{
    return land_pass(p, own & ~sur, mob, 0, oc) + land_pass(p, own & sur, all, 1, oc);
}

typedef union { uint8_t b[64]; uint64_t w[8]; } Bytes64;  /* 64 cells, a byte each */

/* What the stacking phase's sums read, cell by cell (64 bytes or words, padded past the board
 * so whole vectors work). */
typedef struct {
    uint8_t field[64] __attribute__((aligned(64)));  /* min(255, 64 + the reds' FIELD_ADD) */
    uint32_t all[64] __attribute__((aligned(64)));   /* landing weight x field on occupied cells */
    uint32_t mob[2][64] __attribute__((aligned(64))); /* a mobile stack's landing worth per colour */
    Bytes64 fo;     /* the field on occupied cells (0 on empty ones) */
    Bytes64 rm, cm[2], hb;  /* byte masks of the reds and of each colour; the heights */
    Bytes64 nm, where;      /* red-free stacks next to a red; 2 x place (OwnCounts.where) */
    uint64_t sur;   /* the surrounded stacks */
} StackMaps;

/* The field value of every cell at once (saturating adds). */
static inline __attribute__((always_inline)) void field_values(const DvPos *p, uint8_t *field)
{
    for (int b = 0; b < 64; b++) field[b] = 64;
    for (uint64_t r = p->red; r; r &= r - 1) {
        const uint8_t *add = FIELD_FROM[ctz64(r)];
        for (int b = 0; b < 64; b++) {
            uint8_t f = (uint8_t)(field[b] + add[b]);
            field[b] = f < add[b] ? 255 : f;
        }
    }
}

/* Each cell's place: field >= 80 (near) and >= 68 (two steps): next to a red and within two
 * steps of one while at most three stacks hold reds (three at three steps make 67). */
static inline __attribute__((always_inline)) void red_places(const DvPos *p, StackMaps *m)
{
    uint64_t near = 0, two = 0;
    if (popcount64(p->red) <= 3) {
        near = spread(p->red);
        two = spread(near);
    } else {
        for (int b = 0; b < 64; b++) {
            near |= (uint64_t)(m->field[b] >= 80) << b;
            two |= (uint64_t)(m->field[b] >= 68) << b;
        }
    }
    for (int i = 0; i < 8; i++) {
        uint64_t n = BYTE_MASK[near >> (8 * i) & 255], t = BYTE_MASK[two >> (8 * i) & 255];
        m->nm.w[i] = n & ~m->rm.w[i];
        /* 2 x place: a red stack is also near and two steps (its field is at least 128) */
        m->where.w[i] = 0x0606060606060606ull - ((n & 0x0202020202020202ull) + (t & 0x0202020202020202ull) +
                                                 (m->rm.w[i] & 0x0202020202020202ull));
    }
}

static inline __attribute__((always_inline)) void stack_maps(const DvPos *p, const DvWeights *w, double *tr,
                                                             StackMaps *m)
{
    field_values(p, m->field);
    memcpy(m->fo.w, m->field, 64);
    for (int i = 0; i < 8; i++) m->fo.w[i] &= BYTE_MASK[p->occ >> (8 * i) & 255];
    for (int b = 0; b < 64; b++) m->all[b] = (uint32_t)w->landing * m->fo.b[b];
    for (int i = 0; i < 8; i++) {
        m->rm.w[i] = BYTE_MASK[p->red >> (8 * i) & 255];
        m->cm[0].w[i] = BYTE_MASK[p->col[0] >> (8 * i) & 255];
        m->cm[1].w[i] = BYTE_MASK[p->col[1] >> (8 * i) & 255];
    }
    m->hb.w[6] = m->hb.w[7] = 0;
    memcpy(m->hb.b, p->height, DV_BITS);
    if (!tr) {
        /* a mobile stack's landing point is also worth its red and enemy stacks: both colours'
         * tables in one vectorised pass */
        uint32_t lor = (uint32_t)w->landing_on_red, loe = (uint32_t)w->landing_on_enemy,
                 ehr = (uint32_t)w->enemy_height_in_reach;
        for (int b = 0; b < 64; b++) {
            uint32_t base = m->all[b] + lor * (m->fo.b[b] & m->rm.b[b]),
                     extra = loe * m->fo.b[b] + ehr * m->hb.b[b];
            m->mob[0][b] = base + (extra & (uint32_t)(int8_t)m->cm[1].b[b]);
            m->mob[1][b] = base + (extra & (uint32_t)(int8_t)m->cm[0].b[b]);
        }
    }
    m->sur = surrounded(p->occ);
    red_places(p, m);
}

/* The landing terms of colour s for the trace: each term's own sum with unit weights, one
 * term at a time, then weighted. */
static unsigned traced_landing(const DvPos *p, const DvWeights *w, double *tr, const StackMaps *m, int s,
                               OwnCounts *oc)
{
    uint64_t own = p->col[s], enemy = p->col[s ^ 1];
    uint32_t none[64] = {0}, occupied[64], red[64] = {0}, ef[64] = {0}, eh[64] = {0};
    for (int b = 0; b < 64; b++) occupied[b] = m->fo.b[b];
    for (uint64_t x = p->red; x; x &= x - 1) red[ctz64(x)] = m->field[ctz64(x)];
    for (uint64_t x = enemy; x; x &= x - 1) {
        ef[ctz64(x)] = m->field[ctz64(x)];
        eh[ctz64(x)] = p->height[ctz64(x)];
    }
    unsigned lsum = own_sums(p, own, m->sur, occupied, occupied, oc);
    unsigned rsum = own_sums(p, own, m->sur, none, red, NULL);
    unsigned esum = own_sums(p, own, m->sur, none, ef, NULL);
    unsigned ehsum = own_sums(p, own, m->sur, none, eh, NULL);
    TRACE(DVW_landing, s, (double)w->landing * lsum / 64.0);
    TRACE(DVW_landing_on_red, s, (double)w->landing_on_red * rsum / 64.0);
    TRACE(DVW_landing_on_enemy, s, (double)w->landing_on_enemy * esum / 64.0);
    TRACE(DVW_enemy_height_in_reach, s, (double)w->enemy_height_in_reach * ehsum / 64.0);
    return w->landing * lsum + w->landing_on_red * rsum + w->landing_on_enemy * esum +
           w->enemy_height_in_reach * ehsum;
}

/* The tallest enemy stack a mobile stack of colour s can take (only the capture terms use it):
 * a vectorised maximum over the heights masked to those cells. */
static inline __attribute__((always_inline)) int tallest_target(const StackMaps *m, int s, uint64_t targets)
{
    Bytes64 tm;
    for (int i = 0; i < 8; i++) tm.w[i] = BYTE_MASK[targets >> (8 * i) & 255] & m->cm[s ^ 1].w[i];
    uint8_t r = 0;
    for (int b = 0; b < 64; b++) {
        uint8_t h = m->hb.b[b] & tm.b[b];
        r = h > r ? h : r;
    }
    return r;
}

/* Colour s's stacking sums into e->v[s] and e->reach[s]. */
static inline __attribute__((always_inline)) void stacking_side(const DvPos *p, const DvWeights *w, double *tr,
                                                                const StackMaps *m, int s, DvParts *e)
{
    uint64_t own = p->col[s];
    int table_pieces[DV_TABLE_SIZE] = {0};
    OwnCounts oc = {0, 0, m->where.b, &((const int *)w)[DVW_stack_h1_red_still], tr ? table_pieces : NULL, 0};
    /* field values; heights in (hs[0]), next to (hs[1]: field >= 80) and away from a red */
    unsigned fsum = masked_byte_sum(m->field, m->cm[s].b, m->cm[s].b), hs[3];
    hs[0] = masked_byte_sum(m->hb.b, m->cm[s].b, m->rm.b);
    hs[1] = masked_byte_sum(m->hb.b, m->cm[s].b, m->nm.b);
    hs[2] = masked_byte_sum(m->hb.b, m->cm[s].b, m->cm[s].b) - hs[0] - hs[1];
    unsigned land = tr ? traced_landing(p, w, tr, m, s, &oc) : own_sums(p, own, m->sur, m->all, m->mob[s], &oc);
    int *v = e->v;
    v[s] = (int)(w->field * fsum + w->height_on_red * hs[0] + w->height_near_red * hs[1] +
                 w->height_far * hs[2] + land);
    TRACE(DVW_field, s, (double)w->field * fsum / 64.0);
    TRACE(DVW_height_on_red, s, (double)w->height_on_red * hs[0] / 64.0);
    TRACE(DVW_height_near_red, s, (double)w->height_near_red * hs[1] / 64.0);
    TRACE(DVW_height_far, s, (double)w->height_far * hs[2] / 64.0);
    e->reach[s] = tallest_target(m, s, oc.targets);
    /* Landing cells only ever empty in this phase: no landing now means none later, unless
     * another stack lands on this one. */
    Bytes64 sm;
    for (int i = 0; i < 8; i++) sm.w[i] = BYTE_MASK[oc.stuck >> (8 * i) & 255];
    int mobile = popcount64(own & ~m->sur & ~oc.stuck), stuck = (int)masked_byte_sum(m->hb.b, sm.b, sm.b);
    v[s] += 64 * (w->mobile_stacks * mobile - w->stuck_pieces * stuck + oc.table_sum);
    TRACE(DVW_mobile_stacks, s, w->mobile_stacks * mobile);
    TRACE(DVW_stuck_pieces, s, -w->stuck_pieces * stuck);
    for (int i = 0; tr && i < DV_TABLE_SIZE; i++)
        TRACE(DVW_stack_h1_red_still + i, s, oc.table[i] * table_pieces[i]);
}

/* Stacking phase: weighted sums per colour in 1/64 point, then the cut-off threats.  Sums are
 * unsigned (a huge weight wraps as the old per-term int sums did), so weighting each landing
 * point's value before summing gives the same total as weighting each term's sum (the search's
 * way: one pass over the stacks); `eval` gathers each term's sum for the trace.  The trace's
 * quotients by 64 are exact in a double, so its sums are too. */
static inline __attribute__((always_inline)) void stacking_eval(const DvPos *p, const DvWeights *w, double *tr,
                                                                DvParts *e)
{
    StackMaps m;
    stack_maps(p, w, tr, &m);
    e->stacking = 1;
    for (int s = 0; s < 2; s++) stacking_side(p, w, tr, &m, s, e);
    if (w->cut_now || w->cut_next) {
        uint64_t cutv = cut_cells(p->occ) & ~m.sur & ~p->red;
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
    if (p->phase == 0) placement_eval(p, w, tr, e);
    else stacking_eval(p, w, tr, e);
}

/* The named weights' evaluation for the sides in want (bit c: colour c), unless a network
 * values p alone; then the network's output added where it values p. */
static inline void eval_sides(const DvPos *p, int want, int32_t out[2])
{
    int net = __builtin_expect(p->acc_ok, 0);
    out[0] = out[1] = 0;
    if (!net || dv_net.added) {
        DvParts e;
        eval_parts(p, &dv_weights.w, NULL, &e);
        for (int c = 0; c < 2; c++)
            if (want >> c & 1) out[c] = side_eval(&e, &dv_weights.w, c, NULL);
    }
    if (net) {
        int stacks = popcount64(p->occ);
        for (int c = 0; c < 2; c++)
            if (want >> c & 1) out[c] += dv_net_output(p->acc, c, stacks);
    }
}

int dv_eval(const DvPos *p)
{
    int32_t out[2];
    eval_sides(p, 1 << p->side, out);
    return out[p->side];
}

void dv_eval_pair(const DvPos *p, int32_t out[2])
{
    eval_sides(p, 3, out);
}

int dv_eval_terms(const DvPos *p, double *terms)
{
    for (int i = 0; i < 2 * DV_NWEIGHTS; i++) terms[i] = 0;
    DvParts e;
    eval_parts(p, &dv_weights.w, terms, &e);
    return side_eval(&e, &dv_weights.w, p->side, terms);
}

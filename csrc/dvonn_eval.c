/* DVONN static evaluation: placement and stacking terms, each scaled by a named weight
 * (dvonn_eval.h).  One body serves the search (no trace, inlined away) and `eval`. */
#include "dvonn_eval.h"
#include "dvonn_geom.h"

DvWeightSet dv_weights = {{DV_WEIGHTS(WEIGHT_DEFAULT)}};
const WeightInfo DV_WEIGHT_INFO[DV_NWEIGHTS] = {DV_WEIGHTS(WEIGHT_INFO)};

/* Each weight's share per colour, when asked for. */
#define TRACE(i, colour, x) do { if (tr) tr[2 * (i) + (colour)] += (x); } while (0)

/* PrimaDvonna's field value: 64 plus 64/4^d for each red stack at distance d. */
static const int FIELD_ADD[11] = {64, 16, 4, 1, 0, 0, 0, 0, 0, 0, 0};

static inline __attribute__((always_inline)) int placement_eval(const DvPos *p, const DvWeights *w, double *tr)
{
    int reds[3], nr = 0;
    for (uint64_t r = p->red; r && nr < 3; r &= r - 1) reds[nr++] = ctz64(r);
    if (!nr) return 0;
    int v[2] = {0, 0};
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
            if (!(INNER >> b & 1)) edge++;
            x += w->place_own_nbr * own;
            TRACE(DVW_place_own_nbr, s, w->place_own_nbr * own);
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
    return v[p->side] - v[p->side ^ 1];
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

/* Stacking phase: weighted sums per colour in 1/64 point, then the cut-off threats. */
static inline __attribute__((always_inline)) int stacking_eval(const DvPos *p, const DvWeights *w, double *tr)
{
    int reds[DV_POINTS], nr = 0;
    for (uint64_t r = p->red; r; r &= r - 1) reds[nr++] = ctz64(r);
    uint8_t field[DV_BITS];
    for (uint64_t o = p->occ; o; o &= o - 1) {
        int b = ctz64(o), f = 64;
        for (int i = 0; i < nr; i++) f += FIELD_ADD[DIST[b][reds[i]]];
        field[b] = (uint8_t)(f > 255 ? 255 : f);
    }
    uint64_t sur = surrounded(p->occ);
    int v[2] = {0, 0}, reach[2] = {0, 0}; /* tallest enemy stack a mobile stack can take */
    for (int s = 0; s < 2; s++) {
        uint64_t enemy = p->col[s ^ 1];
        int acc = 0;
        for (uint64_t o = p->col[s]; o; o &= o - 1) {
            int b = ctz64(o), h = p->height[b];
            acc += w->field * field[b];
            TRACE(DVW_field, s, w->field * field[b] / 64.0);
            /* Height counts where it is safe: in or next to a red stack. */
            if (p->red >> b & 1) {
                acc += w->height_on_red * h;
                TRACE(DVW_height_on_red, s, w->height_on_red * h / 64.0);
            } else if (field[b] >= 80) {
                acc += w->height_near_red * h;
                TRACE(DVW_height_near_red, s, w->height_near_red * h / 64.0);
            } else {
                acc += w->height_far * h;
                TRACE(DVW_height_far, s, w->height_far * h / 64.0);
            }
            if (h > 10) continue;
            uint64_t t = LAND[b][h] & p->occ;
            int mobile = !(sur >> b & 1);
            for (; t; t &= t - 1) {
                int tb = ctz64(t);
                acc += w->landing * field[tb];
                TRACE(DVW_landing, s, w->landing * field[tb] / 64.0);
                if (mobile) {
                    if (p->red >> tb & 1) {
                        acc += w->landing_on_red * field[tb];
                        TRACE(DVW_landing_on_red, s, w->landing_on_red * field[tb] / 64.0);
                    }
                    if (enemy >> tb & 1) {
                        if (p->height[tb] > reach[s]) reach[s] = p->height[tb];
                        acc += w->landing_on_enemy * field[tb] + w->enemy_height_in_reach * p->height[tb];
                        TRACE(DVW_landing_on_enemy, s, w->landing_on_enemy * field[tb] / 64.0);
                        TRACE(DVW_enemy_height_in_reach, s, w->enemy_height_in_reach * p->height[tb] / 64.0);
                    }
                }
            }
        }
        v[s] = acc;
    }
    if (w->mobile_stacks || w->stuck_pieces) {
        /* Landing cells only ever empty in this phase: no landing now means none later,
         * unless another stack lands on this one. */
        for (int s = 0; s < 2; s++) {
            int mobile = 0, stuck = 0;
            for (uint64_t o = p->col[s]; o; o &= o - 1) {
                int b = ctz64(o), h = p->height[b];
                uint64_t t = h > 10 ? 0 : LAND[b][h] & p->occ;
                if (!t) stuck += h;
                else if (!(sur >> b & 1)) mobile++;
            }
            v[s] += 64 * (w->mobile_stacks * mobile - w->stuck_pieces * stuck);
            TRACE(DVW_mobile_stacks, s, w->mobile_stacks * mobile);
            TRACE(DVW_stuck_pieces, s, -w->stuck_pieces * stuck);
        }
    }
    int cut = 0;
    if (w->cut_now || w->cut_next) {
        uint64_t cutv = cut_cells(p->occ) & ~sur & ~p->red;
        if (cutv) {
            int now = w->cut_now * cut_gain(p, p->side, cutv);
            int next = w->cut_next * cut_gain(p, p->side ^ 1, cutv);
            TRACE(DVW_cut_now, p->side, now);
            TRACE(DVW_cut_next, p->side ^ 1, next);
            cut = now - next;
        }
    }
    /* The side to act takes first: an unanswered capture is not yet in the material. */
    int now = w->capture_now * reach[p->side], next = w->capture_next * reach[p->side ^ 1];
    TRACE(DVW_capture_now, p->side, now);
    TRACE(DVW_capture_next, p->side ^ 1, next);
    TRACE(DVW_tempo, p->side, w->tempo);
    return (v[p->side] - v[p->side ^ 1]) / 64 + cut + now - next + w->tempo;
}

/* always inlined: the search's copy has no trace code at all */
static inline __attribute__((always_inline)) int eval_impl(const DvPos *p, double *tr)
{
    const DvWeights *w = &dv_weights.w;
    /* Late placements may be scored as stacking positions: one scale across the phase change. */
    if (p->phase == 0 && p->placed < w->place_stacking_from) return placement_eval(p, w, tr);
    return stacking_eval(p, w, tr);
}

int dv_eval(const DvPos *p) { return eval_impl(p, NULL); }

int dv_eval_terms(const DvPos *p, double *terms)
{
    for (int i = 0; i < 2 * DV_NWEIGHTS; i++) terms[i] = 0;
    return eval_impl(p, terms);
}

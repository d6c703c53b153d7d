/* TZAAR static evaluation: material by scarcity, tallest stacks, capture counts,
 * threats and exposed stacks, each scaled by a named weight (tzaar_eval.h).  One
 * body serves the search (no trace, inlined away) and `eval`.
 *
 * The shapes below were set by short self-play matches with the shared search at
 * equal nodes (30k nodes per action, 40-60 games per pair, colours alternated):
 * height bonus x6 over the first guess, type-count value /2, threat terms /3.
 * This evaluation beats a count+height-only one 40-0.  The weights were then fitted
 * by Texel tuning on self-play (gipf-tune), with the exposure terms added: docs/strength.md
 * has the data and the SPRT results. */
#include "tzaar_eval.h"
#include "tzaar_geom.h"

TzWeightSet tz_weights = {{TZ_WEIGHTS(WEIGHT_DEFAULT)}};
const WeightInfo TZ_WEIGHT_INFO[TZ_NWEIGHTS] = {TZ_WEIGHTS(WEIGHT_INFO)};

#define TRACE(i, colour, x) do { if (tr) tr[2 * (i) + (colour)] += (x); } while (0)

/* Value of having n visible stacks of one type: cumulative sum of a steeply
 * decreasing marginal value (the last stacks of a type are worth most). */
static const int16_t MARG[16] = {0, 400, 200, 133, 100, 80, 67, 57, 50, 44, 40, 36, 33, 31, 29, 27};
static const int16_t TYPEVAL[16] = {0, 400, 600, 733, 833, 913, 980, 1037, 1087,
                                    1131, 1171, 1207, 1240, 1271, 1300, 1327};
/* Scarcity multiplier (/16) for height bonuses by visible count of the type. */
static const int8_t SC2[16] = {32, 32, 26, 22, 19, 17, 16, 15, 14, 13, 12, 11, 11, 10, 10, 10};
static int16_t SVAL[16][32];   /* value of one stack: visible count, height */
/* stack table offsets (from TZW_stack_n1_h1_safe): by a type's visible count, by height */
static const uint8_t TABLE_ROW[16] = {0, 0, 8, 16, 24, 24, 24, 32, 32, 32, 32, 32, 32, 32, 32, 32};
static const uint8_t TABLE_HEIGHT[32] = {0, 0, 2, 4, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
                                         6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};

void tz_eval_init(void)
{
    for (int n = 0; n < 16; n++)
        for (int h = 0; h < 32; h++)
            SVAL[n][h] = (int16_t)(MARG[n] + TZ_HEIGHT_BONUS[h] * SC2[n] / 16);
}

/* Value of having k captures available (handover rule: 0 loses). */
static int capval(int k)
{
    static const int16_t low[7] = {-1200, -500, -240, -120, -60, -24, 0};
    if (k < 7) return low[k];
    if (k > 40) k = 40;
    return 6 * (k - 6);
}

static inline int cl15(int n) { return n > 15 ? 15 : n; }
static inline int clh(int h) { return h > 31 ? 31 : h; }

/* tallest stack among the stacks of mask m (0 if none) */
static inline int max_height(const TzPos *p, uint64_t m)
{
    if (!m) return 0;
    uint64_t tm = m & p->tallm;
    if (!tm) return 1;
    int best = 2;
    for (; tm; tm &= tm - 1) {
        int hh = p->h[ctz64(tm)];
        best = hh > best ? hh : best;
    }
    return best;
}

/* highest single-stack value among enemy stacks of colour e in mask att */
static inline int best_value(const TzPos *p, uint64_t att, int e)
{
    int best = 0;
    for (int k = 3 * e; k < 3 * e + 3; k++) {
        uint64_t m = att & p->tops[k];
        if (!m) continue;
        int v = SVAL[cl15(p->cnt[k])][clh(max_height(p, m))];
        best = v > best ? v : best;
    }
    return best;
}

#define INLINE static inline __attribute__((always_inline))

/* What one evaluation reads of the position besides the weights: the stacks each colour can
 * capture now (att[c]: the enemy stacks colour c attacks), each type's tallest stack and
 * each colour's tallest. */
typedef struct {
    uint64_t attm;
    uint64_t att[2];
    int tall[6];
    int maxh[2];
} TzSeen;

/* An immediate, certain win for the side to act S against O. */
INLINE int certain_win(const TzPos *p, const TzSeen *seen, int S, int O)
{
    if (p->phase == 2 && p->ncap[O] == 0) return 1; /* pass hands over a dead turn */
    for (int t = 0; t < 3; t++) {
        int c = 3 * O + t;
        if (p->cnt[c] == 1 && (seen->att[S] & p->tops[c])) return 1;
    }
    /* two captures to come: a type with two visible stacks, both attacked, by two different
     * stacks of S, falls (capturing one leaves the other attacker's line of sight and height
     * untouched) */
    if (p->phase == 1)
        for (int t = 0; t < 3; t++) {
            const uint64_t m = p->tops[3 * O + t];
            if (p->cnt[3 * O + t] == 2 && !(m & ~seen->att[S]) && popcount64(tz_attackers(p, m, S)) >= 2)
                return 1;
        }
    return 0;
}

/* Colour c's material: each type by count and height, and whether its tallest stack is
 * safe (taller than every enemy stack: it cannot be captured). */
INLINE int material(const TzPos *p, const TzWeights *w, const TzSeen *seen, int c, double *tr)
{
    int e = c ^ 1, safe = 0, score = 0;
    for (int t = 0; t < 3; t++) {
        int k = 3 * c + t, n = p->cnt[k];
        int count = TYPEVAL[cl15(n)] * w->type_count / 100;
        int height = p->hsum[k] * SC2[cl15(n)] * w->height / 16;
        score += count + height;
        TRACE(TZW_type_count, c, count);
        TRACE(TZW_height, c, height);
        if (seen->tall[k] > seen->maxh[e]) {
            safe++;
            score += w->safe_type + w->safe_type_scarce / n;
            TRACE(TZW_safe_type, c, w->safe_type);
            TRACE(TZW_safe_type_scarce, c, w->safe_type_scarce / n);
        } else {
            score += w->tall_gap * (seen->tall[k] - seen->maxh[e]);
            TRACE(TZW_tall_gap, c, w->tall_gap * (seen->tall[k] - seen->maxh[e]));
        }
    }
    if (safe == 3) {
        score += w->all_safe;
        TRACE(TZW_all_safe, c, w->all_safe);
    }
    return score;
}

/* What colour c loses to captures the enemy can make now (S is to act). */
INLINE int exposure(const TzPos *p, const TzWeights *w, const TzSeen *seen, int c, int S, double *tr)
{
    int e = c ^ 1;
    /* own stacks the enemy can capture now, the scarce types' dearest */
    int exposed = 0;
    for (int t = 0; t < 3; t++)
        exposed += popcount64(seen->att[e] & p->tops[3 * c + t]) * MARG[cl15(p->cnt[3 * c + t])];
    const int ie = p->phase == 1 ? (c == S ? TZW_exposed_to_act : TZW_exposed_waiting)
                                 : (c == S ? TZW_exposed_last_to_act : TZW_exposed_last_waiting);
    exposed = exposed * tz_weights.v[ie] / 100;
    TRACE(ie, c, -exposed);
    /* the pieces an exposed stack would lose, and stacks attacked twice (one capture of the
     * attacker does not save them) */
    int lost = 0, twice = 0;
    for (uint64_t b = seen->att[e] & p->col[c]; b; b &= b - 1) {
        const int i = ctz64(b);
        lost += p->h[i] - 1;
        twice += p->natt[i] >= 2;
    }
    const int ih = c == S ? TZW_exposed_height_to_act : TZW_exposed_height_waiting;
    lost *= tz_weights.v[ih];
    twice *= w->exposed_twice;
    TRACE(ih, c, -lost);
    TRACE(TZW_exposed_twice, c, -twice);
    return exposed + lost + twice;
}

/* The stack table: height-1 stacks by popcount (most stacks), taller ones one by one. */
INLINE int stack_table(const TzPos *p, const TzSeen *seen, int c, double *tr)
{
    int table = 0;
    for (int t = 0; t < 3; t++) {
        const int k = 3 * c + t, row = TZW_stack_n1_h1_safe + TABLE_ROW[cl15(p->cnt[k])];
        const uint64_t one = p->tops[k] & ~p->tallm;
        const int exposed1 = popcount64(one & seen->attm), safe1 = popcount64(one) - exposed1;
        table += safe1 * tz_weights.v[row] + exposed1 * tz_weights.v[row + 1];
        TRACE(row, c, safe1 * tz_weights.v[row]);
        TRACE(row + 1, c, exposed1 * tz_weights.v[row + 1]);
        for (uint64_t b = p->tops[k] & p->tallm; b; b &= b - 1) {
            const int i = ctz64(b), e = row + TABLE_HEIGHT[clh(p->h[i])] + (p->natt[i] != 0);
            table += tz_weights.v[e];
            TRACE(e, c, tz_weights.v[e]);
        }
    }
    return table;
}

/* Colour c's terms that need no enemy view: central tall stacks, captures and stackings. */
INLINE int mobility(const TzPos *p, const TzWeights *w, int c, double *tr)
{
    /* tall stacks inside the edge see (and can strike along) more lines */
    const uint64_t tallc = p->tallm & p->col[c];
    int central = popcount64(tallc & ~TZ_RING[4]) + popcount64(tallc & (TZ_RING[1] | TZ_RING[2])) +
                  popcount64(tallc & TZ_RING[1]);
    central *= w->central_tall;
    TRACE(TZW_central_tall, c, central);
    int caps = capval(p->ncap[c]) * w->captures / 100, stackings = w->stackings * 2 * p->npair[c];
    TRACE(TZW_captures, c, caps);
    TRACE(TZW_stackings, c, stackings);
    return central + caps + stackings;
}

/* The threats, from S's view.  S acts now: it has one capture left (phase 0/2) or two
 * (phase 1) before O answers with a full turn of two actions.  The opponent's threats count
 * as O's terms. */
INLINE int threats(const TzPos *p, const TzWeights *w, const TzSeen *seen, int S, int O, double *tr)
{
    const int two = p->phase == 1;
    int bonus = 0;
    for (int t = 0; t < 3; t++) {
        /* S against O's types, all of them attacked */
        int k = 3 * O + t, n = p->cnt[k];
        if ((n == 2 || n == 3) && !(p->tops[k] & ~seen->att[S])) {
            int i = n == 2 ? (two ? TZW_attack_pair_turn : TZW_attack_pair_last)
                           : (two ? TZW_attack_triple_turn : TZW_attack_triple_last);
            bonus += tz_weights.v[i];
            TRACE(i, S, tz_weights.v[i]);
        }
        /* O against S's types (S may still parry) */
        k = 3 * S + t;
        n = p->cnt[k];
        uint64_t a = p->tops[k] & seen->att[O];
        if (n > 3 || (!a && p->tops[k])) continue;  /* none of them attacked */
        int i = TZW_danger_partial, x = w->danger_partial * popcount64(a);
        if (a == p->tops[k]) {
            i = n == 1 ? (two ? TZW_danger_last_turn : TZW_danger_last_last)
              : n == 2 ? (two ? TZW_danger_pair_turn : TZW_danger_pair_last)
              : TZW_danger_triple;
            x = tz_weights.v[i];
        }
        bonus -= x;
        TRACE(i, O, x);
    }
    return bonus;
}

/* always inlined: the search's copy has no trace code at all */
INLINE int eval_impl(const TzPos *p, double *tr)
{
    const TzWeights *w = &tz_weights.w;
    const int S = p->side, O = S ^ 1;
    if (p->over) return (p->result > 0) == (S == 0) ? TZ_WIN_EVAL : -TZ_WIN_EVAL;
    TzSeen seen;
    seen.attm = tz_attacked(p);
    seen.att[0] = seen.attm & p->col[1];
    seen.att[1] = seen.attm & p->col[0];
    if (certain_win(p, &seen, S, O)) return TZ_WIN_EVAL;
    for (int k = 0; k < 6; k++) seen.tall[k] = max_height(p, p->tops[k]);
    for (int c = 0; c < 2; c++) {
        int m = seen.tall[3 * c] > seen.tall[3 * c + 1] ? seen.tall[3 * c] : seen.tall[3 * c + 1];
        seen.maxh[c] = seen.tall[3 * c + 2] > m ? seen.tall[3 * c + 2] : m;
    }
    int score[2];
    for (int c = 0; c < 2; c++)
        score[c] = material(p, w, &seen, c, tr) - exposure(p, w, &seen, c, S, tr) +
                   stack_table(p, &seen, c, tr) + mobility(p, w, c, tr);
    int bonus = threats(p, w, &seen, S, O, tr);
    /* best capture targets both ways: S takes its best now, O its best next turn */
    int now = best_value(p, seen.att[S], O) * w->best_target_now / 100;
    int next = best_value(p, seen.att[O], S) * w->best_target_next / 100;
    int tempo = p->phase == 1 ? w->tempo_turn : w->tempo_last;
    bonus += now - next + tempo;
    TRACE(TZW_best_target_now, S, now);
    TRACE(TZW_best_target_next, O, next);
    TRACE(p->phase == 1 ? TZW_tempo_turn : TZW_tempo_last, S, tempo);
    int v = score[S] - score[O] + bonus;
    return v > 250000 ? 250000 : v < -250000 ? -250000 : v;
}

/* Static evaluation from the side to act's view. */
int tz_eval(const TzPos *p) { return eval_impl(p, NULL); }

void tz_eval_pair(const TzPos *p, int32_t out[2])
{
    int side = tz_side(p);
    out[side] = eval_impl(p, NULL);
    out[side ^ 1] = 0;
}

int tz_eval_terms(const TzPos *p, double *terms)
{
    for (int i = 0; i < 2 * TZ_NWEIGHTS; i++) terms[i] = 0;
    return eval_impl(p, terms);
}

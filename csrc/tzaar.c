/* TZAAR game module: bitboard representation, action generation, play,
 * game-end detection, evaluation, move ordering and whole-turn perft.
 * Contract: csrc/CONTRACT.md.  Rules: shared/rules/tzaar-standard-2016-v1.
 */
#include "tzaar.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Geometry                                                            */
/* ------------------------------------------------------------------ */

/* Directions as engine/hexgrid.py TZAAR_DIRECTIONS:
 * 0 (+1,0)  1 (-1,0)  2 (0,+1)  3 (0,-1)  4 (+1,-1)  5 (-1,+1).
 * Points are numbered column by column, bottom to top, so walking in an
 * even direction always increases the index (first blocker = lowest set bit
 * of ray & occ) and an odd direction always decreases it (highest set bit). */
static const int8_t DIRS[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}};

static uint64_t RAY[TZ_NPOINTS][6];           /* points beyond p in direction d */
/* RAYX: rays with sentinels for branchless blocker look-up.  Even d:
 * RAY | bit 63, blocker = lsb(RAYX & (occ | bit 63)), 63 when none.  Odd d:
 * (RAY << 1) | 1, blocker = (msb(RAYX & ((occ << 1) | 1)) - 1) & 63, 63 when
 * none.  Point 63 is never occupied and has h = 0. */
static uint64_t RAYX[TZ_NPOINTS][6];
static int16_t  SVAL[16][32];                 /* value of one stack: visible count, height */
static uint64_t ZOB[TZ_NPOINTS][6][32];       /* (point, top code, min(height,31)) */
static uint64_t ZSIDE;                        /* xored when Black is to act */
static uint64_t ZPHASE[3];
static int8_t   PX[TZ_NPOINTS], PY[TZ_NPOINTS];

#define BIT(i) (1ULL << (i))
#define B63 (1ULL << 63)

static inline int lsb64(uint64_t b) { return __builtin_ctzll(b); }
static inline int msb64(uint64_t b) { return 63 - __builtin_clzll(b); }
static inline int pop64(uint64_t b) { return __builtin_popcountll(b); }

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void init_eval_tables(void);

/* Value of having n visible stacks of one type: cumulative sum of a steeply
 * decreasing marginal value (the last stacks of a type are worth most). */
static const int16_t MARG[16] = {0, 400, 200, 133, 100, 80, 67, 57, 50, 44, 40, 36, 33, 31, 29, 27};
static const int16_t TYPEVAL[16] = {0, 400, 600, 733, 833, 913, 980, 1037, 1087,
                                    1131, 1171, 1207, 1240, 1271, 1300, 1327};
/* Height as capture power, diminishing returns (bonus over a single piece). */
static const int16_t HB[32] = {0, 0, 30, 50, 62, 70, 75, 78, 80, 81, 82, 82, 82, 82, 82, 82,
                               82, 82, 82, 82, 82, 82, 82, 82, 82, 82, 82, 82, 82, 82, 82, 82};
/* Scarcity multiplier (/16) for height bonuses by visible count of the type. */
static const int8_t SC2[16] = {32, 32, 26, 22, 19, 17, 16, 15, 14, 13, 12, 11, 11, 10, 10, 10};

static int point_at(int x, int y)
{
    int i = 0;
    for (int cx = -4; cx <= 4; cx++) {
        int lo = cx < 0 ? -4 - cx : -4;
        int hi = cx > 0 ? 4 - cx : 4;
        if (lo < -4) lo = -4;
        for (int cy = lo; cy <= hi; cy++) {
            if (cx == 0 && cy == 0) continue;
            if (cx == x && cy == y) return i;
            i++;
        }
    }
    return -1;
}

void tz_global_init(void)
{
    int i = 0;
    for (int x = -4; x <= 4; x++) {
        int lo = x < 0 ? -4 - x : -4;
        int hi = x > 0 ? 4 - x : 4;
        if (lo < -4) lo = -4;
        for (int y = lo; y <= hi; y++) {
            if (x == 0 && y == 0) continue;
            PX[i] = (int8_t)x;
            PY[i] = (int8_t)y;
            i++;
        }
    }
    for (int p = 0; p < TZ_NPOINTS; p++)
        for (int d = 0; d < 6; d++) {
            uint64_t m = 0;
            int x = PX[p] + DIRS[d][0], y = PY[p] + DIRS[d][1];
            int q;
            while ((q = point_at(x, y)) >= 0) {
                m |= BIT(q);
                x += DIRS[d][0];
                y += DIRS[d][1];
            }
            RAY[p][d] = m;
            RAYX[p][d] = (d & 1) ? (m << 1) | 1 : m | B63;
        }
    uint64_t s = 0x54A5A12016ULL;   /* fixed seed: reproducible keys */
    for (int p = 0; p < TZ_NPOINTS; p++)
        for (int c = 0; c < 6; c++)
            for (int h = 0; h < 32; h++)
                ZOB[p][c][h] = splitmix(&s);
    ZSIDE = splitmix(&s);
    for (int k = 0; k < 3; k++) ZPHASE[k] = splitmix(&s);
    init_eval_tables();
}

static inline uint64_t zkey(int p, int code, int h)
{
    return ZOB[p][code][h > 31 ? 31 : h];
}

/* ------------------------------------------------------------------ */
/* Rules core                                                          */
/* ------------------------------------------------------------------ */

#define BLK_E(R, d) lsb64((R)[d] & oe)
#define BLK_O(R, d) ((msb64((R)[d] & oo) - 1) & 63)

int tz_has_capture(const TzPos *p, int c)
{
    const uint64_t occ = p->occ, en = p->col[c ^ 1];
    const uint64_t oe = occ | B63, oo = (occ << 1) | 1;
    const uint8_t *h = p->h;
    for (uint64_t b = p->col[c]; b; b &= b - 1) {
        const int f = lsb64(b), hf = h[f];
        const uint64_t *R = RAYX[f];
        const int t0 = BLK_E(R, 0), t1 = BLK_O(R, 1), t2 = BLK_E(R, 2);
        const int t3 = BLK_O(R, 3), t4 = BLK_E(R, 4), t5 = BLK_O(R, 5);
        uint64_t hit = ((en >> t0) & (h[t0] <= hf)) | ((en >> t1) & (h[t1] <= hf)) |
                       ((en >> t2) & (h[t2] <= hf)) | ((en >> t3) & (h[t3] <= hf)) |
                       ((en >> t4) & (h[t4] <= hf)) | ((en >> t5) & (h[t5] <= hf));
        if (hit & 1) return 1;
    }
    return 0;
}

uint64_t tz_hash_full(const TzPos *p)
{
    uint64_t k = 0;
    for (uint64_t b = p->occ; b; b &= b - 1) {
        int i = lsb64(b);
        k ^= zkey(i, p->code[i], p->h[i]);
    }
    if (p->side) k ^= ZSIDE;
    k ^= ZPHASE[p->phase];
    return k;
}

static void set_over(TzPos *p, int winner)
{
    p->over = 1;
    p->result = (int8_t)(winner == 0 ? 1 : -1);
}

void tz_init(TzPos *p, const uint8_t *height, const uint8_t *top,
             const uint8_t *extra, int side, int phase)
{
    (void)extra;
    memset(p, 0, sizeof *p);
    for (int i = 0; i < TZ_NPOINTS; i++) {
        if (!height[i]) continue;
        int c = top[i] % 6;
        p->h[i] = height[i];
        p->code[i] = (uint8_t)c;
        p->occ |= BIT(i);
        p->col[c / 3] |= BIT(i);
        p->tops[c] |= BIT(i);
        p->cnt[c]++;
        if (height[i] >= 2) p->tallm |= BIT(i);
        p->hsum[c] = (int16_t)(p->hsum[c] + HB[height[i] > 31 ? 31 : height[i]]);
    }
    p->side = (uint8_t)(side & 1);
    p->phase = (uint8_t)(phase < 0 || phase > 2 ? 1 : phase);
    p->hash = tz_hash_full(p);
    /* finished already? a side lacking a visible type loses (if both do,
     * which play cannot reach, the side to act is taken to lose). */
    int lack[2];
    for (int c = 0; c < 2; c++)
        lack[c] = !p->cnt[3 * c] || !p->cnt[3 * c + 1] || !p->cnt[3 * c + 2];
    if (lack[p->side]) set_over(p, p->side ^ 1);
    else if (lack[p->side ^ 1]) set_over(p, p->side);
    else if (p->phase != 2 && !tz_has_capture(p, p->side)) set_over(p, p->side ^ 1);
}

/* all six blockers of stack f, branchless */
#define BLOCKERS6(f)                                                              \
    const uint64_t *R = RAYX[f];                                                  \
    const int t0 = BLK_E(R, 0), t1 = BLK_O(R, 1), t2 = BLK_E(R, 2);               \
    const int t3 = BLK_O(R, 3), t4 = BLK_E(R, 4), t5 = BLK_O(R, 5)

int tz_gen(const TzPos *p, uint32_t *mv)
{
    if (p->over) return 0;
    const int s = p->side;
    const uint64_t occ = p->occ, en = p->col[s ^ 1], own = p->col[s];
    const uint64_t oe = occ | B63, oo = (occ << 1) | 1;
    const uint8_t *h = p->h;
    int n = 0;
    /* every slot is written, the count advances only for a real action */
#define CAP(t) do { mv[n] = (uint32_t)(f | (t) << 6); n += (int)((en >> (t)) & 1) & (h[t] <= hf); } while (0)
#define STK(t) do { mv[n] = (uint32_t)(f | (t) << 6 | TZ_KIND_STACK << 12); n += (int)((own >> (t)) & 1); } while (0)
    if (p->phase == 2) {
        for (uint64_t b = own; b; b &= b - 1) {
            const int f = lsb64(b), hf = h[f];
            BLOCKERS6(f);
            CAP(t0); STK(t0); CAP(t1); STK(t1); CAP(t2); STK(t2);
            CAP(t3); STK(t3); CAP(t4); STK(t4); CAP(t5); STK(t5);
        }
        mv[n++] = TZ_MOVE_PASS;
    } else {
        for (uint64_t b = own; b; b &= b - 1) {
            const int f = lsb64(b), hf = h[f];
            BLOCKERS6(f);
            CAP(t0); CAP(t1); CAP(t2); CAP(t3); CAP(t4); CAP(t5);
        }
    }
#undef CAP
#undef STK
    return n;
}

int tz_count_actions(const TzPos *p)
{
    if (p->over) return 0;
    const int s = p->side;
    const uint64_t occ = p->occ, en = p->col[s ^ 1];
    const uint64_t oe = occ | B63, oo = (occ << 1) | 1;
    const uint64_t own = p->phase == 2 ? p->col[s] : 0;
    const uint8_t *h = p->h;
    int n = 0;
#define CNT(t) (n += (int)((en >> (t)) & 1) & (h[t] <= hf), n += (int)((own >> (t)) & 1))
    for (uint64_t b = p->col[s]; b; b &= b - 1) {
        const int f = lsb64(b), hf = h[f];
        BLOCKERS6(f);
        CNT(t0); CNT(t1); CNT(t2); CNT(t3); CNT(t4); CNT(t5);
    }
#undef CNT
    return n + (p->phase == 2);
}

int tz_is_legal(const TzPos *p, uint32_t move)
{
    uint32_t mv[TZ_MAX_MOVES];
    int n = tz_gen(p, mv);
    for (int i = 0; i < n; i++)
        if (mv[i] == move) return 1;
    return 0;
}

/* hand the turn to the other side; the receiver without a capture loses */
static inline void handover(TzPos *p)
{
    int s = p->side;
    p->hash ^= ZSIDE ^ ZPHASE[p->phase] ^ ZPHASE[1];
    p->side = (uint8_t)(s ^ 1);
    p->phase = 1;
    if (!tz_has_capture(p, s ^ 1)) set_over(p, s);
}

void tz_play(TzPos *p, uint32_t m)
{
    const int kind = (int)(m >> 12);
    const int s = p->side;
    if (kind != TZ_KIND_PASS) {
        const int f = (int)(m & 63), t = (int)((m >> 6) & 63);
        const int cf = p->code[f], hf = p->h[f];
        const int ct = p->code[t], ht = p->h[t];
        const uint64_t bf = BIT(f), bt = BIT(t);
        int nh = kind == TZ_KIND_CAPTURE ? hf : hf + ht;
        p->hash ^= zkey(f, cf, hf) ^ zkey(t, ct, ht) ^ zkey(t, cf, nh);
        p->occ &= ~bf;
        p->col[s] = (p->col[s] & ~bf) | bt;
        p->col[s ^ 1] &= ~bt;
        p->tops[ct] &= ~bt;
        p->tops[cf] = (p->tops[cf] & ~bf) | bt;
        p->h[f] = 0;
        p->h[t] = (uint8_t)nh;
        p->code[t] = (uint8_t)cf;
        p->tallm = (p->tallm & ~(bf | bt)) | (nh >= 2 ? bt : 0);
        p->hsum[ct] = (int16_t)(p->hsum[ct] - HB[ht > 31 ? 31 : ht]);
        p->hsum[cf] = (int16_t)(p->hsum[cf] + HB[nh > 31 ? 31 : nh] - HB[hf > 31 ? 31 : hf]);
        if (--p->cnt[ct] == 0) {
            /* a capture removes the enemy's last visible type: mover wins;
             * a stacking buries the mover's own last visible type: mover loses */
            set_over(p, kind == TZ_KIND_CAPTURE ? s : s ^ 1);
            return;
        }
    }
    if (p->phase == 1) {
        p->hash ^= ZPHASE[1] ^ ZPHASE[2];
        p->phase = 2;
    } else {
        handover(p);
    }
}

int tz_side(const TzPos *p) { return p->side; }

int tz_over(const TzPos *p, int *score_white)
{
    if (!p->over) return 0;
    if (score_white) *score_white = p->result;
    return 1;
}

uint64_t tz_hash(const TzPos *p) { return p->hash; }

/* ------------------------------------------------------------------ */
/* Perft over whole turns                                              */
/* ------------------------------------------------------------------ */

static uint64_t perft_rec(const TzPos *p, int depth)
{
    if (depth == 0) return 1;
    if (p->over) return 0;
    uint32_t mv[TZ_MAX_MOVES];
    int n = tz_gen(p, mv);
    uint64_t total = 0;
    if (p->phase != 1) {
        /* phase 0 (opening turn) or 2 (rest of the current turn): one action */
        if (depth == 1) return (uint64_t)n;
        for (int i = 0; i < n; i++) {
            TzPos q = *p;
            tz_play(&q, mv[i]);
            total += perft_rec(&q, depth - 1);
        }
        return total;
    }
    for (int i = 0; i < n; i++) {
        TzPos q = *p;
        tz_play(&q, mv[i]);
        if (q.over) {               /* the first capture ended the game */
            total += depth == 1;
            continue;
        }
        if (depth == 1) {
            total += (uint64_t)tz_count_actions(&q);
            continue;
        }
        uint32_t mv2[TZ_MAX_MOVES];
        int n2 = tz_gen(&q, mv2);
        for (int j = 0; j < n2; j++) {
            TzPos r = q;
            tz_play(&r, mv2[j]);
            total += perft_rec(&r, depth - 1);
        }
    }
    return total;
}

uint64_t tz_perft(const TzPos *p, int depth)
{
    return perft_rec(p, depth);
}

/* ------------------------------------------------------------------ */
/* Evaluation                                                          */
/* ------------------------------------------------------------------ */

/* Value of having k captures available (handover rule: 0 loses). */
static int capval(int k)
{
    static const int16_t low[7] = {-600, -250, -120, -60, -30, -12, 0};
    if (k < 7) return low[k];
    if (k > 40) k = 40;
    return 3 * (k - 6);
}

static inline int cl15(int n) { return n > 15 ? 15 : n; }
static inline int clh(int h) { return h > 31 ? 31 : h; }

static void init_eval_tables(void)
{
    for (int n = 0; n < 16; n++)
        for (int h = 0; h < 32; h++)
            SVAL[n][h] = (int16_t)(MARG[n] + HB[h] * SC2[n] / 16);
}

/* tallest stack among the stacks of mask m (0 if none) */
static inline int max_height(const TzPos *p, uint64_t m)
{
    if (!m) return 0;
    uint64_t tm = m & p->tallm;
    if (!tm) return 1;
    int best = 2;
    for (; tm; tm &= tm - 1) {
        int hh = p->h[lsb64(tm)];
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

/* capture / stacking relations between mutually first-met stacks, each pair
 * seen once from its lower-index end (even directions).  Branchless: t = 63
 * (never occupied, h 0, no colour) when the ray is empty. */
#define PAIRS(OWN, ENM, ATT_OWN, ATT_ENM, NC_OWN, NC_ENM, NS_OWN)              \
    for (uint64_t b = OWN; b; b &= b - 1) {                                      \
        const int s = lsb64(b), hs = h[s];                                       \
        const uint64_t *R = RAYX[s];                                             \
        for (int d = 0; d < 6; d += 2) {                                         \
            const int t = lsb64(R[d] & oe), ht = h[t];                           \
            const int en = (int)((ENM >> t) & 1);                                \
            const int capS = en & (hs >= ht), capT = en & (ht >= hs);            \
            ATT_OWN |= (uint64_t)capS << t;                                      \
            ATT_ENM |= (uint64_t)capT << s;                                      \
            NC_OWN += capS;                                                      \
            NC_ENM += capT;                                                      \
            NS_OWN += (int)((OWN >> t) & 1);                                     \
        }                                                                        \
    }

int tz_eval(const TzPos *p)
{
    const int S = p->side, O = S ^ 1;
    if (p->over) return (p->result > 0) == (S == 0) ? TZ_WIN_EVAL : -TZ_WIN_EVAL;

    const uint64_t oe = p->occ | B63, c0 = p->col[0], c1 = p->col[1];
    const uint8_t *h = p->h;
    uint64_t a0 = 0, a1 = 0;    /* enemy stacks that White / Black can capture now */
    int nc0 = 0, nc1 = 0;       /* number of capture actions */
    int ns0 = 0, ns1 = 0;       /* number of own-own pairs (stacking actions / 2) */
    PAIRS(c0, c1, a0, a1, nc0, nc1, ns0)
    PAIRS(c1, c0, a1, a0, nc1, nc0, ns1)
    const uint64_t att[2] = {a0, a1};
    const int ncap[2] = {nc0, nc1};
    const int nstk[2] = {2 * ns0, 2 * ns1};

    /* immediate, certain wins for the side to act */
    if (p->phase == 2 && ncap[O] == 0) return TZ_WIN_EVAL;    /* pass hands over a dead turn */
    for (int t = 0; t < 3; t++) {
        int c = 3 * O + t;
        if (p->cnt[c] == 1 && (att[S] & p->tops[c])) return TZ_WIN_EVAL;
    }

    int tall[6];
    for (int k = 0; k < 6; k++) tall[k] = max_height(p, p->tops[k]);
    int maxh[2];
    maxh[0] = tall[0] > tall[1] ? tall[0] : tall[1];
    maxh[0] = tall[2] > maxh[0] ? tall[2] : maxh[0];
    maxh[1] = tall[3] > tall[4] ? tall[3] : tall[4];
    maxh[1] = tall[5] > maxh[1] ? tall[5] : maxh[1];

    int score[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        int e = c ^ 1;
        int safe = 0;
        for (int t = 0; t < 3; t++) {
            int k = 3 * c + t, n = p->cnt[k];
            score[c] += TYPEVAL[cl15(n)] + p->hsum[k] * SC2[cl15(n)] / 16;
            /* a stack taller than every enemy stack cannot be captured */
            if (tall[k] > maxh[e]) { safe++; score[c] += 120 + 60 / n; }
            else score[c] += 8 * (tall[k] - maxh[e]);
        }
        if (safe == 3) score[c] += 1200;
        score[c] += capval(ncap[c]) + nstk[c];
    }

    /* threats.  S acts now: it has one capture left (phase 0/2) or two
     * (phase 1) before O answers with a full turn of two actions. */
    const int two = p->phase == 1;
    int bonus = 0;
    for (int t = 0; t < 3; t++) {
        /* S against O's types */
        int k = 3 * O + t, n = p->cnt[k];
        if (n <= 3 && !(p->tops[k] & ~att[S])) {          /* all of them attacked */
            if (n == 2) bonus += two ? 20000 : 1500;
            else if (n == 3) bonus += two ? 1500 : 400;
        }
        /* O against S's types (S may still parry) */
        k = 3 * S + t; n = p->cnt[k];
        if (n <= 3) {
            uint64_t a = p->tops[k] & att[O];
            if (a == p->tops[k]) {
                if (n == 1) bonus -= two ? 1500 : 3000;
                else if (n == 2) bonus -= two ? 800 : 1500;
                else bonus -= 400;
            } else if (a) {
                bonus -= 100 * pop64(a);
            }
        }
    }
    /* best capture targets both ways: S takes its best now, O its best next turn */
    bonus += best_value(p, att[S], O) / 2 - best_value(p, att[O], S) / 4;
    bonus += two ? 60 : 20;   /* tempo */

    int v = score[S] - score[O] + bonus;
    if (v > 250000) v = 250000;
    if (v < -250000) v = -250000;
    return v;
}

/* ------------------------------------------------------------------ */
/* Move ordering (0..1000, higher first)                               */
/* ------------------------------------------------------------------ */

int tz_move_order(const TzPos *p, uint32_t m)
{
    int kind = (int)(m >> 12);
    if (kind == TZ_KIND_PASS) return 5;
    int f = (int)(m & 63), t = (int)((m >> 6) & 63);
    int ct = p->code[t], n = p->cnt[ct], ht = p->h[t];
    if (kind == TZ_KIND_CAPTURE) {
        if (n == 1) return 1000;                       /* wins at once */
        int v = 500 + 15 * (16 - cl15(n)) + 25 * (ht > 6 ? 6 : ht);
        return v > 999 ? 999 : v;
    }
    /* stacking */
    int cf = p->code[f];
    if (n == 1 && ct != cf) return 0;                  /* buries own last visible type */
    int v = 100 + 20 * (ht + p->h[f] > 8 ? 8 : ht + p->h[f]) - 10 * (16 - cl15(n)) / 2;
    return v < 10 ? 10 : v > 400 ? 400 : v;
}

/* ------------------------------------------------------------------ */
/* Fixed opening                                                       */
/* ------------------------------------------------------------------ */

static int point_by_name(const char *s)
{
    int x = s[0] - 'A' - 4;
    int lo = x < 0 ? -4 - x : -4;
    if (lo < -4) lo = -4;
    int y = lo + (s[1] - '1');
    return point_at(x, y);
}

void tz_fixed_opening(uint8_t *height, uint8_t *top)
{
    static const char *const LIST[6] = {
        "C5D3D6E3G4G5",
        "B5C2C6D2D7E2H3H4H5",
        "A5B1B6C1C7D1D5D8E1E4F5I2I3I4I5",
        "C3C4E7F3F6G3",
        "B2B3B4E8F2F7G2G6H2",
        "A1A2A3A4D4E6E9F1F4F8G1G7H1H6I1",
    };
    memset(height, 0, TZ_NPOINTS);
    memset(top, 0, TZ_NPOINTS);
    for (int c = 0; c < 6; c++)
        for (const char *s = LIST[c]; *s; s += 2) {
            int i = point_by_name(s);
            height[i] = 1;
            top[i] = (uint8_t)c;
        }
}

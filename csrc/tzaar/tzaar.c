/* TZAAR game module: bitboard representation, action generation, play,
 * game-end detection and the null move (tzaar_perft.c counts whole turns, tzaar_order.c
 * ranks the actions for the search, tzaar_eval.c evaluates).  Contract: csrc/CONTRACT.md.  Rules: shared/rules/tzaar-standard-2016-v1.
 *
 * Design
 * - 60 points = bits 0..59 of a uint64_t (canonical order).  The first stack
 *   met from p in direction d is one bit scan of RAYX[p][d] & occupancy; the
 *   sentinel bits make it branchless (63 = "none": never occupied, h 0).
 * - Points only ever become empty, never occupied again.  So every action
 *   changes the line-of-sight graph locally: the relations of the origin f
 *   and target t are dropped, t's are re-added with its new stack, and f's
 *   two neighbours on each of the other two lines through f now see each
 *   other.  tz_play keeps, incrementally, per point the number of enemy
 *   stacks able to capture it (natt; tz_attacked() turns it into a mask,
 *   with SSE2 where available), and per colour the number of capture
 *   actions (ncap) and of own-own pairs (npair).  The hand-over rule is
 *   then `ncap == 0`, and the evaluation needs no scanning at all.
 * - Also incremental: visible stacks per (colour, type), the per-type sum of
 *   a height-bonus table, the mask of stacks of height >= 2, Zobrist keys
 *   over (point, top code, min(height, 31)) + side + phase.
 * - The self-test tests/csrc/tzaar_selftest.c checks all of it against a plain
 *   coordinate-walking reference implementation along random games.
 */
#include "tzaar.h"
#include "tzaar_geom.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ------------------------------------------------------------------ */
/* Geometry                                                            */
/* ------------------------------------------------------------------ */

/* Directions as engine/hexgrid.py TZAAR_DIRECTIONS:
 * 0 (+1,0)  1 (-1,0)  2 (0,+1)  3 (0,-1)  4 (+1,-1)  5 (-1,+1).
 * Points are numbered column by column, bottom to top, so walking in an
 * even direction always increases the index (first blocker = lowest set bit
 * of ray & occ) and an odd direction always decreases it (highest set bit). */
static const int8_t DIRS[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}};

/* RAYX: the points beyond p in direction d (rays stop at the edge and at
 * the hole), with sentinels for branchless blocker look-up.  Even d:
 * RAY | bit 63, blocker = lsb(RAYX & (occ | bit 63)), 63 when none.  Odd d:
 * (RAY << 1) | 1, blocker = (msb(RAYX & ((occ << 1) | 1)) - 1) & 63, 63 when
 * none.  Point 63 is never occupied and has h = 0. */
static uint64_t RAYX[TZ_POINTS][6];
static uint64_t ZOB[TZ_POINTS][6][32];       /* (point, top code, min(height,31)) */
static uint64_t ZSIDE;                        /* xored when Black is to act */
static uint64_t ZPHASE[3];
static int8_t   PX[TZ_POINTS], PY[TZ_POINTS];

#define BIT(i) (1ULL << (i))
#define B63 (1ULL << 63)

static inline int msb64(uint64_t b) { return 63 - __builtin_clzll(b); }

/* The key sequence of common.h's splitmix64 over a counter. */
static uint64_t next_key(uint64_t *s)
{
    uint64_t key = splitmix64(*s);
    *s += 0x9E3779B97F4A7C15ULL;
    return key;
}

/* Height as capture power, diminishing returns (bonus over a single piece); kept
 * per type in hsum for the evaluation (tzaar_eval.c). */
const int16_t TZ_HEIGHT_BONUS[32] = {0, 0, 40, 55, 63, 68, 71, 73, 75, 76, 77, 78, 78, 78, 78, 78,
                                     78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78};
#define HB TZ_HEIGHT_BONUS
uint64_t TZ_RING[5];

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
            int r = x < 0 ? -x : x, ay = y < 0 ? -y : y, axy = x + y < 0 ? -(x + y) : x + y;
            r = ay > r ? ay : r;
            r = axy > r ? axy : r;
            TZ_RING[r] |= BIT(i);
            i++;
        }
    }
    for (int p = 0; p < TZ_POINTS; p++)
        for (int d = 0; d < 6; d++) {
            uint64_t m = 0;
            int x = PX[p] + DIRS[d][0], y = PY[p] + DIRS[d][1];
            int q;
            while ((q = point_at(x, y)) >= 0) {
                m |= BIT(q);
                x += DIRS[d][0];
                y += DIRS[d][1];
            }
            RAYX[p][d] = (d & 1) ? (m << 1) | 1 : m | B63;
        }
    uint64_t s = 0x54A5A12016ULL;   /* fixed seed: reproducible keys */
    for (int p = 0; p < TZ_POINTS; p++)
        for (int c = 0; c < 6; c++)
            for (int h = 0; h < 32; h++)
                ZOB[p][c][h] = next_key(&s);
    ZSIDE = next_key(&s);
    for (int k = 0; k < 3; k++) ZPHASE[k] = next_key(&s);
}

static inline uint64_t zkey(int p, int code, int h)
{
    return ZOB[p][code][h > 31 ? 31 : h];
}

/* ------------------------------------------------------------------ */
/* Rules core                                                          */
/* ------------------------------------------------------------------ */

#define BLK_E(R, d) ctz64((R)[d] & oe)
#define BLK_O(R, d) ((msb64((R)[d] & oo) - 1) & 63)

/* Line-of-sight relations between mutually first-met stacks a and b, added
 * (sgn +1) or removed (sgn -1) with the current heights and colours. */
/* Working copy of the line-of-sight data during one update: kept in locals
 * (registers) because stores to the byte array natt may alias anything. */
typedef struct { uint64_t col1; int cap0, cap1, pair0, pair1; } PairDelta;

static inline void pair_begin(const TzPos *p, PairDelta *dl)
{
    dl->col1 = p->col[1];
    dl->cap0 = dl->cap1 = dl->pair0 = dl->pair1 = 0;
}

/* branchless: counters of both colours accumulate in the PairDelta,
 * per-point attacker counts are written with a zero step where nothing applies */
static inline void pair_upd(TzPos *p, PairDelta *dl, int a, int b, int sgn)
{
    const int ca = (int)((dl->col1 >> a) & 1), cb = (int)((dl->col1 >> b) & 1);
    const int ha = p->h[a], hb = p->h[b];
    const int diff = ca ^ cb;
    const int ab = sgn * (diff & (ha >= hb)), ba = sgn * (diff & (hb >= ha));
    const int same = sgn * !diff;
    dl->cap0 += ca ? ba : ab;
    dl->cap1 += ca ? ab : ba;
    dl->pair0 += ca ? 0 : same;
    dl->pair1 += ca ? same : 0;
    p->natt[b] = (uint8_t)(p->natt[b] + ab);
    p->natt[a] = (uint8_t)(p->natt[a] + ba);
}

static inline void pair_commit(TzPos *p, const PairDelta *dl)
{
    p->ncap[0] = (int16_t)(p->ncap[0] + dl->cap0);
    p->ncap[1] = (int16_t)(p->ncap[1] + dl->cap1);
    p->npair[0] = (int16_t)(p->npair[0] + dl->pair0);
    p->npair[1] = (int16_t)(p->npair[1] + dl->pair1);
}

/* stacks that some enemy stack can capture now: the points with natt != 0 */
uint64_t tz_attacked(const TzPos *p)
{
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
    uint64_t zero = 0;
    for (int i = 0; i < 4; i++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p->natt + 16 * i));
        zero |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, z)) << (16 * i);
    }
    return ~zero & (BIT(60) - 1);
#else
    uint64_t m = 0;
    for (int i = 0; i < TZ_POINTS; i++) m |= (uint64_t)(p->natt[i] != 0) << i;
    return m;
#endif
}

/* all pair data from scratch */
static void pairs_full(TzPos *p)
{
    const uint64_t oe = p->occ | B63;
    p->ncap[0] = p->ncap[1] = 0;
    p->npair[0] = p->npair[1] = 0;
    memset(p->natt, 0, sizeof p->natt);
    PairDelta dl;
    pair_begin(p, &dl);
    for (uint64_t b = p->occ; b; b &= b - 1) {
        const int s = ctz64(b);
        for (int d = 0; d < 6; d += 2) {
            const int t = BLK_E(RAYX[s], d);
            pair_upd(p, &dl, s, t, t != 63);
        }
    }
    pair_commit(p, &dl);
}

int tz_has_capture(const TzPos *p, int c)
{
    const uint64_t occ = p->occ, en = p->col[c ^ 1];
    const uint64_t oe = occ | B63, oo = (occ << 1) | 1;
    const uint8_t *h = p->h;
    for (uint64_t b = p->col[c]; b; b &= b - 1) {
        const int f = ctz64(b), hf = h[f];
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
        int i = ctz64(b);
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
    for (int i = 0; i < TZ_POINTS; i++) {
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
    pairs_full(p);
    /* finished already? a side lacking a visible type loses (if both do,
     * which play cannot reach, the side NOT to act loses, as engine/tzaar.py). */
    int lack[2];
    for (int c = 0; c < 2; c++)
        lack[c] = !p->cnt[3 * c] || !p->cnt[3 * c + 1] || !p->cnt[3 * c + 2];
    if (lack[p->side ^ 1]) set_over(p, p->side);
    else if (lack[p->side]) set_over(p, p->side ^ 1);
    else if (p->phase != 2 && !p->ncap[p->side]) set_over(p, p->side ^ 1);
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
#define CAP(t) do { mv[n] = MAKE_MOVE(f, t, TZ_KIND_CAPTURE); n += (int)((en >> (t)) & 1) & (h[t] <= hf); } while (0)
#define STK(t) do { mv[n] = MAKE_MOVE(f, t, TZ_KIND_STACK); n += (int)((own >> (t)) & 1); } while (0)
    if (p->phase == 2) {
        for (uint64_t b = own; b; b &= b - 1) {
            const int f = ctz64(b), hf = h[f];
            BLOCKERS6(f);
            CAP(t0); STK(t0); CAP(t1); STK(t1); CAP(t2); STK(t2);
            CAP(t3); STK(t3); CAP(t4); STK(t4); CAP(t5); STK(t5);
        }
        mv[n++] = MOVE_PASS;
    } else {
        for (uint64_t b = own; b; b &= b - 1) {
            const int f = ctz64(b), hf = h[f];
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
        const int f = ctz64(b), hf = h[f];
        BLOCKERS6(f);
        CNT(t0); CNT(t1); CNT(t2); CNT(t3); CNT(t4); CNT(t5);
    }
#undef CNT
    return n + (p->phase == 2);
}

/* hand the turn to the other side; the receiver without a capture loses */
static inline void handover(TzPos *p)
{
    int s = p->side;
    p->hash ^= ZSIDE ^ ZPHASE[p->phase] ^ ZPHASE[1];
    p->side = (uint8_t)(s ^ 1);
    p->phase = 1;
    if (!p->ncap[s ^ 1]) set_over(p, s);
}

void tz_play(TzPos *p, uint32_t m)
{
    const int kind = MOVE_KIND(m);
    const int s = p->side;
    if (kind != TZ_KIND_PASS) {
        const int f = MOVE_FROM(m), t = MOVE_TO(m);
        const int cf = p->code[f], hf = p->h[f];
        const int ct = p->code[t], ht = p->h[t];
        const uint64_t bf = BIT(f), bt = BIT(t);
        int nh = kind == TZ_KIND_CAPTURE ? hf : hf + ht;

        /* 1. drop every relation touching f or t (old occupancy).  t is f's
         * blocker in some direction dt, f is t's blocker in direction dt ^ 1. */
        const uint64_t oe = p->occ | B63, oo = (p->occ << 1) | 1;
        PairDelta dl;
        pair_begin(p, &dl);
        int bfl[6], btl[6], dt = 0;
        {
            BLOCKERS6(f);
            bfl[0] = t0; bfl[1] = t1; bfl[2] = t2; bfl[3] = t3; bfl[4] = t4; bfl[5] = t5;
        }
        {
            BLOCKERS6(t);
            btl[0] = t0; btl[1] = t1; btl[2] = t2; btl[3] = t3; btl[4] = t4; btl[5] = t5;
        }
        for (int d = 0; d < 6; d++) {
            dt = bfl[d] == t ? d : dt;
            pair_upd(p, &dl, f, bfl[d], -(bfl[d] != 63));
        }
        for (int d = 0; d < 6; d++)
            pair_upd(p, &dl, t, btl[d], -(btl[d] != 63 && d != (dt ^ 1)));
        /* t's blockers once f is gone: beyond f on the line of the move */
        btl[dt ^ 1] = bfl[dt ^ 1];

        /* 2. the board change */
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

        /* 3. relations of t (new occupancy) and those bridging the emptied f
         * on the two other lines through f */
        dl.col1 = p->col[1];
        for (int d = 0; d < 6; d++)
            pair_upd(p, &dl, t, btl[d], btl[d] != 63);
        for (int d = 0; d < 6; d += 2) {
            const int a = bfl[d], b = bfl[d + 1];
            pair_upd(p, &dl, a, b, a != 63 && b != 63 && (d >> 1) != (dt >> 1));
        }
        pair_commit(p, &dl);

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

/* stacks of colour c able to capture some stack of mask m */
uint64_t tz_attackers(const TzPos *p, uint64_t m, int c)
{
    const uint64_t oe = p->occ | B63, oo = (p->occ << 1) | 1, own = p->col[c];
    uint64_t a = 0;
    for (; m; m &= m - 1) {
        const int x = ctz64(m), hx = p->h[x];
        BLOCKERS6(x);
        const int tl[6] = {t0, t1, t2, t3, t4, t5};
        for (int d = 0; d < 6; d++)
            a |= ((own >> tl[d]) & (uint64_t)(p->h[tl[d]] >= hx)) << tl[d];
    }
    return a & (BIT(60) - 1);
}

/* A whole turn passed, imagined only at a turn's start (the second action can pass for real)
 * and only when the receiver can capture (else it would lose at once: no bound to learn). */
int tz_null_move(const TzPos *p, TzPos *out)
{
    if (p->over || p->phase != 1 || !p->ncap[p->side ^ 1]) return 0;
    *out = *p;
    out->side ^= 1;
    out->hash ^= ZSIDE;
    return 1;
}

/* Standalone self-test for the TZAAR module (not part of the package build); the fixed
 * layout comes from engine/games/tzaar/openings.py (its only copy), as 60 letters in point order:
 *   export TZAAR_FIXED_LAYOUT=$(python3 -c 'from engine.games.tzaar.openings import fixed_opening; print("".join(fixed_opening()))')
 *   gcc -O2 -Wall -Wextra -std=c11 -fsanitize=address,undefined -Icsrc/core -Icsrc/tzaar csrc/tzaar/tzaar.c csrc/tzaar/tzaar_eval.c tests/csrc/tzaar_selftest.c -o /tmp/tzt && /tmp/tzt
 *   gcc -O3 -Wall -Wextra -std=c11 -Icsrc/core -Icsrc/tzaar csrc/tzaar/tzaar.c csrc/tzaar/tzaar_eval.c tests/csrc/tzaar_selftest.c -o /tmp/tzt3 && /tmp/tzt3 bench
 * Modes: (none) = all tests; "rays" = dump ray tables; "bench" = tests + perft(2)/(3) timing;
 *        "pos SIDE PHASE h0,t0 h1,t1 ... (60)" = perft(1), perft(2) of a given position.
 */
#define _POSIX_C_SOURCE 199309L
#include "tzaar.h"
#include "tzaar_eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fixed layout from TZAAR_FIXED_LAYOUT: 60 letters a b c A B C in canonical point order. */
static void fixed_opening(uint8_t *height, uint8_t *top)
{
    static const char CODES[] = "abcABC";
    const char *layout = getenv("TZAAR_FIXED_LAYOUT");
    if (!layout || strlen(layout) != 60) {
        fprintf(stderr, "set TZAAR_FIXED_LAYOUT to the fixed layout's 60 letters (see the top of this file)\n");
        exit(2);
    }
    for (int i = 0; i < 60; i++) {
        const char *c = strchr(CODES, layout[i]);
        if (!c || !*c) { fprintf(stderr, "TZAAR_FIXED_LAYOUT: bad letter %c\n", layout[i]); exit(2); }
        height[i] = 1;
        top[i] = (uint8_t)(c - CODES);
    }
}
#include <time.h>

static int fails = 0;
#define CHECK(c, ...) do { if (!(c)) { fails++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } } while (0)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t lcg_state = 12345;
static uint32_t lcg(void)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg_state >> 33);
}

/* ---------- independent reference implementation (coordinates, no bitboards) ---------- */
static int NX[60], NY[60];
static int grid_index(int x, int y)
{
    for (int i = 0; i < 60; i++) if (NX[i] == x && NY[i] == y) return i;
    return -1;
}
static void ref_geometry(void)
{
    int i = 0;
    for (int x = -4; x <= 4; x++) {
        int lo = -4 - x > -4 ? -4 - x : -4, hi = 4 - x < 4 ? 4 - x : 4;
        for (int y = lo; y <= hi; y++) {
            if (!x && !y) continue;
            NX[i] = x; NY[i] = y; i++;
        }
    }
}
static const int RD[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}};

typedef struct { int h[60], c[60], side, phase, over, result; } Ref;

static int ref_first(const Ref *r, int f, int d)
{
    int x = NX[f], y = NY[f];
    for (;;) {
        x += RD[d][0]; y += RD[d][1];
        int q = grid_index(x, y);
        if (q < 0) return -1;
        if (r->h[q]) return q;
    }
}
static int ref_has_capture(const Ref *r, int side)
{
    for (int f = 0; f < 60; f++) {
        if (!r->h[f] || r->c[f] / 3 != side) continue;
        for (int d = 0; d < 6; d++) {
            int t = ref_first(r, f, d);
            if (t >= 0 && r->c[t] / 3 != side && r->h[t] <= r->h[f]) return 1;
        }
    }
    return 0;
}
static int ref_gen(const Ref *r, uint32_t *mv)
{
    if (r->over) return 0;
    int n = 0;
    for (int f = 0; f < 60; f++) {
        if (!r->h[f] || r->c[f] / 3 != r->side) continue;
        for (int d = 0; d < 6; d++) {
            int t = ref_first(r, f, d);
            if (t < 0) continue;
            if (r->c[t] / 3 != r->side) {
                if (r->h[t] <= r->h[f]) mv[n++] = (uint32_t)(f | t << 6);
            } else if (r->phase == 2) {
                mv[n++] = (uint32_t)(f | t << 6 | 1 << 12);
            }
        }
    }
    if (r->phase == 2) mv[n++] = MOVE_PASS;
    return n;
}
static int ref_count(const Ref *r, int code)
{
    int n = 0;
    for (int i = 0; i < 60; i++) n += r->h[i] && r->c[i] == code;
    return n;
}
static void ref_play(Ref *r, uint32_t m)
{
    int kind = (int)(m >> 12), s = r->side;
    if (kind != 2) {
        int f = m & 63, t = (m >> 6) & 63;
        r->h[t] = kind == 0 ? r->h[f] : r->h[f] + r->h[t];
        r->c[t] = r->c[f];
        r->h[f] = 0;
        for (int c = 0; c < 2; c++)
            for (int k = 0; k < 3; k++)
                if (!ref_count(r, 3 * c + k)) { r->over = 1; r->result = c == 0 ? -1 : 1; return; }
    }
    if (r->phase == 1) { r->phase = 2; return; }
    r->side ^= 1; r->phase = 1;
    if (!ref_has_capture(r, r->side)) { r->over = 1; r->result = s == 0 ? 1 : -1; }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void check_consistency(const TzPos *p, const Ref *r, const char *where)
{
    CHECK(p->hash == tz_hash_full(p), "%s: incremental hash", where);
    CHECK(p->over == r->over, "%s: over %d vs ref %d", where, p->over, r->over);
    if (p->over && r->over) CHECK(p->result == r->result, "%s: result", where);
    if (p->over) return;
    CHECK(p->side == r->side && p->phase == r->phase, "%s: side/phase", where);
    uint64_t occ = 0, col[2] = {0, 0}, tops[6] = {0}, tallm = 0;
    int cnt[6] = {0}, hsum[6] = {0};
    static const int HBX[32] = {0, 0, 40, 55, 63, 68, 71, 73, 75, 76, 77, 78, 78, 78, 78, 78,
                                78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78, 78}; /* = HB in tzaar.c */
    for (int i = 0; i < 60; i++) {
        CHECK(p->h[i] == r->h[i], "%s: height at %d", where, i);
        if (!r->h[i]) continue;
        CHECK(p->code[i] == r->c[i], "%s: code at %d", where, i);
        occ |= 1ULL << i; col[r->c[i] / 3] |= 1ULL << i; tops[r->c[i]] |= 1ULL << i; cnt[r->c[i]]++;
        if (r->h[i] >= 2) tallm |= 1ULL << i;
        hsum[r->c[i]] += HBX[r->h[i] > 31 ? 31 : r->h[i]];
    }
    CHECK(tallm == p->tallm, "%s: tall mask", where);
    {   /* incremental line-of-sight data == recomputed from scratch */
        uint8_t hh[60], cc[60];
        for (int i = 0; i < 60; i++) { hh[i] = (uint8_t)r->h[i]; cc[i] = (uint8_t)r->c[i]; }
        TzPos q;
        tz_init(&q, hh, cc, NULL, r->side, r->phase);
        CHECK(tz_attacked(&q) == tz_attacked(p), "%s: attacked mask", where);
        CHECK(!memcmp(q.natt, p->natt, sizeof q.natt), "%s: natt", where);
        CHECK(q.ncap[0] == p->ncap[0] && q.ncap[1] == p->ncap[1], "%s: ncap", where);
        CHECK(q.npair[0] == p->npair[0] && q.npair[1] == p->npair[1], "%s: npair", where);
        CHECK((p->ncap[0] > 0) == tz_has_capture(p, 0) && (p->ncap[1] > 0) == tz_has_capture(p, 1),
              "%s: ncap vs has_capture", where);
        CHECK(q.hash == p->hash, "%s: hash vs fresh init", where);
    }
    for (int k = 0; k < 6; k++) CHECK(hsum[k] == p->hsum[k], "%s: hsum %d", where, k);
    CHECK(occ == p->occ && col[0] == p->col[0] && col[1] == p->col[1], "%s: masks", where);
    for (int k = 0; k < 6; k++)
        CHECK(tops[k] == p->tops[k] && cnt[k] == p->cnt[k], "%s: tops/cnt %d", where, k);
    uint32_t a[TZ_MAX_MOVES], b[TZ_MAX_MOVES];
    int na = tz_gen(p, a), nb = ref_gen(r, b);
    CHECK(na == nb, "%s: gen count %d vs ref %d", where, na, nb);
    CHECK(na == tz_count_actions(p), "%s: count_actions", where);
    if (na == nb) {
        qsort(a, na, 4, cmp_u32); qsort(b, nb, 4, cmp_u32);
        CHECK(!memcmp(a, b, 4 * (size_t)na), "%s: move sets differ", where);
    }
    int e = tz_eval(p);
    CHECK(e >= -500000 && e <= 500000, "%s: eval range %d", where, e);
    for (int i = 0; i < na; i++) {
        int o = tz_move_order(p, a[i]);
        CHECK(o >= 0 && o <= 1000, "%s: order range", where);
    }
}

static void ref_from(Ref *r, const uint8_t *h, const uint8_t *t, int side, int phase)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < 60; i++) { r->h[i] = h[i]; r->c[i] = h[i] ? t[i] : 0; }
    r->side = side; r->phase = phase;
}

/* random full games, bitboard engine and reference in lock step */
static void random_games(int ngames, uint64_t *actions_out, int *white_wins)
{
    uint8_t h[60], t[60];
    uint64_t actions = 0;
    int ww = 0;
    for (int g = 0; g < ngames; g++) {
        fixed_opening(h, t);
        if (g & 1) {   /* a random opening: shuffle the 60 pieces */
            for (int i = 59; i > 0; i--) {
                int j = (int)(lcg() % (uint32_t)(i + 1));
                uint8_t x = t[i]; t[i] = t[j]; t[j] = x;
            }
        }
        TzPos p;
        Ref r;
        tz_init(&p, h, t, NULL, 0, 0);
        ref_from(&r, h, t, 0, 0);
        char where[64];
        for (int ply = 0;; ply++) {
            snprintf(where, sizeof where, "game %d ply %d", g, ply);
            check_consistency(&p, &r, where);
            uint32_t mv[TZ_MAX_MOVES];
            int n = tz_gen(&p, mv);
            if (!n) break;
            uint32_t m;
            /* mostly random; sometimes the best-ordered action, to reach odd endings */
            if (lcg() % 4 == 0) {
                int best = -1;
                m = mv[0];
                for (int i = 0; i < n; i++) {
                    int o = tz_move_order(&p, mv[i]);
                    if (o > best) { best = o; m = mv[i]; }
                }
            } else {
                m = mv[lcg() % (uint32_t)n];
            }
            tz_play(&p, m);
            ref_play(&r, m);
            actions++;
        }
        int sw = 0;
        CHECK(tz_over(&p, &sw) == 1, "game %d not over", g);
        ww += sw > 0;
    }
    *actions_out = actions;
    *white_wins = ww;
}

static void dump_rays(void)
{
    /* print rays as lists of points, to compare with engine/hexgrid.py */
    Ref dummy;
    (void)dummy;
    for (int p = 0; p < 60; p++) {
        for (int d = 0; d < 6; d++) {
            int x = NX[p], y = NY[p];
            printf(d ? " |" : "");
            for (;;) {
                x += RD[d][0]; y += RD[d][1];
                int q = grid_index(x, y);
                if (q < 0) break;
                printf(" %d", q);
            }
        }
        printf("\n");
    }
}

/* pos SIDE PHASE then 60 tokens "h,code" (h 0 = empty) [DEPTH]: the actions and perft counts. */
static int pos_command(int argc, char **argv)
{
    if (argc < 64) { fprintf(stderr, "need 60 points\n"); return 2; }
    uint8_t h[60], t[60];
    for (int i = 0; i < 60; i++) {
        int hh = 0, cc = 0;
        sscanf(argv[4 + i], "%d,%d", &hh, &cc);
        h[i] = (uint8_t)hh; t[i] = (uint8_t)cc;
    }
    TzPos p;
    tz_init(&p, h, t, NULL, atoi(argv[2]), atoi(argv[3]));
    int depth = argc > 64 ? atoi(argv[64]) : 2;
    printf("actions %d", tz_count_actions(&p));
    for (int d = 1; d <= depth; d++) printf(" perft%d %llu", d, (unsigned long long)tz_perft(&p, d));
    printf("\n");
    return 0;
}

/* lines: DEPTH SIDE PHASE h0,c0 ... h59,c59 -> "perft1 ... perftDEPTH over result" */
static int stdin_command(void)
{
    int depth, side, phase;
    while (scanf("%d %d %d", &depth, &side, &phase) == 3) {
        uint8_t h[60], t[60];
        for (int i = 0; i < 60; i++) {
            int hh = 0, cc = 0;
            if (scanf(" %d,%d", &hh, &cc) != 2) return 2;
            h[i] = (uint8_t)hh; t[i] = (uint8_t)cc;
        }
        TzPos p;
        tz_init(&p, h, t, NULL, side, phase);
        for (int d = 1; d <= depth; d++) printf("%llu ", (unsigned long long)tz_perft(&p, d));
        int sw = 0;
        int ov = tz_over(&p, &sw);
        printf("%d %d\n", ov, ov ? sw : 0);
        fflush(stdout);
    }
    return 0;
}

/* The fixed opening's stock and perft counts; *p is the opening after. */
static void check_fixed_opening(const uint8_t *h, const uint8_t *t, TzPos *p)
{
    int counts[6] = {0};
    for (int i = 0; i < 60; i++) counts[t[i]] += h[i];
    CHECK(counts[0] == 6 && counts[1] == 9 && counts[2] == 15 && counts[3] == 6 && counts[4] == 9 && counts[5] == 15,
          "fixed opening stock");
    tz_init(p, h, t, NULL, 0, 0);
    CHECK(!p->over, "fixed opening over");
    uint64_t p1 = tz_perft(p, 1);
    printf("fixed opening: White opening captures perft(1) = %llu\n", (unsigned long long)p1);
    CHECK(p1 == 42, "perft(1) = %llu, expected 42", (unsigned long long)p1);

    /* Black's replies to each of White's 42 opening captures */
    uint32_t mv[TZ_MAX_MOVES];
    int n = tz_gen(p, mv);
    uint64_t lo = ~0ULL, hi = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        TzPos q = *p;
        tz_play(&q, mv[i]);
        uint64_t c = tz_perft(&q, 1);
        if (c < lo) lo = c;
        if (c > hi) hi = c;
        sum += c;
    }
    printf("Black first-turn replies: min %llu max %llu (Waltz: 5667-6356), sum %llu\n",
           (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)sum);
    double t0 = now();
    uint64_t p2 = tz_perft(p, 2);
    double t1 = now();
    printf("fixed opening perft(2) = %llu  (%.3f s)\n", (unsigned long long)p2, t1 - t0);
    CHECK(p2 == sum, "perft(2) != sum of replies");
}

/* A hand-made position: handover, self-burying stack, first capture ends game. */
static void check_hand_position(void)
{
    uint8_t hh[60] = {0}, tt[60] = {0};
    /* White: Tzaar A1 (h1), Tzarra A2, Tott A3; Black: Tzaar B2.., Tzarra, Tott */
    hh[0] = 1; tt[0] = 0;   /* A1 W Tzaar */
    hh[1] = 1; tt[1] = 1;   /* A2 W Tzarra */
    hh[2] = 1; tt[2] = 2;   /* A3 W Tott */
    hh[3] = 2; tt[3] = 2;   /* A4 W Tott h2 */
    hh[59] = 1; tt[59] = 3; /* I5 B Tzaar */
    hh[58] = 1; tt[58] = 4; /* I4 B Tzarra */
    hh[57] = 1; tt[57] = 5; /* I3 B Tott */
    hh[4] = 1; tt[4] = 5;   /* A5 B Tott, capturable by A4 (h2) */
    TzPos q;
    tz_init(&q, hh, tt, NULL, 0, 1);
    CHECK(!q.over, "hand pos over");
    /* White: only capture A4xA5. Then second action: stack A4 onto A3? etc. */
    uint32_t mv[TZ_MAX_MOVES];
    int n = tz_gen(&q, mv);
    CHECK(n == 1 && mv[0] == (3u | 4u << 6), "hand pos captures n=%d", n);
    tz_play(&q, mv[0]);
    CHECK(!q.over && q.phase == 2, "after first capture");
    n = tz_gen(&q, mv);
    /* stacks: A1->A2, A2->A1, A2->A3, A3->A2, A3->A4? A5 now holds W Tott h2 (A4 empty):
       A3->A5 (up through empty A4), A5->A3; plus pass */
    int nstack = 0, npass = 0, burying = 0;
    for (int i = 0; i < n; i++) {
        if (mv[i] == MOVE_PASS) npass++;
        else if ((mv[i] >> 12) == 1) {
            nstack++;
            TzPos r = q;
            tz_play(&r, mv[i]);
            int sw = 0;
            if (tz_over(&r, &sw) && sw < 0) burying++;
        }
    }
    CHECK(nstack == 6 && npass == 1 && n == 7, "second actions n=%d stacks=%d", n, nstack);
    printf("hand position: %d self-burying stackings of %d (expected 3: A1->A2, A2->A1, A3->A2; A2->A3 leaves the Tott on A5)\n",
           burying, nstack);
    CHECK(burying == 3, "self-burying count");
    /* pass: Black to act, has no capture (all isolated far away)? Black I-stacks
       face nothing capturable -> White wins at handover */
    TzPos r = q;
    tz_play(&r, MOVE_PASS);
    int sw = 0;
    CHECK(tz_over(&r, &sw) && sw == 1, "handover without capture should give White the win");
}

/* Actions per second over 200 random games from the fixed opening (40 plies each): every
 * action of each position played (and, with `evaluate`, evaluated and ordered). */
static void time_actions(const uint8_t *h, const uint8_t *t, int evaluate, long long *checksum)
{
    uint32_t mv[TZ_MAX_MOVES];
    uint64_t nodes = 0;
    double t0 = now();
    for (int rep = 0; rep < 200; rep++) {
        TzPos g;
        tz_init(&g, h, t, NULL, 0, 0);
        for (int ply = 0; ply < 40 && !g.over; ply++) {
            int k = tz_gen(&g, mv);
            for (int i = 0; i < k; i++) {
                TzPos c = g;
                tz_play(&c, mv[i]);
                *checksum += evaluate ? tz_eval(&c) + tz_move_order(&g, mv[i]) : (long long)(c.hash & 1);
                nodes++;
            }
            tz_play(&g, mv[lcg() % (uint32_t)k]);
        }
    }
    double t1 = now();
    printf("%s: %.2f M actions/s (checksum %lld)\n", evaluate ? "gen+play+eval+order" : "gen+play only",
           nodes / (t1 - t0) / 1e6, *checksum);
}

static void bench_opening(const TzPos *p, const uint8_t *h, const uint8_t *t)
{
    double t0 = now();
    uint64_t p3 = tz_perft(p, 3);
    double t1 = now();
    printf("fixed opening perft(3) = %llu  (%.2f s, %.1f M turns/s)\n",
           (unsigned long long)p3, t1 - t0, p3 / (t1 - t0) / 1e6);
    long long checksum = 0;
    time_actions(h, t, 1, &checksum);
    time_actions(h, t, 0, &checksum);
}

int main(int argc, char **argv)
{
    tz_global_init();
    tz_eval_init();
    ref_geometry();
    if (argc > 1 && !strcmp(argv[1], "rays")) { dump_rays(); return 0; }
    if (argc > 1 && !strcmp(argv[1], "pos")) return pos_command(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "stdin")) return stdin_command();
    int bench = argc > 1 && !strcmp(argv[1], "bench");

    uint8_t h[60], t[60];
    fixed_opening(h, t);
    TzPos p;
    check_fixed_opening(h, t, &p);

    /* random games vs the reference */
    uint64_t acts;
    int ww;
    int ng = bench ? 400 : 100;
    double t0 = now();
    random_games(ng, &acts, &ww);
    double t1 = now();
    printf("%d random games vs reference: %llu actions, White won %d (%.2f s)\n", ng,
           (unsigned long long)acts, ww, t1 - t0);

    check_hand_position();
    if (bench) bench_opening(&p, h, t);

    printf(fails ? "%d FAILURES\n" : "all tests passed\n", fails);
    return fails != 0;
}

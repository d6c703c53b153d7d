/* DVONN: bitboard position, move generation, Zobrist hash, evaluation, perft. */
#include "dvonn.h"
#include "dvonn_geom.h"

#include <string.h>

/* Geometry tables shared with dvonn_eval.c (declared in dvonn_geom.h). */
uint64_t VALID, INNER, NCOL0, NCOL10;
int8_t BIT2IDX[64];
int8_t IDX2BIT[DV_POINTS];
uint8_t DIST[DV_BITS][DV_BITS];
uint64_t LAND[DV_BITS][12];
uint64_t NBR[DV_BITS];
uint8_t LAND_CELLS[DV_BITS][12][8];
static uint8_t RING_RUNS[64];          /* runs of set bits in a 6-bit cyclic neighbour pattern */
/* The six neighbour offsets in cyclic order (E, NE, N, W, SW, S): consecutive ones are adjacent. */
static const int RING[6] = {1, 12, 11, -1, -12, -11};
static uint8_t RING_NB[DV_BITS][6];    /* those neighbours' bits; 63 (never occupied) if off board */

static const int DIRS[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}};

static int on_board(int c, int r)
{
    if (r < 0 || r > 4) return 0;
    int lo = r - 2 > 0 ? r - 2 : 0, hi = r + 8 < 10 ? r + 8 : 10;
    return c >= lo && c <= hi;
}

static int hex_dist(int c1, int r1, int c2, int r2)
{
    int dx = c1 - c2, dy = r1 - r2;
    int ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
    if ((dx >= 0) == (dy >= 0)) return ax > ay ? ax : ay; /* same sign: diagonal (1,1) helps */
    return ax + ay;
}

static inline uint64_t cell_key_of(int b, int h, int top, int red)
{
    return splitmix64((uint64_t)b | (uint64_t)h << 6 | (uint64_t)top << 13 |
                      (uint64_t)red << 15 | 0xD7000000ull);
}

/* cell_key_of looked up for stacks of up to all 49 pieces (dv_play's three keys a move were
 * a good part of its time); taller ones only come from bad input and are computed. */
#define ZKEY_HEIGHTS 50
static uint64_t ZKEY[3][2][DV_BITS][ZKEY_HEIGHTS];

static inline uint64_t cell_key(int b, int h, int top, int red)
{
    return h < ZKEY_HEIGHTS ? ZKEY[top][red][b][h] : cell_key_of(b, h, top, red);
}

void dv_global_init(void)
{
    int idx = 0;
    memset(BIT2IDX, -1, sizeof BIT2IDX);
    VALID = INNER = 0;
    uint64_t col0 = 0, col10 = 0;
    for (int r = 0; r < 5; r++) {
        col0 |= 1ull << (r * 11);
        col10 |= 1ull << (r * 11 + 10);
        for (int c = 0; c < 11; c++) {
            if (!on_board(c, r)) continue;
            int b = r * 11 + c;
            VALID |= 1ull << b;
            BIT2IDX[b] = (int8_t)idx;
            IDX2BIT[idx++] = (int8_t)b;
        }
    }
    NCOL0 = ~col0;
    NCOL10 = ~col10;
    for (int b = 0; b < DV_BITS; b++)
        for (int i = 0; i < 6; i++) {
            int c = b % 11, r = b / 11, nb = b + RING[i];
            int nc = c + (RING[i] == 1 || RING[i] == 12 ? 1 : RING[i] == -1 || RING[i] == -12 ? -1 : 0);
            int nr = r + (RING[i] >= 11 ? 1 : RING[i] <= -11 ? -1 : 0);
            RING_NB[b][i] = (uint8_t)(on_board(c, r) && on_board(nc, nr) ? nb : 63);
        }
    for (int m = 0; m < 64; m++) {
        int runs = 0;
        for (int i = 0; i < 6; i++) runs += (m >> i & 1) && !(m >> ((i + 5) % 6) & 1);
        RING_RUNS[m] = (uint8_t)(m == 63 ? 1 : runs);
    }
    for (int b = 0; b < DV_BITS; b++) {
        int c = b % 11, r = b / 11;
        NBR[b] = 0;
        for (int h = 0; h <= 11; h++) LAND[b][h] = 0;
        if (!on_board(c, r)) continue;
        int n = 0;
        for (int d = 0; d < 6; d++) {
            if (on_board(c + DIRS[d][0], r + DIRS[d][1])) {
                n++;
                NBR[b] |= 1ull << ((r + DIRS[d][1]) * 11 + c + DIRS[d][0]);
            }
            for (int h = 1; h <= 10; h++) {
                int cc = c + h * DIRS[d][0], rr = r + h * DIRS[d][1];
                if (on_board(cc, rr)) LAND[b][h] |= 1ull << (rr * 11 + cc);
            }
        }
        if (n == 6) INNER |= 1ull << b;
        for (int b2 = 0; b2 < DV_BITS; b2++)
            DIST[b][b2] = (uint8_t)hex_dist(c, r, b2 % 11, b2 / 11);
    }
    for (int b = 0; b < DV_BITS; b++)
        for (int h = 0; h <= 11; h++) {
            int k = 0;
            for (uint64_t t = h <= 10 ? LAND[b][h] : 0; t; t &= t - 1) LAND_CELLS[b][h][k++] = (uint8_t)ctz64(t);
            while (k < 8) LAND_CELLS[b][h][k++] = 63;
        }
    for (int top = 0; top < 3; top++)
        for (int red = 0; red < 2; red++)
            for (int b = 0; b < DV_BITS; b++)
                for (int h = 0; h < ZKEY_HEIGHTS; h++) ZKEY[top][red][b][h] = cell_key_of(b, h, top, red);
}

/* Which of the six neighbours of b (cyclic order) are in occ. */
static inline int ring_mask(uint64_t occ, int b)
{
    const uint8_t *nb = RING_NB[b];
    return (int)((occ >> nb[0] & 1) | (occ >> nb[1] & 1) << 1 | (occ >> nb[2] & 1) << 2 |
                 (occ >> nb[3] & 1) << 3 | (occ >> nb[4] & 1) << 4 | (occ >> nb[5] & 1) << 5);
}

#define KEY_SIDE DV_KEY_SIDE
#define KEY_PHASE 0x0123FACEB00C4321ull

static inline int top_of(const DvPos *p, uint64_t bit)
{
    return (p->col[0] & bit) ? 0 : (p->col[1] & bit) ? 1 : 2;
}

static inline uint64_t key_at(const DvPos *p, int b)
{
    uint64_t bit = 1ull << b;
    return cell_key(b, p->height[b], top_of(p, bit), (p->red & bit) != 0);
}

void dv_init(DvPos *p, const uint8_t *height, const uint8_t *top,
             const uint8_t *extra, int side, int phase)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < DV_POINTS; i++) {
        int b = IDX2BIT[i];
        if (!height[i]) continue;
        uint64_t bit = 1ull << b;
        p->occ |= bit;
        p->height[b] = height[i];
        if (top[i] < 2) p->col[top[i]] |= bit;
        if (extra && extra[i]) p->red |= bit;
        else if (top[i] == 2) p->red |= bit; /* a red top is a red piece */
    }
    p->phase = phase ? 1 : 0;
    p->placed = (uint8_t)popcount64(p->occ);
    /* In placement the mover follows from the count (placement k by White iff k even). */
    p->side = p->phase ? (uint8_t)(side & 1) : (uint8_t)(p->placed & 1);
    uint64_t h = 0;
    for (uint64_t o = p->occ; o; o &= o - 1) h ^= key_at(p, ctz64(o));
    if (p->side) h ^= KEY_SIDE;
    if (p->phase) h ^= KEY_PHASE;
    p->hash = h;
    dv_net_enter(p);
}

/* The stack on b in or out of the network's first layer; stuck: the surrounded stacks. */
static inline void net_stack(DvPos *p, int b, uint64_t stuck, int sign)
{
    uint64_t bit = 1ull << b;
    dv_net_update(p->acc, BIT2IDX[b], top_of(p, bit), p->height[b], (p->red & bit) != 0,
                  (stuck & bit) != 0, sign);
}

static void net_refresh(DvPos *p)
{
    memcpy(p->acc[0], dv_net.b1, sizeof p->acc[0]);
    memcpy(p->acc[1], dv_net.b1, sizeof p->acc[1]);
    uint64_t stuck = surrounded(p->occ);
    for (uint64_t o = p->occ; o; o &= o - 1) net_stack(p, ctz64(o), stuck, 1);
}

/* After a move: the stacks that stayed put but became free to move (or stuck) change feature. */
static void net_restuck(DvPos *p, uint64_t stuck_before, uint64_t skip)
{
    uint64_t stuck = surrounded(p->occ);
    for (uint64_t ch = (stuck ^ stuck_before) & p->occ & ~skip; ch; ch &= ch - 1) {
        int b = ctz64(ch);
        net_stack(p, b, stuck_before, -1);
        net_stack(p, b, stuck, 1);
    }
}

void dv_net_enter(DvPos *p)
{
    p->acc_ok = p->phase && dv_net_on && popcount64(p->occ) <= dv_net.max_stacks;
    if (p->acc_ok) net_refresh(p);
}

uint64_t dv_net_check(const DvPos *p, int depth)
{
    DvPos fresh = *p;
    dv_net_enter(&fresh);
    uint64_t bad = fresh.acc_ok != p->acc_ok || (p->acc_ok && memcmp(fresh.acc, p->acc, sizeof p->acc) != 0);
    if (depth <= 0) return bad;
    uint32_t moves[DV_MAX_MOVES];
    int n = dv_gen(p, moves);
    for (int i = 0; i < n; i++) {
        DvPos c = *p;
        dv_play(&c, moves[i]);
        bad += dv_net_check(&c, depth - 1);
    }
    return bad;
}

int dv_side(const DvPos *p) { return p->side; }
uint64_t dv_hash(const DvPos *p) { return p->hash; }

/* Stack moves of side s; writes them if moves != NULL, returns the count. */
static int gen_stack_moves(const DvPos *p, int s, uint32_t *moves)
{
    uint64_t mobile = p->col[s] & ~surrounded(p->occ);
    int n = 0;
    for (; mobile; mobile &= mobile - 1) {
        int b = ctz64(mobile);
        int h = p->height[b];
        if (h > 10) continue;
        if (!moves) { n += popcount64(LAND[b][h] & p->occ); continue; }
        /* all six slots written, the occupied ones kept (in bit order, as a loop over the
         * set bits would give): no branch on how many there are.  One slot past the last
         * move may be written: at most 6 x 49 = 294 moves, DV_MAX_MOVES leaves room. */
        const uint8_t *lc = LAND_CELLS[b][h];
        uint32_t from = (uint32_t)BIT2IDX[b];
        for (int i = 0; i < 6; i++) {
            moves[n] = DV_MOVE(from, (uint32_t)(uint8_t)BIT2IDX[lc[i]]);
            n += (int)(p->occ >> lc[i] & 1);
        }
    }
    return n;
}

static int has_stack_move(const DvPos *p, int s)
{
    uint64_t mobile = p->col[s] & ~surrounded(p->occ);
    for (; mobile; mobile &= mobile - 1) {
        int b = ctz64(mobile);
        int h = p->height[b];
        if (h <= 10 && (LAND[b][h] & p->occ)) return 1;
    }
    return 0;
}

int dv_gen(const DvPos *p, uint32_t *moves)
{
    if (p->phase == 0) {
        int n = 0;
        for (uint64_t e = VALID & ~p->occ; e; e &= e - 1) moves[n++] = DV_PLACE(BIT2IDX[ctz64(e)]);
        return n;
    }
    int n = gen_stack_moves(p, p->side, moves);
    if (n == 0 && has_stack_move(p, p->side ^ 1)) {
        moves[0] = MOVE_PASS;
        n = 1;
    }
    return n;
}

int dv_over(const DvPos *p, int *score_white)
{
    if (p->phase == 0 || has_stack_move(p, p->side) || has_stack_move(p, p->side ^ 1)) return 0;
    int sc[2] = {0, 0};
    for (int s = 0; s < 2; s++)
        for (uint64_t o = p->col[s]; o; o &= o - 1) sc[s] += p->height[ctz64(o)];
    if (score_white) *score_white = sc[0] - sc[1];
    return 1;
}

void dv_play(DvPos *p, uint32_t move)
{
    int kind = MOVE_KIND(move);
    if (kind == DV_KIND_PLACE) {
        int b = IDX2BIT[MOVE_TO(move)];
        uint64_t bit = 1ull << b;
        int k = p->placed;
        p->occ |= bit;
        p->height[b] = 1;
        if (k < 3) p->red |= bit;
        else p->col[k & 1] |= bit;
        p->hash ^= key_at(p, b);
        p->placed = (uint8_t)(k + 1);
        if (k + 1 == DV_POINTS) {
            /* White places the last piece and also makes the first stack move. */
            p->phase = 1;
            p->hash ^= KEY_PHASE;
            dv_net_enter(p);
        } else {
            p->side ^= 1;
            p->hash ^= KEY_SIDE;
        }
        return;
    }
    if (kind == DV_KIND_MOVE) {
        int f = IDX2BIT[MOVE_FROM(move)], t = IDX2BIT[MOVE_TO(move)];
        uint64_t fb = 1ull << f, tb = 1ull << t;
        int s = top_of(p, fb), red_moved = (p->red & fb) != 0;
        int net = p->acc_ok;
        uint64_t stuck0 = net ? surrounded(p->occ) : 0;
        if (net) net_stack(p, f, stuck0, -1), net_stack(p, t, stuck0, -1);
        p->hash ^= key_at(p, f) ^ key_at(p, t);
        p->height[t] = (uint8_t)(p->height[t] + p->height[f]);
        p->height[f] = 0;
        p->col[0] &= ~tb;
        p->col[1] &= ~tb;
        p->col[s] |= tb;
        if (p->red & fb) p->red |= tb;
        p->occ &= ~fb;
        p->col[s] &= ~fb;
        p->red &= ~fb;
        p->hash ^= key_at(p, t);
        /* Emptying f can only disconnect something if its occupied neighbours do not form
         * one contiguous arc (or if the red moved away from f). */
        int cut = red_moved;
        if (!cut) {
            cut = RING_RUNS[ring_mask(p->occ, f)] > 1;
        }
        /* Remove everything no longer linked to a red-holding stack. */
        uint64_t reach = p->occ, prev = p->occ;
        if (cut) {
            reach = p->red & p->occ;
            prev = 0;
        }
        while (reach != prev) {
            prev = reach;
            reach = spread_in(reach, p->occ);
        }
        for (uint64_t gone = p->occ & ~reach; gone; gone &= gone - 1) {
            int b = ctz64(gone);
            p->hash ^= key_at(p, b);
            if (net && b != t) net_stack(p, b, stuck0, -1);  /* t's new stack was never added */
            p->height[b] = 0;
        }
        p->occ = reach;
        p->col[0] &= reach;
        p->col[1] &= reach;
        p->red &= reach;
        if (net) {
            if (p->occ & tb) net_stack(p, t, surrounded(p->occ), 1);
            net_restuck(p, stuck0, tb);
        } else if (dv_net_on) {
            dv_net_enter(p);  /* few enough stacks left now? */
        }
    }
    /* stack move or pass: the turn passes */
    p->side ^= 1;
    p->hash ^= KEY_SIDE;
}

uint64_t dv_perft(const DvPos *p, int depth)
{
    if (depth == 0) return 1;
    uint32_t moves[DV_MAX_MOVES];
    int n = dv_gen(p, moves);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        DvPos c = *p;
        dv_play(&c, moves[i]);
        total += dv_perft(&c, depth - 1);
    }
    return total;
}

/* Perft that looks at *stop between subtrees small enough to count in well under a
 * millisecond. */
uint64_t dv_perft_stoppable(const DvPos *p, int depth, const int32_t *stop, int *stopped)
{
    if (depth <= 2) return dv_perft(p, depth);
    if (*stopped || (*stopped = __atomic_load_n(stop, __ATOMIC_RELAXED) != 0)) return 0;
    uint32_t moves[DV_MAX_MOVES];
    int n = dv_gen(p, moves);
    uint64_t total = 0;
    for (int i = 0; i < n && !*stopped; i++) {
        DvPos c = *p;
        dv_play(&c, moves[i]);
        total += dv_perft_stoppable(&c, depth - 1, stop, stopped);
    }
    return total;
}

int dv_null_move(const DvPos *p, DvPos *out)
{
    if (p->phase != 1) return 0;  /* placements alternate by count: no pass to imagine */
    dv_copy(out, p);
    out->side ^= 1;
    out->hash ^= KEY_SIDE;
    return 1;
}

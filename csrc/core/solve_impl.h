/* Generic exact solver (see solve.h), instantiated by game_impl.h like the search. */

typedef struct {
    SolveTT *tt;
    const SolveParams *prm;
    int64_t deadline_ns;
    uint64_t nodes;
    int aborted;
    uint32_t hist[2][HISTORY_SIZE]; /* cutoffs per (side, HISTORY_KEY(move)): ordering among equal hints */
} S(Solver);

static int S(solve_node)(S(Solver) *sv, const POS *p, int alpha, int beta, uint32_t *bestout)
{
    if ((++sv->nodes & 1023) == 0) {
        const SolveParams *prm = sv->prm;
        if ((sv->deadline_ns && now_ns() >= sv->deadline_ns) ||
            (prm->nodes && sv->nodes >= prm->nodes) ||
            (prm->stop && __atomic_load_n(prm->stop, __ATOMIC_RELAXED)))
            sv->aborted = 1;
    }
    if (sv->aborted) return 0;
    uint32_t moves[MAXMOVES];
    int n = G(gen)(p, moves);
    int side = G(side)(p);
    if (n == 0) {
        int sw = 0;
        if (!G(over)(p, &sw)) sw = 0;
        *bestout = MOVE_NONE;
        return side ? -sw : sw;
    }
    uint64_t key = G(hash)(p);
    SolveSlot *slot = &sv->tt->slots[(key >> 17) & sv->tt->mask];
    uint32_t ttmove = MOVE_NONE;
    if (slot->used && slot->key == key) {
        ttmove = slot->move;
        if (slot->lo >= beta || slot->lo == slot->hi) { *bestout = ttmove; return slot->lo; }
        if (slot->hi <= alpha) { *bestout = ttmove; return slot->hi; }
    }
    int32_t sc[MAXMOVES];
    for (int i = 0; i < n; i++)
        sc[i] = moves[i] == ttmove ? 1 << 30
              : G(move_order)(p, moves[i]) * 1024 + (int32_t)(sv->hist[side][HISTORY_KEY(moves[i])] >> 6);

    int alpha0 = alpha, best = -32000;
    uint32_t bestmove = moves[0];
    for (int i = 0; i < n; i++) {
        uint32_t m = pick_next(moves, sc, i, n);

        POS c = *p;
        G(play)(&c, m);
        uint32_t dummy;
        int v = G(side)(&c) == side ? S(solve_node)(sv, &c, alpha, beta, &dummy)
                                    : -S(solve_node)(sv, &c, -beta, -alpha, &dummy);
        if (sv->aborted) return 0;
        if (v > best) {
            best = v;
            bestmove = m;
            if (v > alpha) alpha = v;
            if (v >= beta) {
                uint32_t *h = &sv->hist[side][HISTORY_KEY(m)];
                *h = *h + 64 < 65535 ? *h + 64 : 65535;
                break;
            }
        }
    }
    /* Merge with what the slot already knows about this position: bounds only narrow.
     * The move kept is the one that proves the kept lower bound (a fail-low proves nothing). */
    int lo = best >= beta ? best : best > alpha0 ? best : -32000;
    int hi = best <= alpha0 ? best : best >= beta ? 32000 : best;
    uint32_t keep = bestmove;
    if (slot->used && slot->key == key) {
        if (slot->lo > lo || (best <= alpha0 && slot->move)) keep = slot->move;
        if (slot->lo > lo) lo = slot->lo;
        if (slot->hi < hi) hi = slot->hi;
    }
    slot->key = key;
    slot->lo = (int16_t)lo;
    slot->hi = (int16_t)hi;
    slot->move = (uint16_t)keep;
    slot->used = 1;
    *bestout = bestmove;
    return best;
}

/* The stored best moves from the root while they stay exact (for the PV). */
static int S(solve_pv)(const SolveTT *tt, const POS *root, uint32_t first, uint32_t *pv)
{
    POS p = *root;
    int len = 0;
    uint32_t m = first;
    while (m != MOVE_NONE && len < SOLVE_MAX_PV) {
        uint32_t moves[MAXMOVES];
        int n = G(gen)(&p, moves), ok = 0;
        for (int i = 0; i < n; i++) ok |= moves[i] == m;
        if (!ok) return 0;
        pv[len++] = m;
        G(play)(&p, m);
        if (G(gen)(&p, moves) == 0) return len;
        uint64_t key = G(hash)(&p);
        const SolveSlot *s = &tt->slots[(key >> 17) & tt->mask];
        m = s->used && s->key == key && s->lo == s->hi ? s->move : MOVE_NONE;
    }
    return 0; /* the table no longer holds the whole line */
}

static int S(solve)(const POS *root, const SolveParams *prm, SolveTT *tt, SolveResult *res)
{
    memset(res, 0, sizeof *res);
    int64_t start = now_ns();
    S(Solver) *sv = calloc(1, sizeof *sv); /* the history table is too big for the stack */
    if (!sv) return -1;
    sv->tt = tt;
    sv->prm = prm;
    sv->deadline_ns = prm->time_ms > 0 ? sat_add_ns(start, ms_to_ns(prm->time_ms)) : 0;
    uint32_t best = MOVE_NONE;
    /* Win, draw or loss first (a null window around 0), then the exact margin. */
    int v = S(solve_node)(sv, root, -1, 1, &best);
    /* Then MTD(f): null windows around the current guess until the bounds meet. */
    if (v != 0) {
        int lo = v > 0 ? v : -32000, hi = v > 0 ? 32000 : v, g = v; /* fail-soft: a bound */
        while (lo < hi && !sv->aborted) {
            int b = g == lo ? g + 1 : g;
            g = S(solve_node)(sv, root, b - 1, b, &best);
            if (g < b) hi = g; else lo = g;
        }
        v = g;
        if (!sv->aborted) v = S(solve_node)(sv, root, v - 1, v + 1, &best);
    }
    int aborted = sv->aborted;
    res->nodes = sv->nodes;
    free(sv);
    res->time_ms = (double)(now_ns() - start) / 1e6;
    if (aborted) return 0;
    res->solved = 1;
    res->value = v;
    res->best = best;
    res->pvlen = S(solve_pv)(tt, root, best, res->pv);
    return 0;
}

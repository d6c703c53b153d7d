/* One node of the search, for game_impl.h's instantiation: fail-soft negamax with principal
 * variation search over a shared transposition table.  In order: the leaf, the hash probe, the
 * pruning before moves (prune.h), the move picker (movepick.h), each move searched (reduced
 * when late: reduce.h; put off while another thread searches it: ABDADA), the statistics of a
 * cut-off (history.h) and the store. */

static inline int S(child)(S(Thread) *t, const POS *c, int same, int a, int b, int d, int ply, int *pr)
{
    return same ? S(node)(t, c, a, b, d, ply, pr) : -S(node)(t, c, -b, -a, d, ply, pr);
}

static inline void S(pv_update)(S(Thread) *t, int ply, uint32_t m)
{
    int n = t->pvlen[ply + 1];
    t->pv[ply][0] = m;
    memcpy(&t->pv[ply][1], &t->pv[ply + 1][0], (size_t)n * sizeof(uint32_t));
    t->pvlen[ply] = n + 1;
}

/* The hash table's entry: its move in *ttmove, and 1 with the value in *v when its bound
 * settles the node (a proven score at any depth; outside the PV, one at least as deep). */
static inline int S(probe)(S(Thread) *t, const S(Node) *nd, uint32_t *ttmove, int *v, int *proven)
{
    TTHit h;
    if (!tt_probe(t->sh->tt, nd->key, &h)) return 0;
    *ttmove = h.move;
    int s = score_from_tt(h.score, nd->ply);
    int usable = h.depth == TT_DEPTH_PROVEN || (h.depth >= nd->depth && !nd->pvnode);
    if (!usable || !(h.flag == TT_EXACT || (h.flag == TT_LOWER && s >= nd->beta) ||
                     (h.flag == TT_UPPER && s <= nd->alpha)))
        return 0;
    *proven = h.depth == TT_DEPTH_PROVEN;
    *v = s;
    return 1;
}

/* One move: the first with the node's window, a later one with a null window, first at a
 * reduced depth if it is late and quiet, searched again as its score demands. */
static inline int S(search_move)(S(Thread) *t, const S(Node) *nd, uint32_t m, int i, int quiet, int cd,
                                 int alpha, uint64_t busy, int *cp)
{
    POS c = *nd->p;
    G(play)(&c, m);
    if (cd > 0) tt_prefetch(t->sh->tt, G(hash)(&c));
    int same = G(side)(&c) == nd->side, ply = nd->ply + 1, v;
    t->played[ply] = m;
    if (busy) S(busy_mark)(t->sh, busy);
    if (i == 0) {
        v = S(child)(t, &c, same, alpha, nd->beta, cd, ply, cp);
    } else {
        int r = late_move_reduction(&t->sh->tu, nd->depth, i, quiet, cd);
        v = S(child)(t, &c, same, alpha, alpha + 1, cd - r, ply, cp);
        if (r && v > alpha && !t->stopped) v = S(child)(t, &c, same, alpha, alpha + 1, cd, ply, cp);
        if (nd->pvnode && v > alpha && v < nd->beta && !t->stopped)
            v = S(child)(t, &c, same, alpha, nd->beta, cd, ply, cp);
    }
    if (busy) S(busy_clear)(t->sh, busy);
    return v;
}

/* The node's result into the table; it is proven when it rests on proven children only. */
static inline int S(store)(S(Thread) *t, const S(Node) *nd, int best, uint32_t bestmove, int bestcp,
                           int nodeproven, int *proven)
{
    int flag = best >= nd->beta ? TT_LOWER : best > nd->alpha ? TT_EXACT : TT_UPPER;
    if (!nodeproven && bestcp && flag == TT_EXACT && best >= SCORE_PROVEN_MIN) {
        /* An exact proven win settles the result; only its margin might still grow. */
        nodeproven = 1;
        flag = TT_LOWER;
    }
    tt_store(t->sh->tt, nd->key, best > nd->alpha ? bestmove : MOVE_NONE, score_to_tt(best, nd->ply),
             nodeproven ? TT_DEPTH_PROVEN : nd->depth, flag);
    *proven = nodeproven;
    return best;
}

/* The node's moves in the picker's order until one cuts off.  With ABDADA, a later move
 * another thread is searching waits for a second pass (deferred[]: the moves' indexes after
 * the first pass); late-move pruning ends the first pass (deferred moves ranked above the
 * pruned ones still get their turn). */
static int S(search_moves)(S(Thread) *t, const S(Node) *nd, uint32_t *moves, int32_t *sc, int n, int *proven)
{
    S(Shared) *sh = t->sh;
    int cd = n == 1 ? nd->depth : nd->depth - 1;  /* a forced reply costs no depth */
    int abdada = sh->busy && nd->depth >= ABDADA_MIN_DEPTH;
    int alpha = nd->alpha, best = -SCORE_INF, allproven = 1, cutproven = -1, bestcp = 0;
    uint32_t bestmove = MOVE_NONE;
    uint16_t deferred[MAXMOVES];
    int ndeferred = 0, first_pass = n;
    for (int k = 0; k < first_pass + ndeferred; k++) {
        int i = k < first_pass ? k : deferred[k - first_pass];
        uint32_t m = k < first_pass ? pick_next(moves, sc, i, n) : moves[i];
        uint64_t busy = abdada ? S(busy_key)(nd->key, m) : 0;
        if (busy && k < first_pass && i > 0 && S(busy_test)(sh, busy)) {
            deferred[ndeferred++] = (uint16_t)i;
            continue;
        }
        int quiet = MOVE_QUIET(sc[i]);
        if (k < first_pass && late_move_pruned(&sh->tu, nd->pvnode, nd->depth, i, quiet, best, -SCORE_PROVEN_MIN)) {
            allproven = 0;
            first_pass = k--;
            continue;
        }
        int cp = 0, v = S(search_move)(t, nd, m, i, quiet, cd, alpha, busy, &cp);
        if (t->stopped) return 0;
        if (!cp) allproven = 0;
        if (v <= best) continue;
        best = v;
        bestmove = m;
        bestcp = cp;
        if (v <= alpha) continue;
        alpha = v;
        S(pv_update)(t, nd->ply, m);
        if (v >= nd->beta) {
            cutproven = cp;  /* the bound rests on this child only */
            history_cutoff(&t->hist, nd->side, nd->ply, nd->depth, m);
            break;
        }
    }
    return S(store)(t, nd, best, bestmove, bestcp, cutproven >= 0 ? cutproven : allproven, proven);
}

static int S(node)(S(Thread) *t, const POS *p, int alpha, int beta, int depth, int ply, int *proven)
{
    t->pvlen[ply] = 0;
    *proven = 0;
    if ((++t->nodes & 1023) == 0) S(poll)(t);
    if (t->stopped) return 0;
    if (ply > t->seldepth) t->seldepth = ply;
    int sw = 0;
    if (depth <= 0 || ply >= MAX_PLY - 1) {
        if (!G(over)(p, &sw)) return S(static_eval)(t, p);
        *proven = 1;
        return search_terminal_score(sw, G(side)(p), ply);
    }
    S(Node) nd = {p, 0, alpha, beta, depth, ply, G(side)(p), (int64_t)beta - alpha > 1};
    /* Work most nodes need comes before the probe, while the bucket the parent prefetched
     * arrives (the probe would wait for it): a node that may prune before its moves evaluates
     * first, any other generates its moves. */
    int prune = S(prunable)(t, &nd);
    uint32_t moves[MAXMOVES];
    int n = prune ? -1 : G(gen)(p, moves);
    int e = 0, evaluated = prune && !G(over)(p, &sw);
    if (evaluated) e = S(static_eval)(t, p);
    nd.key = G(hash)(p);
    uint32_t ttmove = MOVE_NONE;
    int v;
    if (S(probe)(t, &nd, &ttmove, &v, proven)) return v;
    if (evaluated && S(prune_before_moves)(t, &nd, prune, e, &v)) return v;
    if (n < 0) n = G(gen)(p, moves);
    if (n == 0) {
        if (!G(over)(p, &sw)) sw = 0;
        *proven = 1;
        return search_terminal_score(sw, nd.side, ply);
    }
    int32_t sc[MAXMOVES];
    S(score_moves)(&t->hist, p, moves, sc, n, ttmove, ply, nd.side);
    return S(search_moves)(t, &nd, moves, sc, n, proven);
}

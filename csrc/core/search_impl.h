/* Game-independent search, instantiated once per game by game_impl.h (which defines GP, the
 * game prefix token, POS, MAXMOVES and the G() / S() name makers).  Fail-soft negamax PVS +
 * iterative deepening + shared TT; further threads search the same depth, each putting off the
 * moves another thread is searching (ABDADA).  A ply is one action; the score is negated only when the
 * side to act changes (TZAAR's two actions, DVONN's last placement + first
 * move are consecutive plies of one side). */

typedef struct S(Shared) S(Shared);

typedef struct {
    S(Shared) *sh;
    int id;
    int stopped;
    int root_depth;
    int seldepth;
    uint64_t nodes;
    uint64_t reported;  /* nodes already added to sh->node_count */
    POS rootpos;
    int nroot;
    uint32_t root[MAXMOVES];
    uint32_t killers[MAX_PLY][2];
    uint32_t played[MAX_PLY + 1];      /* played[ply]: the move that led to this ply's node */
    uint16_t hist[2][1 << 14];         /* history, 0..65535 (16 bits: half the cache lines) */
    int pvlen[MAX_PLY + 1];
    uint32_t pv[MAX_PLY + 1][MAX_PLY + 1];
    int nlines;
    SearchLine lines[MAX_MULTIPV];  /* this iteration's best candidates, best first */
    pthread_t tid;
    /* Leaf evaluations by position key: the same leaf is often reached again by the same
     * moves in another order.  Per thread, one search long (the weights stay the same). */
    struct { uint64_t key; int32_t eval[2]; } eval_cache[EVAL_CACHE_SIZE];
} S(Thread);

struct S(Shared) {
    TT *tt;
    const SearchParams *prm;
    SearchTuning tu;      /* this search's parameters, clamped to their ranges */
    SearchResult *res;
    int64_t start_ns, deadline_ns;
    int64_t next_report_ns;  /* atomic; when prm->report_ms > 0 */
    int max_depth;
    int multipv;
    int done_depth;       /* deepest completed iteration (written under lock) */
    pthread_mutex_t lock;
    int stop;             /* atomic */
    uint64_t node_count;  /* atomic, all threads, updated every 1024 nodes */
    uint64_t *busy;       /* ABDADA: (position, move) keys being searched; NULL with one thread */
};

/* Simplified ABDADA: a (position, move) pair one thread is searching is marked in a small
 * shared table; another thread reaching it as a later move searches its other moves first. */
#define BUSY_SIZE (1 << 15)
#define ABDADA_MIN_DEPTH 2  /* remaining depth from which moves are put off (docs/strength.md) */

static inline uint64_t S(busy_key)(uint64_t key, uint32_t m)
{
    return splitmix64(key ^ ((uint64_t)m * 0x9E3779B97F4A7C15ull)) | 1;  /* 0 is a free slot */
}

static inline int S(busy_test)(const S(Shared) *sh, uint64_t bk)
{
    return __atomic_load_n(&sh->busy[bk & (BUSY_SIZE - 1)], __ATOMIC_RELAXED) == bk;
}

static inline void S(busy_mark)(S(Shared) *sh, uint64_t bk)
{
    __atomic_store_n(&sh->busy[bk & (BUSY_SIZE - 1)], bk, __ATOMIC_RELAXED);
}

static inline void S(busy_clear)(S(Shared) *sh, uint64_t bk)
{
    uint64_t expected = bk;  /* leave a slot another pair has taken since */
    __atomic_compare_exchange_n(&sh->busy[bk & (BUSY_SIZE - 1)], &expected, 0, 0, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

static void S(report)(S(Thread) *t, SearchResult *res)
{
    S(Shared) *sh = t->sh;
    res->nodes = __atomic_load_n(&sh->node_count, __ATOMIC_RELAXED) + (t->nodes - t->reported);
    res->time_ms = (double)(now_ns() - sh->start_ns) / 1e6;
}

static void S(poll)(S(Thread) *t)
{
    S(Shared) *sh = t->sh;
    __atomic_fetch_add(&sh->node_count, t->nodes - t->reported, __ATOMIC_RELAXED);
    t->reported = t->nodes;
    if (__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) { t->stopped = 1; return; }
    /* Only the main thread applies limits, and never during depth 1: there is always a move. */
    if (t->id != 0 || t->root_depth <= 1) return;
    const SearchParams *prm = sh->prm;
    int stop = (prm->stop && __atomic_load_n(prm->stop, __ATOMIC_RELAXED)) ||
               (sh->deadline_ns && now_ns() >= sh->deadline_ns) ||
               (prm->nodes && __atomic_load_n(&sh->node_count, __ATOMIC_RELAXED) >= prm->nodes);
    if (stop) {
        __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
        t->stopped = 1;
        return;
    }
    if (prm->report_ms > 0 && prm->on_iteration) {
        int64_t now = now_ns();
        if (now >= __atomic_load_n(&sh->next_report_ns, __ATOMIC_RELAXED)) {
            __atomic_store_n(&sh->next_report_ns, sat_add_ns(now, ms_to_ns(prm->report_ms)), __ATOMIC_RELAXED);
            pthread_mutex_lock(&sh->lock);
            if (sh->done_depth > 0) {
                S(report)(t, sh->res);
                prm->on_iteration(prm->userdata, sh->res);
            }
            pthread_mutex_unlock(&sh->lock);
        }
    }
}

static int S(node)(S(Thread) *t, const POS *p, int alpha, int beta, int depth, int ply, int *proven);

/* The evaluation of a position that is not over, bounded, through the thread's cache.  An
 * entry holds the evaluation with either side to act where the game scores both in one pass
 * (its eval_key leaves the side out: DVONN's null move then finds its twin's entry). */
static inline int S(static_eval)(S(Thread) *t, const POS *p)
{
    uint64_t key = G(eval_key)(p);
    unsigned slot = (unsigned)key & (EVAL_CACHE_SIZE - 1);
    if (t->eval_cache[slot].key != key || !key) {  /* key 0 is an empty slot */
        G(eval_pair)(p, t->eval_cache[slot].eval);
        t->eval_cache[slot].key = key;
    }
    int e = t->eval_cache[slot].eval[G(side)(p)];
    return e > SCORE_EVAL_MAX ? SCORE_EVAL_MAX : e < -SCORE_EVAL_MAX ? -SCORE_EVAL_MAX : e;
}

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

static int S(node)(S(Thread) *t, const POS *p, int alpha, int beta, int depth, int ply, int *proven)
{
    t->pvlen[ply] = 0;
    *proven = 0;
    if ((++t->nodes & 1023) == 0) S(poll)(t);
    if (t->stopped) return 0;
    if (ply > t->seldepth) t->seldepth = ply;
    int sw = 0;
    int side = G(side)(p);
    if (depth <= 0 || ply >= MAX_PLY - 1) {
        if (G(over)(p, &sw)) {
            *proven = 1;
            return search_terminal_score(sw, side, ply);
        }
        return S(static_eval)(t, p);
    }

    TT *tt = t->sh->tt;
    int pvnode = (int64_t)beta - alpha > 1;  /* (-SCORE_INF, SCORE_INF) overflows int */
    const SearchTuning *tu = &t->sh->tu;
    int shallow = depth <= tu->search_rfp_depth && tu->search_rfp;
    int nullok = tu->search_nullmove && depth >= 2 && t->played[ply] != MOVE_NULL;
    int pruning = (shallow || nullok) && !pvnode && beta > -SCORE_EVAL_MAX && beta < SCORE_EVAL_MAX;
    /* Work most nodes need comes before the probe, while the bucket the parent prefetched
     * arrives (the probe would wait for it): a node that may prune before its moves evaluates
     * first, any other generates its moves. */
    uint32_t moves[MAXMOVES];
    int n = pruning ? -1 : G(gen)(p, moves);
    int e = 0, evaluated = pruning && !G(over)(p, &sw);
    if (evaluated) e = S(static_eval)(t, p);
    uint64_t key = G(hash)(p);
    uint32_t ttmove = MOVE_NONE;
    TTHit h;
    if (tt_probe(tt, key, &h)) {
        ttmove = h.move;
        int s = score_from_tt(h.score, ply);
        int usable = h.depth == TT_DEPTH_PROVEN || (h.depth >= depth && !pvnode);
        if (usable && (h.flag == TT_EXACT || (h.flag == TT_LOWER && s >= beta) ||
                       (h.flag == TT_UPPER && s <= alpha))) {
            *proven = h.depth == TT_DEPTH_PROVEN;
            return s;
        }
    }

    /* Reverse futility: near the horizon, outside the PV, a static score that beats beta by
     * a margin per remaining ply is trusted without searching (never on proven scores). */
    if (evaluated) {
        if (shallow && e - tu->search_rfp * depth >= beta) return e - tu->search_rfp * depth;
        /* Null move: if passing the turn still holds beta at a reduced depth, a move will too
         * (not twice in a row; only where the game allows a pass to be imagined). */
        POS c;
        if (nullok && e >= beta && G(null_move)(p, &c)) {
            int cp = 0, r = tu->search_nullmove;
            t->played[ply + 1] = MOVE_NULL;
            int v = -S(node)(t, &c, -beta, -beta + 1, depth - 1 - r, ply + 1, &cp);
            if (t->stopped) return 0;
            if (v >= beta && v < SCORE_EVAL_MAX) return v;
        }
    }

    int32_t sc[MAXMOVES];
    if (n < 0) n = G(gen)(p, moves);
    if (n == 0) {
        if (!G(over)(p, &sw)) sw = 0;
        *proven = 1;
        return search_terminal_score(sw, side, ply);
    }
    uint32_t k0 = t->killers[ply][0], k1 = t->killers[ply][1];
    for (int i = 0; i < n; i++) {
        uint32_t m = moves[i];
        if (m == ttmove) { sc[i] = 1 << 30; continue; }
        int hint = G(move_order)(p, m);
        int hs = t->hist[side][m & 0x3FFF] >> 4;
        sc[i] = hint * 4096 + (hs > 4095 ? 4095 : hs);
        if (m == k0) sc[i] += 500 * 4096;
        else if (m == k1) sc[i] += 400 * 4096;
    }

    /* A forced reply costs no depth (passes, single captures). */
    int newdepth = n == 1 ? depth : depth - 1;

    int alpha0 = alpha, best = -SCORE_INF, allproven = 1, cutproven = -1, bestcp = 0;
    uint32_t bestmove = MOVE_NONE;
    /* ABDADA: a later move another thread is searching waits for a second pass (the moves'
     * indexes, in moves[], after the first pass over all of them). */
    S(Shared) *sh = t->sh;
    int abdada = sh->busy && depth >= ABDADA_MIN_DEPTH;
    uint16_t deferred[MAXMOVES];
    int ndeferred = 0, first_pass = n;
    for (int k = 0; k < first_pass + ndeferred; k++) {
        int i = k;
        uint32_t m;
        uint64_t bk = 0;
        if (k < first_pass) {
            m = pick_next(moves, sc, i, n);
            if (abdada) {
                bk = S(busy_key)(key, m);
                if (i > 0 && S(busy_test)(sh, bk)) {
                    deferred[ndeferred++] = (uint16_t)i;
                    continue;
                }
            }
        } else {
            i = deferred[k - first_pass];
            m = moves[i];
            if (abdada) bk = S(busy_key)(key, m);
        }
        int32_t ms = sc[i];
        int quiet = ms < 200 * 4096;  /* ordering hints of 200 and more are never reduced */
        /* Late-move pruning: near the horizon, outside the PV, the last quiet moves (sorted
         * below every move tried so far) are dropped; deferred moves ranked above them still
         * get their turn. */
        if (k < first_pass && tu->search_lmp && !pvnode && depth <= tu->search_lmp_depth && quiet &&
            i >= tu->search_lmp * depth && best > -SCORE_PROVEN_MIN) {
            allproven = 0;
            first_pass = k;
            k--;
            continue;
        }

        POS c = *p;
        G(play)(&c, m);
        if (newdepth > 0) tt_prefetch(tt, G(hash)(&c));
        int same = G(side)(&c) == side;
        int cd = newdepth;
        t->played[ply + 1] = m;
        if (bk) S(busy_mark)(sh, bk);
        int cp = 0, v;
        if (i == 0) {
            v = S(child)(t, &c, same, alpha, beta, cd, ply + 1, &cp);
        } else {
            /* Late, quiet moves are searched shallower first. */
            int r = 0;
            if (depth >= tu->search_lmr_min_depth && i >= tu->search_lmr_min_move && quiet) {
                r = tu->search_lmr_base / 100;
                if (r > cd - 1) r = cd - 1 > 0 ? cd - 1 : 0;
            }
            v = S(child)(t, &c, same, alpha, alpha + 1, cd - r, ply + 1, &cp);
            if (r && v > alpha && !t->stopped)
                v = S(child)(t, &c, same, alpha, alpha + 1, cd, ply + 1, &cp);
            if (pvnode && v > alpha && v < beta && !t->stopped)
                v = S(child)(t, &c, same, alpha, beta, cd, ply + 1, &cp);
        }
        if (bk) S(busy_clear)(sh, bk);
        if (t->stopped) return 0;
        if (!cp) allproven = 0;
        if (v > best) {
            best = v;
            bestmove = m;
            bestcp = cp;
            if (v > alpha) {
                alpha = v;
                S(pv_update)(t, ply, m);
                if (v >= beta) {
                    cutproven = cp; /* the bound rests on this child only */
                    if (m != t->killers[ply][0]) {
                        t->killers[ply][1] = t->killers[ply][0];
                        t->killers[ply][0] = m;
                    }
                    uint16_t *hh = &t->hist[side][m & 0x3FFF];
                    int32_t hv = *hh + depth * depth;
                    *hh = (uint16_t)(hv > 65535 ? 65535 : hv);
                    break;
                }
            }
        }
    }
    int nodeproven = cutproven >= 0 ? cutproven : allproven;
    int flag = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    if (!nodeproven && bestcp && flag == TT_EXACT && best >= SCORE_PROVEN_MIN) {
        /* An exact proven win settles the result; only its margin might still grow. */
        nodeproven = 1;
        flag = TT_LOWER;
    }
    tt_store(tt, key, best > alpha0 ? bestmove : MOVE_NONE, score_to_tt(best, ply),
             nodeproven ? TT_DEPTH_PROVEN : depth, flag);
    *proven = nodeproven;
    return best;
}

/* Keep t->lines the best `want` candidates, best first (insertion into a short list). */
static void S(add_line)(S(Thread) *t, int want, uint32_t m, int v, int proven)
{
    int i = t->nlines < want ? t->nlines++ : want - 1;  /* full: v beat the last one */
    while (i > 0 && t->lines[i - 1].score < v) {
        t->lines[i] = t->lines[i - 1];
        i--;
    }
    SearchLine *l = &t->lines[i];
    l->move = m;
    l->score = v;
    l->proven = proven;
    l->pv[0] = m;
    l->pvlen = 1 + t->pvlen[1];
    memcpy(&l->pv[1], t->pv[1], (size_t)t->pvlen[1] * sizeof(uint32_t));
}

/* One root iteration.  With multi-PV N, a move is searched with a full window until N
 * candidates are known, then against the N-th best score: whatever beats it is re-searched
 * with a full window, so every kept candidate has an exact score.  Returns the best score;
 * *completed = root moves fully searched (the iteration was cut short iff t->stopped). */
static int S(root_search)(S(Thread) *t, int depth, int *proven, uint32_t *bestmove,
                          int *completed)
{
    const POS *p = &t->rootpos;
    int side = G(side)(p);
    int want = t->sh->multipv < t->nroot ? t->sh->multipv : t->nroot;
    int allproven = 1;
    *completed = 0;
    *bestmove = t->root[0];
    t->nlines = 0;
    t->pvlen[0] = 0;
    /* ABDADA at the root too (one line wanted): a later move another thread is on waits. */
    S(Shared) *sh = t->sh;
    int abdada = sh->busy && want == 1 && depth >= ABDADA_MIN_DEPTH;
    uint64_t rootkey = G(hash)(p);
    uint16_t deferred[MAXMOVES];
    int ndeferred = 0;
    for (int k = 0; k < t->nroot + ndeferred; k++) {
        int i = k < t->nroot ? k : deferred[k - t->nroot];
        uint32_t m = t->root[i];
        uint64_t bk = abdada ? S(busy_key)(rootkey, m) : 0;
        if (bk && k < t->nroot && i > 0 && S(busy_test)(sh, bk)) {
            deferred[ndeferred++] = (uint16_t)i;
            continue;
        }
        POS c = *p;
        G(play)(&c, m);
        int same = G(side)(&c) == side;
        int cp = 0, v;
        t->pvlen[1] = 0;
        t->played[1] = m;
        if (bk) S(busy_mark)(sh, bk);
        if (t->nlines < want) {
            v = S(child)(t, &c, same, -SCORE_INF, SCORE_INF, depth - 1, 1, &cp);
            if (bk) S(busy_clear)(sh, bk);
        } else {
            int alpha = t->lines[want - 1].score;
            v = S(child)(t, &c, same, alpha, alpha + 1, depth - 1, 1, &cp);
            if (v > alpha && !t->stopped) v = S(child)(t, &c, same, alpha, SCORE_INF, depth - 1, 1, &cp);
            if (bk) S(busy_clear)(sh, bk);
            if (v <= alpha) {  /* a bound only: not a candidate */
                if (t->stopped) break;
                ++*completed;
                if (!cp) allproven = 0;
                continue;
            }
        }
        if (t->stopped) break;
        ++*completed;
        if (!cp) allproven = 0;
        S(add_line)(t, want, m, v, cp);
    }
    if (t->nlines == 0) return -SCORE_INF;
    /* The candidates first, best first, next time; the rest keep their order. */
    uint32_t keep[MAXMOVES];
    int k = 0;
    for (int j = 0; j < t->nlines; j++) keep[k++] = t->lines[j].move;
    for (int i = 0; i < t->nroot; i++) {
        int is_line = 0;
        for (int j = 0; j < t->nlines; j++) is_line |= t->root[i] == t->lines[j].move;
        if (!is_line) keep[k++] = t->root[i];
    }
    memcpy(t->root, keep, (size_t)t->nroot * sizeof(uint32_t));
    *bestmove = t->lines[0].move;
    t->pvlen[0] = t->lines[0].pvlen;
    memcpy(t->pv[0], t->lines[0].pv, (size_t)t->lines[0].pvlen * sizeof(uint32_t));
    /* A proven win is final even if other moves are unresolved (only its margin could grow). */
    *proven = allproven || (t->lines[0].proven && t->lines[0].score >= SCORE_PROVEN_MIN);
    return t->lines[0].score;
}

/* Lengthen a variation that came back short (hash-table cut-offs; with helper threads a
 * line could stop right after its root move) with the table's best moves, while they are
 * legal, up to `want` plies: every reported line then shows a real continuation. */
static void S(extend_pv)(S(Thread) *t, uint32_t *pv, int *len, int want)
{
    POS p = t->rootpos;
    for (int i = 0; i < *len; i++) G(play)(&p, pv[i]);
    if (want > MAX_PLY - 1) want = MAX_PLY - 1;
    while (*len < want) {
        TTHit h;
        if (!tt_probe(t->sh->tt, G(hash)(&p), &h) || h.move == MOVE_NONE) break;
        uint32_t moves[MAXMOVES];
        int n = G(gen)(&p, moves), legal = 0;
        for (int i = 0; i < n; i++) legal |= moves[i] == h.move;
        if (!legal) break;
        pv[(*len)++] = h.move;
        G(play)(&p, h.move);
    }
}

static void S(extend_lines)(S(Thread) *t, SearchResult *res, int want)
{
    int n = res->pvlen;
    S(extend_pv)(t, res->pv, &n, want);
    res->pvlen = n;
    for (int k = 0; k < res->nlines; k++) {
        n = res->lines[k].pvlen;
        S(extend_pv)(t, res->lines[k].pv, &n, want);
        res->lines[k].pvlen = n;
    }
}

/* The root's only action is the whole decision: it hands the move over or ends the game.
 * (TZAAR's forced first capture is not: the turn's second action still needs the search.) */
static int S(settled)(const S(Thread) *t)
{
    if (t->nroot != 1) return 0;
    POS c = t->rootpos;
    G(play)(&c, t->root[0]);
    int sw = 0;
    return G(side)(&c) != G(side)(&t->rootpos) || G(over)(&c, &sw);
}

/* Publish a completed iteration if it is the deepest so far (any thread). */
static void S(publish)(S(Thread) *t, int d, int v, uint32_t bm, int proven)
{
    S(Shared) *sh = t->sh;
    SearchResult *res = sh->res;
    const SearchParams *prm = sh->prm;
    pthread_mutex_lock(&sh->lock);
    if (d > sh->done_depth) {
        __atomic_store_n(&sh->done_depth, d, __ATOMIC_RELAXED);
        res->best = bm;
        res->score = v;
        res->depth = d;
        res->seldepth = t->seldepth;
        res->proven = proven;
        res->pvlen = t->pvlen[0];
        memcpy(res->pv, t->pv[0], (size_t)t->pvlen[0] * sizeof(uint32_t));
        res->nlines = t->nlines;
        memcpy(res->lines, t->lines, (size_t)t->nlines * sizeof(SearchLine));
        S(extend_lines)(t, res, d);
        S(report)(t, res);
        if (prm->on_iteration) prm->on_iteration(prm->userdata, res);
        if (prm->report_ms > 0)
            __atomic_store_n(&sh->next_report_ns, sat_add_ns(now_ns(), ms_to_ns(prm->report_ms)),
                             __ATOMIC_RELAXED);
        int stop = proven || d >= sh->max_depth;
        if (prm->time_ms > 0) {
            double used = (double)(now_ns() - sh->start_ns);
            /* the next iteration costs a multiple of this one: none after 45 % of the time */
            if (S(settled)(t) || used > (double)prm->time_ms * 0.45e6) stop = 1;
        }
        if (stop) __atomic_store_n(&sh->stop, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&sh->lock);
}

static void S(iterate)(S(Thread) *t)
{
    S(Shared) *sh = t->sh;
    SearchResult *res = sh->res;
    int d = 1;
    while (d <= sh->max_depth && !__atomic_load_n(&sh->stop, __ATOMIC_RELAXED)) {
        t->root_depth = d;
        t->seldepth = 0;
        for (int s = 0; s < 2; s++)
            for (int i = 0; i < (1 << 14); i++) t->hist[s][i] >>= 1;
        int proven = 0, completed = 0;
        uint32_t bm;
        int v = S(root_search)(t, d, &proven, &bm, &completed);
        if (t->stopped) {
            /* Keep a move that already beat the previous best at the new depth. */
            pthread_mutex_lock(&sh->lock);
            if (t->id == 0 && sh->multipv == 1 && d > sh->done_depth && completed > 1 &&
                t->nlines > 0 && bm != res->best) {
                res->best = bm;
                res->score = v;
                res->pvlen = t->pvlen[0];
                memcpy(res->pv, t->pv[0], (size_t)t->pvlen[0] * sizeof(uint32_t));
                res->nlines = 1;
                res->lines[0] = t->lines[0];
                S(extend_lines)(t, res, d - 1);
            }
            pthread_mutex_unlock(&sh->lock);
            break;
        }
        S(publish)(t, d, v, bm, proven);
        /* Skip depths other threads already finished. */
        int done = __atomic_load_n(&sh->done_depth, __ATOMIC_RELAXED);
        d = done + 1 > d + 1 ? done + 1 : d + 1;
    }
}

static void *S(thread_main)(void *arg)
{
    S(iterate)((S(Thread) *)arg);
    return NULL;
}

static void S(order_root)(S(Thread) *t, uint64_t seed)
{
    int32_t key[MAXMOVES];
    for (int i = 0; i < t->nroot; i++) {
        int hint = G(move_order)(&t->rootpos, t->root[i]);
        key[i] = hint * 4096 + (int32_t)(splitmix64(seed ^ (t->root[i] * 0x9E3779B97F4A7C15ull)) & 4095);
    }
    for (int i = 1; i < t->nroot; i++) { /* insertion sort, descending */
        uint32_t m = t->root[i];
        int32_t k = key[i];
        int j = i - 1;
        for (; j >= 0 && key[j] < k; j--) {
            t->root[j + 1] = t->root[j];
            key[j + 1] = key[j];
        }
        t->root[j + 1] = m;
        key[j + 1] = k;
    }
}

static int S(search)(const POS *root, const SearchParams *prm, TT *tt, SearchResult *res)
{
    memset(res, 0, sizeof *res);
    S(Shared) sh;
    memset(&sh, 0, sizeof sh);
    sh.tt = tt;
    sh.prm = prm;
    sh.res = res;
    sh.start_ns = now_ns();
    sh.deadline_ns = prm->time_ms > 0 ? sat_add_ns(sh.start_ns, ms_to_ns(prm->time_ms)) : 0;
    sh.next_report_ns = prm->report_ms > 0 ? sat_add_ns(sh.start_ns, ms_to_ns(prm->report_ms)) : 0;
    sh.max_depth = prm->depth > 0 && prm->depth < MAX_PLY - 8 ? prm->depth : MAX_PLY - 8;
    sh.multipv = prm->multipv < 1 ? 1 : prm->multipv > MAX_MULTIPV ? MAX_MULTIPV : prm->multipv;
    sh.tu = search_tuning_clamped(&S(search_tuning).w);
    pthread_mutex_init(&sh.lock, NULL);

    uint32_t moves[MAXMOVES];
    int n = G(gen)(root, moves);
    if (n == 0) {
        int sw = 0;
        if (!G(over)(root, &sw)) sw = 0;
        res->best = MOVE_NONE;
        res->score = search_terminal_score(sw, G(side)(root), 0);
        res->proven = 1;
        return 0;
    }
    int nthreads = prm->threads < 1 ? 1 : prm->threads > 64 ? 64 : prm->threads;
    S(Thread) *th = calloc((size_t)nthreads, sizeof *th);
    if (!th) {
        pthread_mutex_destroy(&sh.lock);
        return -1;
    }
    if (nthreads > 1) sh.busy = calloc(BUSY_SIZE, sizeof *sh.busy);
    tt_new_search(tt);
    for (int i = 0; i < nthreads; i++) {
        th[i].sh = &sh;
        th[i].id = i;
        th[i].rootpos = *root;
        th[i].nroot = n;
        memcpy(th[i].root, moves, (size_t)n * sizeof(uint32_t));
        S(order_root)(&th[i], prm->seed + (uint64_t)i * 7919);
    }
    res->best = th[0].root[0];
    res->pv[0] = res->best;
    res->pvlen = 1;
    res->nlines = 1;
    res->lines[0].move = res->best;
    res->lines[0].pv[0] = res->best;
    res->lines[0].pvlen = 1;
    int started = 1;
    for (int i = 1; i < nthreads; i++) {
        if (pthread_create(&th[i].tid, NULL, S(thread_main), &th[i])) break;
        started++;
    }
    S(iterate)(&th[0]);
    __atomic_store_n(&sh.stop, 1, __ATOMIC_RELAXED);
    uint64_t total = 0;
    for (int i = 1; i < started; i++) pthread_join(th[i].tid, NULL);
    for (int i = 0; i < nthreads; i++) total += th[i].nodes;
    res->nodes = total;
    res->time_ms = (double)(now_ns() - sh.start_ns) / 1e6;
    free(th);
    free(sh.busy);
    pthread_mutex_destroy(&sh.lock);
    return 0;
}

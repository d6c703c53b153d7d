/* The root of the search, for game_impl.h's instantiation: the root's moves and multi-PV
 * lines, iterative deepening, when to stop, the threads (beyond the first: ABDADA, every
 * thread at the same depth), and S(search), the entry point. */

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

/* Lengthen a variation that came back short (hash-table cut-offs; with several threads a
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
            /* the next iteration costs a multiple of this one: none late in the move's time
             * (an unfinished one still plays a new best move it found) */
            double soft = prm->soft_ms > 0 ? (double)prm->soft_ms * 1e6
                                           : (double)prm->time_ms * 1e4 * sh->tu.search_next_iteration;
            if (S(settled)(t) || used > soft) stop = 1;
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
        history_age(&t->hist);
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
    sh.tu = search_params_clamped(&S(search_params).w);
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

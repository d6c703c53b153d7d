/* A search's threads and what they share, for game_impl.h's instantiation of the search
 * (GP, POS, MAXMOVES and the G() / S() name makers come from there): each thread's own
 * tables, the shared limits and results, ABDADA's table of moves being searched, the
 * periodic poll for limits and reports, and the cached static evaluation.  A ply is one
 * action; the score is negated only when the side to act changes (TZAAR's two actions, DVONN's
 * last placement and first move are consecutive plies of one side). */

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
    uint32_t played[MAX_PLY + 1];      /* played[ply]: the move that led to this ply's node */
    History hist;                      /* killers and history (history.h) */
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

/* One node of the search (search_node.h). */
static int S(node)(S(Thread) *t, const POS *p, int alpha, int beta, int depth, int ply, int *proven);

/* A node's state, as its parts (prune.h, search_node.h) read it. */
typedef struct {
    const POS *p;
    uint64_t key;      /* the position's hash */
    int alpha, beta;   /* the window the node was called with */
    int depth, ply;
    int side;          /* to act */
    int pvnode;        /* beta - alpha > 1 */
} S(Node);

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

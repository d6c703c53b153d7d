#include "core_api.h"

#include "dvonn_eval.h"
#include "tzaar_eval.h"

#include <pthread.h>
#include <string.h>

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static TT g_tt;
static SolveTT g_solve_tt; /* the exact solver's own table (16 MB, allocated on first use) */
#define SOLVE_TT_LOG2 20

static void global_init(void)
{
    dv_global_init();
    tz_global_init();
}

typedef union {
    DvPos dv;
    TzPos tz;
} AnyPos;

const char *core_version(void) { return CORE_VERSION; }

int core_has_game(int game)
{
    return game == CORE_GAME_DVONN || game == CORE_GAME_TZAAR;
}

int core_points(int game)
{
    return game == CORE_GAME_DVONN ? DV_POINTS : game == CORE_GAME_TZAAR ? 60 : -1;
}

static int make_pos(int game, AnyPos *p, const uint8_t *height, const uint8_t *top,
                    const uint8_t *extra, int side, int phase)
{
    pthread_once(&g_once, global_init);
    if (!core_has_game(game) || !height || !top || side < 0 || side > 1 || phase < 0 || phase > 2)
        return -1;
    if (game == CORE_GAME_DVONN) {
        dv_init(&p->dv, height, top, extra, side, phase);
        return 0;
    }
    tz_init(&p->tz, height, top, extra, side, phase);
    return 0;
}

int core_perft(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, int depth, uint64_t *out)
{
    AnyPos p;
    if (depth < 0 || make_pos(game, &p, height, top, extra, side, phase)) return -1;
    if (game == CORE_GAME_TZAAR) { *out = tz_perft(&p.tz, depth); return 0; }
    *out = dv_perft(&p.dv, depth);
    return 0;
}

/* Perft that looks at *stop between subtrees small enough to count in well under a
 * millisecond; *stopped is set when it gave up (the count is then meaningless). */
static uint64_t dv_perft_stoppable(const DvPos *p, int depth, const int32_t *stop, int *stopped)
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

/* Same count as tz_perft (depth in whole turns; a first capture that ends the game is a
 * leaf only at depth 1). */
static uint64_t tz_perft_stoppable(const TzPos *p, int depth, const int32_t *stop, int *stopped)
{
    if (depth <= 1) return tz_perft(p, depth);
    if (*stopped || (*stopped = __atomic_load_n(stop, __ATOMIC_RELAXED) != 0)) return 0;
    if (tz_over(p, NULL)) return 0;
    uint32_t mv[TZ_MAX_MOVES];
    int n = tz_gen(p, mv);
    uint64_t total = 0;
    for (int i = 0; i < n && !*stopped; i++) {
        TzPos q = *p;
        tz_play(&q, mv[i]);
        if (p->phase != 1) {
            total += tz_perft_stoppable(&q, depth - 1, stop, stopped);
            continue;
        }
        if (tz_over(&q, NULL)) continue;
        uint32_t mv2[TZ_MAX_MOVES];
        int n2 = tz_gen(&q, mv2);
        for (int j = 0; j < n2 && !*stopped; j++) {
            TzPos r = q;
            tz_play(&r, mv2[j]);
            total += tz_perft_stoppable(&r, depth - 1, stop, stopped);
        }
    }
    return total;
}

int core_perft_stoppable(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                         int side, int phase, int depth, const int32_t *stop, uint64_t *out)
{
    AnyPos p;
    if (depth < 0 || !stop || make_pos(game, &p, height, top, extra, side, phase)) return -1;
    int stopped = 0;
    if (game == CORE_GAME_TZAAR) *out = tz_perft_stoppable(&p.tz, depth, stop, &stopped);
    else *out = dv_perft_stoppable(&p.dv, depth, stop, &stopped);
    return stopped ? CORE_INTERRUPTED : 0;
}

int core_legal(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, uint32_t *moves)
{
    AnyPos p;
    if (make_pos(game, &p, height, top, extra, side, phase)) return -1;
    if (game == CORE_GAME_TZAAR) return tz_gen(&p.tz, moves);
    return dv_gen(&p.dv, moves);
}

int core_eval(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
              int side, int phase, int *out)
{
    AnyPos p;
    if (make_pos(game, &p, height, top, extra, side, phase)) return -1;
    if (game == CORE_GAME_TZAAR) { *out = tz_eval(&p.tz); return 0; }
    *out = dv_eval(&p.dv);
    return 0;
}

/* The turn's second action when the PV does not reach it (short or TT-cut PV). */
static uint32_t tz_second_action(const TzPos *after, const SearchResult *res, const SearchParams *prm)
{
    uint32_t moves[TZ_MAX_MOVES];
    int n = tz_gen(after, moves);
    if (res->pvlen >= 2)
        for (int i = 0; i < n; i++)
            if (moves[i] == res->pv[1]) return moves[i];
    SearchParams sub = *prm;
    sub.time_ms = 0;
    sub.nodes = 0;
    sub.threads = 1;
    sub.on_iteration = NULL;
    sub.multipv = 1;
    sub.report_ms = 0;
    sub.depth = res->depth > 2 ? res->depth - 1 : 1;
    if (sub.depth > 3) sub.depth = 3;
    SearchResult r2;
    search_tz(after, &sub, &g_tt, &r2);
    return r2.best;
}

int core_search(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                int side, int phase, const SearchParams *prm, int hash_mb,
                SearchResult *res, uint32_t *turn, int *turnlen)
{
    AnyPos p;
    if (make_pos(game, &p, height, top, extra, side, phase)) return -1;
    pthread_mutex_lock(&g_lock);
    int rc = tt_resize(&g_tt, hash_mb > 0 ? (size_t)hash_mb : 1) ? CORE_NO_MEMORY : 0;
    if (rc == 0) {
        *turnlen = 0;
        if (game == CORE_GAME_TZAAR) {
            rc = search_tz(&p.tz, prm, &g_tt, res);
            if (rc == 0 && res->best != MOVE_NONE) {
                turn[(*turnlen)++] = res->best;
                TzPos after = p.tz;
                tz_play(&after, res->best);
                if (tz_side(&after) == tz_side(&p.tz) && !tz_over(&after, NULL)) {
                    uint32_t m2 = tz_second_action(&after, res, prm);
                    if (m2 != MOVE_NONE) turn[(*turnlen)++] = m2;
                }
            }
        } else {
            rc = search_dv(&p.dv, prm, &g_tt, res);
            if (rc == 0 && res->best != MOVE_NONE) turn[(*turnlen)++] = res->best;
        }
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

static int solve_any(int game, const AnyPos *p, const SolveParams *prm, SolveResult *res)
{
    return game == CORE_GAME_TZAAR ? solve_tz(&p->tz, prm, &g_solve_tt, res)
                                   : solve_dv(&p->dv, prm, &g_solve_tt, res);
}

static int same_side_after(int game, const AnyPos *p, uint32_t m, AnyPos *after)
{
    *after = *p;
    if (game == CORE_GAME_TZAAR) {
        tz_play(&after->tz, m);
        return tz_side(&after->tz) == tz_side(&p->tz) && !tz_over(&after->tz, NULL);
    }
    dv_play(&after->dv, m);
    return dv_side(&after->dv) == dv_side(&p->dv) && !dv_over(&after->dv, NULL);
}

int core_solve(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, const SolveParams *prm, SolveResult *res,
               uint32_t *turn, int *turnlen)
{
    AnyPos p;
    if (make_pos(game, &p, height, top, extra, side, phase)) return -1;
    pthread_mutex_lock(&g_lock);
    int rc = solve_tt_init(&g_solve_tt, SOLVE_TT_LOG2) ? CORE_NO_MEMORY : 0;
    *turnlen = 0;
    if (rc == 0 && solve_any(game, &p, prm, res) < 0) rc = CORE_NO_MEMORY;
    /* The rest of the turn (TZAAR's second action): solved from the position after the first. */
    while (rc == 0 && res->solved && res->best != MOVE_NONE && *turnlen < 3) {
        turn[(*turnlen)++] = res->best;
        AnyPos after;
        if (!same_side_after(game, &p, res->best, &after)) break;
        SolveResult sub;
        solve_any(game, &after, prm, &sub);
        if (!sub.solved) {
            res->solved = 0;
            break;
        }
        res->nodes += sub.nodes;
        res->time_ms += sub.time_ms;
        p = after;
        res->best = sub.best;
    }
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int core_set_hash(int hash_mb)
{
    pthread_once(&g_once, global_init);
    pthread_mutex_lock(&g_lock);
    int rc = tt_resize(&g_tt, hash_mb > 0 ? (size_t)hash_mb : 1);
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int core_prepare(int hash_mb)
{
    pthread_once(&g_once, global_init);
    pthread_mutex_lock(&g_lock);
    int rc = g_tt.slots ? 0 : tt_resize(&g_tt, hash_mb > 0 ? (size_t)hash_mb : 1);
    pthread_mutex_unlock(&g_lock);
    return rc;
}

void core_clear_hash(void)
{
    pthread_mutex_lock(&g_lock);
    tt_clear(&g_tt);
    solve_tt_clear(&g_solve_tt);
    pthread_mutex_unlock(&g_lock);
}

/* ---------------------------------------------------------------- named evaluation weights */

/* A game's weights: its evaluation's, then its search parameters (csrc/search.h). */
typedef struct { int *values; const WeightInfo *info; int n; } WeightTable;

static int weight_table(int game, int *i, WeightTable *t)
{
    int neval;
    if (game == CORE_GAME_DVONN) {
        *t = (WeightTable){dv_weights.v, DV_WEIGHT_INFO, neval = DV_NWEIGHTS};
        if (*i >= neval) *t = (WeightTable){dv_search_tuning.v, DV_SEARCH_TUNING_INFO, SEARCH_NTUNING};
    } else if (game == CORE_GAME_TZAAR) {
        *t = (WeightTable){tz_weights.v, TZ_WEIGHT_INFO, neval = TZ_NWEIGHTS};
        if (*i >= neval) *t = (WeightTable){tz_search_tuning.v, TZ_SEARCH_TUNING_INFO, SEARCH_NTUNING};
    } else {
        return -1;
    }
    if (*i >= neval) *i -= neval;
    return 0;
}

int core_eval_weight_count(int game)
{
    return game == CORE_GAME_DVONN ? DV_NWEIGHTS : game == CORE_GAME_TZAAR ? TZ_NWEIGHTS : -1;
}

int core_weight_count(int game)
{
    int n = core_eval_weight_count(game);
    return n < 0 ? -1 : n + SEARCH_NTUNING;
}

int core_weight_info(int game, int i, const char **name, const char **help, int *value, int *deflt)
{
    WeightTable t;
    if (i < 0 || weight_table(game, &i, &t) || i >= t.n) return -1;
    *name = t.info[i].name;
    *help = t.info[i].help;
    *deflt = t.info[i].deflt;
    pthread_mutex_lock(&g_lock);
    *value = t.values[i];
    pthread_mutex_unlock(&g_lock);
    return 0;
}

int core_weight_set(int game, int i, int value)
{
    WeightTable t;
    if (i < 0 || weight_table(game, &i, &t) || i >= t.n) return -1;
    if (value < -CORE_WEIGHT_MAX || value > CORE_WEIGHT_MAX) return -1;
    pthread_mutex_lock(&g_lock);
    if (t.values[i] != value) {
        t.values[i] = value;
        tt_clear(&g_tt); /* stored scores were made with the old weights */
    }
    pthread_mutex_unlock(&g_lock);
    return 0;
}

int core_eval_terms(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                    int side, int phase, double *terms, int *out)
{
    AnyPos p;
    if (make_pos(game, &p, height, top, extra, side, phase)) return -1;
    pthread_mutex_lock(&g_lock);
    *out = game == CORE_GAME_TZAAR ? tz_eval_terms(&p.tz, terms) : dv_eval_terms(&p.dv, terms);
    pthread_mutex_unlock(&g_lock);
    return 0;
}

/* The flat API (core_api.h) over the registry of games (games.c): every call looks its game's
 * GameOps up by number; nothing here knows a particular game. */
#include "core_api.h"
#include "game_ops.h"

#include <pthread.h>
#include <string.h>

_Static_assert(CORE_WEIGHT_MAX == WEIGHT_LIMIT, "one limit of a weight's value");

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static TT g_tt;
static SolveTT g_solve_tt; /* the exact solver's own table (16 MB, allocated on first use) */
#define SOLVE_TT_LOG2 20

static void global_init(void)
{
    for (int g = 0; g < NGAMES; g++) GAMES[g]->global_init();
}

/* The game's table, NULL for a number no game has. */
static const GameOps *game_ops(int game)
{
    return game >= 0 && game < NGAMES ? GAMES[game] : NULL;
}

const char *core_version(void) { return CORE_VERSION; }

int core_game(const char *name)
{
    for (int g = 0; name && g < NGAMES; g++)
        if (strcmp(GAMES[g]->name, name) == 0) return g;
    return -1;
}

int core_has_game(int game) { return game_ops(game) != NULL; }

int core_points(int game)
{
    const GameOps *ops = game_ops(game);
    return ops ? ops->points : -1;
}

/* The game's table with the position set up in *p, or NULL for bad arguments. */
static const GameOps *make_pos(int game, GamePos *p, const uint8_t *height, const uint8_t *top,
                               const uint8_t *extra, int side, int phase)
{
    pthread_once(&g_once, global_init);
    const GameOps *ops = game_ops(game);
    if (!ops || !height || !top || side < 0 || side > 1 || phase < 0 || phase > 2) return NULL;
    ops->init(p, height, top, extra, side, phase);
    return ops;
}

int core_perft(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, int depth, uint64_t *out)
{
    GamePos p;
    const GameOps *ops = depth < 0 ? NULL : make_pos(game, &p, height, top, extra, side, phase);
    if (!ops) return -1;
    *out = ops->perft(&p, depth);
    return 0;
}

int core_perft_stoppable(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                         int side, int phase, int depth, const int32_t *stop, uint64_t *out)
{
    GamePos p;
    const GameOps *ops = depth < 0 || !stop ? NULL : make_pos(game, &p, height, top, extra, side, phase);
    if (!ops) return -1;
    int stopped = 0;
    *out = ops->perft_stoppable(&p, depth, stop, &stopped);
    return stopped ? CORE_INTERRUPTED : 0;
}

int core_legal(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, uint32_t *moves)
{
    GamePos p;
    const GameOps *ops = make_pos(game, &p, height, top, extra, side, phase);
    return ops ? ops->gen(&p, moves) : -1;
}

int core_eval(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
              int side, int phase, int *out)
{
    GamePos p;
    const GameOps *ops = make_pos(game, &p, height, top, extra, side, phase);
    if (!ops) return -1;
    *out = ops->eval(&p);
    return 0;
}

int core_search(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                int side, int phase, const SearchLimits *lim, int hash_mb,
                SearchResult *res, uint32_t *turn, int *turnlen)
{
    GamePos p;
    const GameOps *ops = make_pos(game, &p, height, top, extra, side, phase);
    if (!ops) return -1;
    pthread_mutex_lock(&g_lock);
    int rc = tt_resize(&g_tt, hash_mb > 0 ? (size_t)hash_mb : 1, 0) ? CORE_NO_MEMORY : 0;
    if (rc == 0) rc = ops->search(&p, lim, &g_tt, res, turn, turnlen);
    pthread_mutex_unlock(&g_lock);
    return rc;
}

/* The position after m in *after; 1 iff the same side still acts there (the turn goes on). */
static int same_side_after(const GameOps *ops, const GamePos *p, uint32_t m, GamePos *after)
{
    *after = *p;
    ops->play(after, m);
    return ops->side(after) == ops->side(p) && !ops->over(after, NULL);
}

int core_solve(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
               int side, int phase, const SolveLimits *lim, SolveResult *res,
               uint32_t *turn, int *turnlen)
{
    GamePos p;
    const GameOps *ops = make_pos(game, &p, height, top, extra, side, phase);
    if (!ops) return -1;
    pthread_mutex_lock(&g_lock);
    int rc = solve_tt_init(&g_solve_tt, SOLVE_TT_LOG2) ? CORE_NO_MEMORY : 0;
    *turnlen = 0;
    if (rc == 0 && ops->solve(&p, lim, &g_solve_tt, res) < 0) rc = CORE_NO_MEMORY;
    /* The rest of the turn (TZAAR's second action): solved from the position after the first. */
    while (rc == 0 && res->solved && res->best != MOVE_NONE && *turnlen < CORE_TURN_MAX) {
        turn[(*turnlen)++] = res->best;
        GamePos after;
        if (!same_side_after(ops, &p, res->best, &after)) break;
        SolveResult sub;
        ops->solve(&after, lim, &g_solve_tt, &sub);
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
    int rc = tt_resize(&g_tt, hash_mb > 0 ? (size_t)hash_mb : 1, 1);
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int core_prepare(int hash_mb)
{
    pthread_once(&g_once, global_init);
    pthread_mutex_lock(&g_lock);
    int rc = g_tt.slots ? 0 : tt_resize(&g_tt, hash_mb > 0 ? (size_t)hash_mb : 1, 0);
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

/* Weight i of a game (its evaluation's, then its search parameters): the table holding it
 * and its index there, or NULL. */
static const WeightTable *weight_table(int game, int *i)
{
    pthread_once(&g_once, global_init);  /* the search parameters' defaults are set up there */
    const GameOps *ops = game_ops(game);
    if (!ops || *i < 0) return NULL;
    const WeightTable *t = &ops->eval_weights;
    if (*i >= t->n) {
        *i -= t->n;
        t = &ops->search_params;
    }
    return *i < t->n ? t : NULL;
}

int core_eval_weight_count(int game)
{
    const GameOps *ops = game_ops(game);
    return ops ? ops->eval_weights.n : -1;
}

int core_weight_count(int game)
{
    const GameOps *ops = game_ops(game);
    return ops ? ops->eval_weights.n + ops->search_params.n : -1;
}

int core_weight_info(int game, int i, const char **name, const char **help, int *value, int *deflt)
{
    const WeightTable *t = weight_table(game, &i);
    if (!t) return -1;
    *name = t->info[i].name;
    *help = t->info[i].help;
    *deflt = t->info[i].deflt;
    pthread_mutex_lock(&g_lock);
    *value = t->values[i];
    pthread_mutex_unlock(&g_lock);
    return 0;
}

int core_weight_range(int game, int i, int *low, int *high)
{
    const WeightTable *t = weight_table(game, &i);
    if (!t) return -1;
    *low = t->info[i].low;
    *high = t->info[i].high;
    return 0;
}

int core_weight_set(int game, int i, int value)
{
    const WeightTable *t = weight_table(game, &i);
    if (!t || value < -CORE_WEIGHT_MAX || value > CORE_WEIGHT_MAX) return -1;
    pthread_mutex_lock(&g_lock);
    if (t->values[i] != value) {
        t->values[i] = value;
        tt_clear(&g_tt); /* stored scores were made with the old weights */
    }
    pthread_mutex_unlock(&g_lock);
    return 0;
}

int core_eval_terms(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                    int side, int phase, double *terms, int *out)
{
    GamePos p;
    const GameOps *ops = make_pos(game, &p, height, top, extra, side, phase);
    if (!ops) return -1;
    pthread_mutex_lock(&g_lock);
    *out = ops->eval_terms(&p, terms);
    pthread_mutex_unlock(&g_lock);
    return 0;
}

int core_net_shape(int game, int *features, int *hidden, int *buckets)
{
    pthread_once(&g_once, global_init);
    const GameOps *ops = game_ops(game);
    if (!ops || !ops->net_set) return -1;
    *features = ops->net_features;
    *hidden = ops->net_hidden;
    *buckets = ops->net_buckets;
    return 0;
}

int core_net_set(int game, int on, const int16_t *w1, const int16_t *b1, const int16_t *w2,
                 const int32_t *b2, int32_t scale, int32_t max_stacks)
{
    pthread_once(&g_once, global_init);
    const GameOps *ops = game_ops(game);
    if (!ops || !ops->net_set) return -1;
    pthread_mutex_lock(&g_lock);
    int rc = ops->net_set(on, w1, b1, w2, b2, scale, max_stacks);
    if (rc == 0) tt_clear(&g_tt); /* stored scores were made with the old evaluation */
    pthread_mutex_unlock(&g_lock);
    return rc;
}

int core_net_check(int game, const uint8_t *height, const uint8_t *top, const uint8_t *extra,
                   int side, int phase, int depth, uint64_t *out)
{
    GamePos p;
    const GameOps *ops = depth < 0 ? NULL : make_pos(game, &p, height, top, extra, side, phase);
    if (!ops || !ops->net_check) return -1;
    pthread_mutex_lock(&g_lock);
    *out = ops->net_check(&p, depth);
    pthread_mutex_unlock(&g_lock);
    return 0;
}

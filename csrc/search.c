/* Instantiates the shared search for each game (see search_impl.h). */
#define _POSIX_C_SOURCE 200809L
#include "search.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Saturating time arithmetic: the protocol accepts 15-digit millisecond counts. */
static inline int64_t ms_to_ns(int64_t ms)
{
    return ms <= 0 ? 0 : ms >= INT64_MAX / 1000000 ? INT64_MAX : ms * 1000000;
}

static inline int64_t sat_add_ns(int64_t a, int64_t b)
{
    return b > INT64_MAX - a ? INT64_MAX : a + b;
}

/* Proven scores are stored relative to the node so they stay valid at any ply. */
static inline int score_to_tt(int v, int ply)
{
    return v >= SCORE_PROVEN_MIN ? v + ply : v <= -SCORE_PROVEN_MIN ? v - ply : v;
}

static inline int score_from_tt(int v, int ply)
{
    return v >= SCORE_PROVEN_MIN ? v - ply : v <= -SCORE_PROVEN_MIN ? v + ply : v;
}

#define PER_GAME_IMPL "search_impl.h"
#include "per_game.h"

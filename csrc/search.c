/* Instantiates the shared search for each game (see search_impl.h). */
#define _POSIX_C_SOURCE 200809L
#include "search.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
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

#define GP dv
#define POS DvPos
#define MAXMOVES DV_MAX_MOVES
#include "search_impl.h"
#undef GP
#undef POS
#undef MAXMOVES

#define GP tz
#define POS TzPos
#define MAXMOVES TZ_MAX_MOVES
#include "search_impl.h"
#undef GP
#undef POS
#undef MAXMOVES

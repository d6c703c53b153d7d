/* The search's game-independent pieces; search_impl.h is compiled per game (game_impl.h). */
#define _POSIX_C_SOURCE 200809L
#include "search.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

#include "clock_ns.h"

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

SearchTuning search_tuning_clamped(const SearchTuning *set)
{
    SearchTuning tu = *set;
    tu.search_lmr_min_depth = clampi(tu.search_lmr_min_depth, 1, 20);
    tu.search_lmr_min_move = clampi(tu.search_lmr_min_move, 1, 100);
    tu.search_lmr_base = clampi(tu.search_lmr_base, 0, 400);
    tu.search_lmp = clampi(tu.search_lmp, 0, 100);
    tu.search_lmp_depth = clampi(tu.search_lmp_depth, 1, 6);
    tu.search_rfp = clampi(tu.search_rfp, 0, 100000);
    tu.search_rfp_depth = clampi(tu.search_rfp_depth, 1, 20);
    tu.search_nullmove = clampi(tu.search_nullmove, 0, 6);
    return tu;
}

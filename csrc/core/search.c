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
    tu.search_lmr_log = clampi(tu.search_lmr_log, 0, 400);
    tu.search_lmr_pv = clampi(tu.search_lmr_pv, 0, 400);
    tu.search_lmr_history = clampi(tu.search_lmr_history, 0, 400);
    tu.search_lmr_even = clampi(tu.search_lmr_even, 0, 1);
    tu.search_aspiration = clampi(tu.search_aspiration, 0, 100000);
    tu.search_lmp = clampi(tu.search_lmp, 0, 100);
    tu.search_lmp_depth = clampi(tu.search_lmp_depth, 1, 6);
    tu.search_countermove = clampi(tu.search_countermove, 0, 499);
    tu.search_phase_extension = clampi(tu.search_phase_extension, 0, 2);
    tu.search_rfp = clampi(tu.search_rfp, 0, 100000);
    tu.search_rfp_depth = clampi(tu.search_rfp_depth, 1, 20);
    tu.search_futility = clampi(tu.search_futility, 0, 100000);
    tu.search_nullmove = clampi(tu.search_nullmove, 0, 6);
    tu.search_whole_turns = clampi(tu.search_whole_turns, 0, 1);
    tu.search_history_malus = clampi(tu.search_history_malus, 0, 400);
    tu.search_iir = tu.search_iir ? clampi(tu.search_iir, 2, 20) : 0;
    tu.search_singular = clampi(tu.search_singular, 0, 1000);
    tu.search_singular_depth = clampi(tu.search_singular_depth, 4, 20);
    tu.search_eval_order = tu.search_eval_order ? clampi(tu.search_eval_order, 2, 40) : 0;
    tu.search_abdada = clampi(tu.search_abdada, 0, 40);
    return tu;
}

/* 100 x ln(i) for late-move reductions; ln by halving into [1, 2) and the atanh series
 * (no libm needed). */
int LN100[256];
static __attribute__((constructor)) void ln_table_init(void)
{
    for (int i = 1; i < 256; i++) {
        double m = i, ln = 0.0, t, t2, term, sum = 0.0;
        while (m >= 2.0) { m /= 2.0; ln += 0.6931471805599453; }
        t = (m - 1.0) / (m + 1.0);
        t2 = t * t;
        term = t;
        for (int k = 1; k < 40; k += 2) { sum += term / k; term *= t2; }
        LN100[i] = (int)(100.0 * (ln + 2.0 * sum) + 0.5);
    }
}

/* The exact solver's table; solve_impl.inc is compiled per game (game_impl.h). */
#define _POSIX_C_SOURCE 200809L
#include "solve.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock_ns.h"

int solve_tt_init(SolveTT *tt, int log2_slots)
{
    if (tt->slots) return 0;
    size_t n = (size_t)1 << log2_slots;
    tt->slots = calloc(n, sizeof *tt->slots);
    if (!tt->slots) return -1;
    tt->mask = n - 1;
    return 0;
}

void solve_tt_clear(SolveTT *tt)
{
    if (tt->slots) memset(tt->slots, 0, (tt->mask + 1) * sizeof *tt->slots);
}

/* TZAAR move ordering for the search: a hint 0..1000 per action, higher first
 * (CONTRACT.md, <p>_move_order). */
#include "tzaar.h"
#include "tzaar_eval.h"

static inline int cl15(int n) { return n > 15 ? 15 : n; }


/* The search reduces late moves whose hint is below 200 (movepick.inc, MOVE_QUIET); a turn's first action
 * is always a capture.  With the weight order_reduce_captures (on by default: docs/strength.md,
 * 2026-12-01; 0 gives the old order, where no capture was ever reduced) a capture of a low
 * stack (height <= 2) of a type with three or more visible stacks ranks below 200, stackings
 * below every capture. */
#define TZ_ORDINARY_CAPTURE_HINT 150

int tz_move_order(const TzPos *p, uint32_t m)
{
    int kind = MOVE_KIND(m);
    if (kind == TZ_KIND_PASS) return 5;
    int f = MOVE_FROM(m), t = MOVE_TO(m);
    int ct = p->code[t], n = p->cnt[ct], ht = p->h[t];
    const int reduce = tz_weights.w.order_reduce_captures != 0;
    if (kind == TZ_KIND_CAPTURE) {
        if (n == 1) return 1000;                       /* wins at once */
        /* scarcity only lightly: a coarse hint leaves ties to history and
         * killers (15 -> 4 saved 9-14 % nodes at fixed depth 4-6) */
        int v = 500 + 4 * (16 - cl15(n)) + 25 * (ht > 6 ? 6 : ht);
        if (reduce && n >= 3 && ht <= 2) return TZ_ORDINARY_CAPTURE_HINT + (v - 500) / 6;   /* 150..167 */
        return v > 999 ? 999 : v;
    }
    /* stacking: 10..400, or 10..140 (below every capture) when captures may be reduced */
    int cf = p->code[f];
    if (n == 1 && ct != cf) return 0;                  /* buries own last visible type */
    int v = 100 + 20 * (ht + p->h[f] > 8 ? 8 : ht + p->h[f]) - 10 * (16 - cl15(n)) / 2;
    v = v < 10 ? 10 : v > 400 ? 400 : v;
    return reduce ? 10 + (v - 10) * 130 / 390 : v;
}

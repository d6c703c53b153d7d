/* TZAAR game module for the shared compiled search core (see csrc/CONTRACT.md).
 *
 * Board: 60 points in the canonical order of engine/hexgrid.py TZAAR_BOARD
 * (column by column A..I, each bottom to top, the central hole E5 skipped).
 * Point i is bit i of a uint64_t.  Only height, top colour and top type of a
 * stack matter for the rules, so that is all a position keeps.
 *
 * Actions: from | to << 6 | kind << 12, kind 0 capture, 1 stack, 2 pass
 * (pass = TZ_MOVE_PASS = 0x2FFF).
 * Phase: 0 White's single-capture opening turn, 1 first action of a normal
 * turn (mandatory capture), 2 second action (capture / stack / pass).
 */
#ifndef GIPF_TZAAR_H
#define GIPF_TZAAR_H

#include "common.h"

#define TZ_POINTS    60
#define TZ_MAX_MOVES 400
#define TZ_TURN_ACTIONS 2        /* actions in a turn the search returns (a turn is two) */
#define TZ_KIND_CAPTURE 0
#define TZ_KIND_STACK   1
#define TZ_KIND_PASS    MOVE_KIND_PASS
#define TZ_WIN_EVAL  300000      /* eval given to a position won in the current action */

typedef struct {
    uint64_t occ;          /* occupied points */
    uint64_t col[2];       /* stacks topped by colour 0 (White) / 1 (Black) */
    uint64_t tops[6];      /* stacks topped by code colour*3+type */
    uint64_t hash;         /* incremental Zobrist: stacks + side + phase */
    uint64_t tallm;        /* stacks of height >= 2 */
    int16_t  hsum[6];      /* per code: sum of the height-bonus table over its stacks (eval) */
    int16_t  ncap[2];      /* capture actions available to each colour now */
    int16_t  npair[2];     /* pairs of mutually first-met own stacks (stackings = 2 x) */
    uint8_t  natt[64];     /* per point: enemy stacks that can capture it (60..63 stay 0) */
    uint8_t  h[64];        /* height, 0 = empty; entries 60..63 stay 0 (sentinels) */
    uint8_t  code[64];     /* top code colour*3+type (valid where h > 0) */
    uint8_t  cnt[6];       /* visible stacks per code */
    uint8_t  side;         /* side to act */
    uint8_t  phase;        /* 0, 1, 2 */
    uint8_t  over;         /* 1 iff game over */
    int8_t   result;       /* +1 White won, -1 Black won (valid iff over) */
} TzPos;

void     tz_global_init(void);
void     tz_init(TzPos *p, const uint8_t *height, const uint8_t *top,
                 const uint8_t *extra, int side, int phase);
int      tz_gen(const TzPos *p, uint32_t *moves);
void     tz_play(TzPos *p, uint32_t move);
int      tz_side(const TzPos *p);
int      tz_over(const TzPos *p, int *score_white);
int      tz_eval(const TzPos *p);
uint64_t tz_hash(const TzPos *p);
/* The search's evaluation cache: TZAAR scores one side to act per pass, so the key is the
 * hash (side included) and tz_eval_pair fills out[side] only (the other entry is 0). */
static inline uint64_t tz_eval_key(const TzPos *p) { return tz_hash(p); }
void     tz_eval_pair(const TzPos *p, int32_t out[2]);
int      tz_move_order(const TzPos *p, uint32_t move);
/* No null move in TZAAR (a turn is two actions): always 0. */
int      tz_null_move(const TzPos *p, TzPos *out);
uint64_t tz_perft(const TzPos *p, int depth);
/* tz_perft's count, given up (*stopped set, the count meaningless) soon after *stop is set. */
uint64_t tz_perft_stoppable(const TzPos *p, int depth, const int32_t *stop, int *stopped);

/* Extras (not part of the contract, used by tests / tools). */
int      tz_count_actions(const TzPos *p);           /* == tz_gen's count, no list */
int      tz_has_capture(const TzPos *p, int colour); /* colour has a capture now */
uint64_t tz_hash_full(const TzPos *p);               /* hash recomputed from scratch */
uint64_t tz_attacked(const TzPos *p);                /* stacks an enemy stack can capture now */

#endif

/* DVONN board, move generation, evaluation.  Contract: CONTRACT.md.
 *
 * Internally a point is a bit of a padded 11x5 grid (bit = row*11 + column),
 * so neighbour sets are six shifts of one uint64 (flood fill, surround test).
 * Moves and the arrays given to dv_init use the canonical point index of
 * engine/hexgrid.py (row-major A1..I1, A2..J2, ...).
 *
 * Moves: MAKE_MOVE(from, to, kind) (common.h), kind DV_KIND_MOVE (a stack move),
 * DV_KIND_PLACE (from = MOVE_NO_POINT), DV_KIND_PASS (the pass is MOVE_PASS).
 */
#ifndef GIPF_DVONN_H
#define GIPF_DVONN_H

#include "common.h"

#include <stddef.h>
#include <string.h>
#include "dvonn_nnue.h"

#define DV_POINTS 49
#define DV_BITS 55
#define DV_MAX_MOVES 300
#define DV_TURN_ACTIONS 1   /* actions in a turn the search returns (the last placement and the
                             * first stack move, both White's, are two searches) */
#define DV_KIND_MOVE 0
#define DV_KIND_PLACE 1
#define DV_KIND_PASS MOVE_KIND_PASS

#define DV_PLACE(to) MAKE_MOVE(MOVE_NO_POINT, (to), DV_KIND_PLACE)
#define DV_MOVE(from, to) MAKE_MOVE((from), (to), DV_KIND_MOVE)

typedef struct {
    uint64_t occ;    /* occupied bits */
    uint64_t col[2]; /* stacks topped by White / Black (a lone red is in neither) */
    uint64_t red;    /* stacks containing at least one red piece */
    uint64_t hash;
    uint8_t height[DV_BITS];
    uint8_t side;    /* side to act */
    uint8_t phase;   /* 0 placement, 1 movement */
    uint8_t placed;  /* pieces placed so far (placement phase) */
    uint8_t acc_ok;  /* acc is kept (a network is on, stacking, at most its max_stacks stacks) */
    /* the network's first layer (White's view, Black's view), kept by dv_init and dv_play in
     * the stacking phase while a network is on (dvonn_nnue.h); otherwise not read.  Last, so
     * that dv_copy leaves it out where it is not kept. */
    _Alignas(16) int16_t acc[2][DV_NET_HIDDEN];
} DvPos;

/* *dst = *src, without the accumulators where they are not kept: most positions of a search
 * do not carry them, and copying them there cost 2-4 % of the nodes per second. */
static inline void dv_copy(DvPos *dst, const DvPos *src)
{
    if (src->acc_ok)
        *dst = *src;
    else
        memcpy(dst, src, offsetof(DvPos, acc));
}

void     dv_global_init(void);
void     dv_init(DvPos *p, const uint8_t *height, const uint8_t *top,
                 const uint8_t *extra, int side, int phase);
int      dv_gen(const DvPos *p, uint32_t *moves);
void     dv_play(DvPos *p, uint32_t move);
int      dv_side(const DvPos *p);
int      dv_over(const DvPos *p, int *score_white);
int      dv_eval(const DvPos *p);
uint64_t dv_hash(const DvPos *p);
/* The evaluation with White (out[0]) and with Black (out[1]) to act, from one pass. */
void     dv_eval_pair(const DvPos *p, int32_t out[2]);
/* The position with the turn passed, for null-move pruning: 1, or 0 where none is imagined. */
int      dv_null_move(const DvPos *p, DvPos *out);
uint64_t dv_perft(const DvPos *p, int depth);
/* The network's accumulators computed afresh if the network values p (acc_ok says whether). */
void     dv_net_enter(DvPos *p);
/* Positions up to depth plies on whose incrementally kept accumulators differ from fresh ones. */
uint64_t dv_net_check(const DvPos *p, int depth);
/* dv_perft's count, given up (*stopped set, the count meaningless) soon after *stop is set. */
uint64_t dv_perft_stoppable(const DvPos *p, int depth, const int32_t *stop, int *stopped);

#define DV_KEY_SIDE 0x5A17E5C0FFEE1234ull  /* hashed in iff Black is to act */

/* The search's evaluation-cache key: the hash without the side to act, so a position and
 * its twin with the other side to act (the null move's) share dv_eval_pair's entry. */
static inline uint64_t dv_eval_key(const DvPos *p) { return p->hash ^ (p->side ? DV_KEY_SIDE : 0); }

/* dv_move_order (ordering hint) is inline in dvonn_order.h. */

#endif

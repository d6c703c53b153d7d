/* DVONN evaluation with named weights (dvonn_eval.c). */
#ifndef GIPF_DVONN_EVAL_H
#define GIPF_DVONN_EVAL_H

#include "dvonn.h"
#include "eval_weights.h"

/* name, default, meaning.  Placement terms are in points per piece; stacking terms
 * (field .. enemy_height_in_reach) in 1/64 point, summed per side then divided by 64
 * as one; the cut and capture terms in points per piece of the cut or the target. */
#define DV_WEIGHTS(X) \
    X(place_red_adjacent, 51, "placement: own piece next to a red piece") \
    X(place_red_near, 19, "placement: own piece two steps from the nearest red") \
    X(place_red_distance, 29, "placement: minus per step of mean distance to the reds, per piece") \
    X(place_clump, -8, "placement: minus per missing non-own neighbour below two") \
    X(place_edge, 15, "placement: own piece on the edge") \
    X(place_own_nbr, -2, "placement: per own neighbour of each own piece (a pair counts twice)") \
    X(place_red_majority, 44, "placement: per red with more own than enemy neighbours") \
    DV_PLACE_TABLE(X) \
    X(field, 122, "stacking: field value of each own stack (64 + 64/4^d per red at distance d)") \
    X(height_on_red, -45, "stacking: per piece of an own stack holding a red") \
    X(height_near_red, 224, "stacking: per piece of an own stack with field >= 80, red-free") \
    X(height_far, -249, "stacking: per piece of an own stack with field < 80, red-free") \
    X(landing, 16, "stacking: field value of each landing point of an own stack") \
    X(landing_on_red, 14, "stacking: field value of a red stack a mobile own stack reaches") \
    X(landing_on_enemy, 23, "stacking: field value of an enemy stack a mobile own stack reaches") \
    X(enemy_height_in_reach, 27, "stacking: per piece of an enemy stack a mobile own stack reaches") \
    X(cut_now, 28, "per piece of the best cut-off the side to act can make now") \
    X(cut_next, 43, "per piece of the best cut-off the opponent threatens") \
    X(tempo, 151, "stacking: the side to act (it moves first: damps the odd/even swing)") \
    X(mobile_stacks, -15, "stacking: per own stack that can move now (move-count parity, the last moves)") \
    X(stuck_pieces, 25, "stacking: per piece in an own stack with nowhere to land, ever (cells only empty)") \
    X(capture_now, -3, "stacking: per piece of the tallest enemy stack the side to act can land on") \
    X(capture_next, 9, "stacking: per piece of the tallest stack of the side to act its opponent can land on") \
    X(order_policy, 0, "search: 1 = stacking moves ordered by the learned terms of dvonn_order.h") \
    DV_STACK_TABLE(X)

/* Placement: a value per own piece by how near the reds it is (next to one / two steps / farther),
 * whether it is on the edge (able to move when stacking starts) and how many own pieces are its
 * neighbours (0 .. 2, 3 for 3 or more). Points per piece. */
#define DV_PLACE_CLASSES(X, where, ws, d0, d1, d2, d3, d4, d5, d6, d7) \
    X(place_##where##_inner_own0, d0, "placement: own piece " ws ", inside, no own neighbour") \
    X(place_##where##_inner_own1, d1, "placement: own piece " ws ", inside, one own neighbour") \
    X(place_##where##_inner_own2, d2, "placement: own piece " ws ", inside, two own neighbours") \
    X(place_##where##_inner_own3, d3, "placement: own piece " ws ", inside, three or more own neighbours") \
    X(place_##where##_edge_own0, d4, "placement: own piece " ws ", on the edge, no own neighbour") \
    X(place_##where##_edge_own1, d5, "placement: own piece " ws ", on the edge, one own neighbour") \
    X(place_##where##_edge_own2, d6, "placement: own piece " ws ", on the edge, two own neighbours") \
    X(place_##where##_edge_own3, d7, "placement: own piece " ws ", on the edge, three or more own neighbours")
/* defaults per distance: inside with 0, 1, 2, 3+ own neighbours, then on the edge with 0, 1, 2, 3+ */
#define DV_PLACE_TABLE(X) \
    DV_PLACE_CLASSES(X, adj, "next to a red", -54, -29, -11, 8, 16, 42, 39, 42) \
    DV_PLACE_CLASSES(X, near, "two steps from the nearest red", -48, -20, -11, 9, 14, 24, 11, 13) \
    DV_PLACE_CLASSES(X, far, "farther from the reds", -37, -17, -12, -15, -53, -29, -29, -29)

/* A value per piece of each own stack by its height (1 .. 5, 6 for 6 and more), where it stands
 * (holding a red / next to one / two steps from one / farther) and whether it can move now: the
 * worth of a piece is far from linear in its stack's height. Points per piece. */
#define DV_STACK_CLASSES(X, h, hs, d0, d1, d2, d3, d4, d5, d6, d7) \
    X(stack_h##h##_red_still, d0, "stacking: per piece of an own stack of height " hs ", holding a red, unable to move") \
    X(stack_h##h##_red_mobile, d1, "stacking: per piece of an own stack of height " hs ", holding a red, mobile") \
    X(stack_h##h##_adj_still, d2, "stacking: per piece of an own stack of height " hs ", next to a red, unable to move") \
    X(stack_h##h##_adj_mobile, d3, "stacking: per piece of an own stack of height " hs ", next to a red, mobile") \
    X(stack_h##h##_near_still, d4, "stacking: per piece of an own stack of height " hs ", two steps from a red, unable to move") \
    X(stack_h##h##_near_mobile, d5, "stacking: per piece of an own stack of height " hs ", two steps from a red, mobile") \
    X(stack_h##h##_far_still, d6, "stacking: per piece of an own stack of height " hs ", farther from the reds, unable to move") \
    X(stack_h##h##_far_mobile, d7, "stacking: per piece of an own stack of height " hs ", farther from the reds, mobile")
/* defaults per height: red still, red mobile, next to a red still / mobile, two steps still / mobile,
 * farther still / mobile (a height-1 stack never holds a red) */
#define DV_STACK_TABLE(X) \
    DV_STACK_CLASSES(X, 1, "1", 0, 0, 8, 27, -3, 14, -15, -34) \
    DV_STACK_CLASSES(X, 2, "2", -81, -13, -37, -7, -1, 5, -14, -11) \
    DV_STACK_CLASSES(X, 3, "3", -28, -9, -5, -9, 16, 9, 14, 7) \
    DV_STACK_CLASSES(X, 4, "4", -6, -11, -4, -7, 12, 2, 7, 9) \
    DV_STACK_CLASSES(X, 5, "5", -8, -6, 8, 0, 14, 7, 19, 8) \
    DV_STACK_CLASSES(X, 6, "6 or more", 9, 4, 16, 4, 27, -7, 18, 0)

#define DV_WEIGHT_INDEX(name, deflt, help) DVW_##name,
DECLARE_WEIGHTS(DV_WEIGHTS, DV_WEIGHT_INDEX, DV_NWEIGHTS, DvWeights, DvWeightSet)

extern DvWeightSet dv_weights;              /* current values */
extern const WeightInfo DV_WEIGHT_INFO[DV_NWEIGHTS];

/* Static evaluation (as dv_eval) and each weight's share of it per colour:
 * terms[2*i + c] = what weight i adds for colour c (0 White, 1 Black), in points. */
int dv_eval_terms(const DvPos *p, double *terms);

void dv_eval_init(void);  /* once, after dv_global_init (the geometry) */

#endif

/* TZAAR evaluation with named weights (tzaar_eval.c). */
#ifndef GIPF_TZAAR_EVAL_H
#define GIPF_TZAAR_EVAL_H

#include "tzaar.h"
#include "eval_weights.h"

/* name, default, meaning.  "a whole turn" = the side to act still has both actions
 * (phase 1); otherwise it has one action left before the opponent's whole turn. */
#define TZ_WEIGHTS(X) \
    X(type_count, 133, "percent of the value of n visible stacks of a type (400, 600, 733 ...)") \
    X(height, 8, "height bonus of a type's stacks, x scarcity of the type / 16") \
    X(safe_type, 87, "a type whose tallest stack is taller than every enemy stack") \
    X(safe_type_scarce, 58, "the same, divided by the type's visible count") \
    X(tall_gap, 42, "otherwise per piece the type's tallest stack is taller than the enemy's") \
    X(all_safe, 1441, "all three types safe") \
    X(captures, 622, "percent of the value of the capture actions available (0 loses)") \
    X(stackings, -4, "per stacking action available") \
    X(attack_pair_turn, 6664, "side to act, a whole turn: an enemy type's two stacks all attacked") \
    X(attack_pair_last, 500, "side to act, one action: an enemy type's two stacks all attacked") \
    X(attack_triple_turn, 349, "side to act, a whole turn: an enemy type's three stacks all attacked") \
    X(attack_triple_last, 133, "side to act, one action: an enemy type's three stacks all attacked") \
    X(danger_last_turn, 174, "opponent attacks a type's last stack, side to act has a whole turn") \
    X(danger_last_last, 1000, "opponent attacks a type's last stack, side to act has one action") \
    X(danger_pair_turn, 127, "opponent attacks both stacks of a type, side to act has a whole turn") \
    X(danger_pair_last, 500, "opponent attacks both stacks of a type, side to act has one action") \
    X(danger_triple, 181, "opponent attacks all three stacks of a type") \
    X(danger_partial, 10, "per attacked stack of a type with at most three, not all attacked") \
    X(best_target_now, -2, "percent of the best stack the side to act can capture") \
    X(best_target_next, 3, "percent of the best stack the opponent can capture") \
    X(tempo_turn, 320, "side to act has a whole turn") \
    X(tempo_last, 310, "side to act has one action left") \
    X(exposed_to_act, 95, "minus per own stack the enemy can capture, x its type's scarcity /100: side to act, a whole turn") \
    X(exposed_waiting, 101, "the same for the other side, while the side to act has a whole turn") \
    X(exposed_last_to_act, 107, "the same for the side to act with one action left") \
    X(exposed_last_waiting, 94, "the same for the other side, while the side to act has one action left") \
    X(exposed_height_to_act, 27, "minus per piece under the top of each own stack the enemy can capture, side to act") \
    X(exposed_height_waiting, 140, "the same for the other side") \
    X(exposed_twice, 14, "minus per own stack two or more enemy stacks can capture") \
    X(central_tall, 17, "per own stack of height >= 2, per ring it stands inside the board edge") \
    X(order_reduce_captures, 1, "move order, not evaluation: captures of low stacks of common types may be reduced late (0 = off, 1 = on)") \
    TZ_STACK_TABLE(X)

/* The stack table: points per own stack by its type's visible count (1, 2, 3, 4-6, 7 or more),
 * its height (1, 2, 3, 4 or more) and whether an enemy stack can capture it now.  Entry
 * TZW_stack_n1_h1_safe + 8 x count bucket + 2 x height bucket + (capturable). */
#define TZ_STACK_HEIGHT(X, n, ns, h, hs, safe, exposed) \
    X(stack_n##n##_h##h##_safe, safe, "per own stack of a type with " ns " visible, height " hs ", no enemy stack can capture it") \
    X(stack_n##n##_h##h##_exposed, exposed, "per own stack of a type with " ns " visible, height " hs ", an enemy stack can capture it")
#define TZ_STACK_CLASSES(X, n, ns, d0, d1, d2, d3, d4, d5, d6, d7) \
    TZ_STACK_HEIGHT(X, n, ns, 1, "1", d0, d1) \
    TZ_STACK_HEIGHT(X, n, ns, 2, "2", d2, d3) \
    TZ_STACK_HEIGHT(X, n, ns, 3, "3", d4, d5) \
    TZ_STACK_HEIGHT(X, n, ns, 4, "4 or more", d6, d7)
/* defaults per visible count, fitted on self-play (docs/strength.md): height 1 safe, exposed, height 2 safe,
 * exposed, height 3 ..., height 4 or more ... */
#define TZ_STACK_TABLE(X) \
    TZ_STACK_CLASSES(X, 1, "1", 14, 828, -180, -125, -59, 187, 40, 60) \
    TZ_STACK_CLASSES(X, 2, "2", -132, 78, -171, -24, -4, -75, 48, -63) \
    TZ_STACK_CLASSES(X, 3, "3", -61, 33, -96, -69, 99, -8, 148, 265) \
    TZ_STACK_CLASSES(X, 4, "4 to 6", -32, 12, -21, -62, 165, 74, 260, 340) \
    TZ_STACK_CLASSES(X, 7, "7 or more", -16, 9, 22, -31, 241, 178, 385, 1001)

#define TZ_WEIGHT_INDEX(name, deflt, help) TZW_##name,
DECLARE_WEIGHTS(TZ_WEIGHTS, TZ_WEIGHT_INDEX, TZ_NWEIGHTS, TzWeights, TzWeightSet)

extern TzWeightSet tz_weights;              /* current values */
extern const WeightInfo TZ_WEIGHT_INFO[TZ_NWEIGHTS];
void tz_eval_init(void);                    /* once, after tz_global_init */
/* Static evaluation (as tz_eval) and each weight's share of it per colour:
 * terms[2*i + c] = what weight i adds for colour c (0 White, 1 Black). */
int tz_eval_terms(const TzPos *p, double *terms);

#endif

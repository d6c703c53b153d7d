/* What a late move costs: late-move pruning drops it, a late-move reduction searches it
 * shallower first.  Both act only on quiet moves (movepick.inc, MOVE_QUIET) after the first. */
#ifndef GIPF_REDUCE_H
#define GIPF_REDUCE_H

#include "search_params.h"

/* Late-move pruning: near the horizon, outside the PV, a quiet move at index i (in the
 * picker's order) after search_lmp x depth others is not searched, unless every move so far
 * lost by force (best, the best score so far, is a proven loss). */
static inline int late_move_pruned(const SearchTuning *tu, int pvnode, int depth, int i, int quiet,
                                   int best, int proven_loss)
{
    return tu->search_lmp && !pvnode && depth <= tu->search_lmp_depth && quiet &&
           i >= tu->search_lmp * depth && best > proven_loss;
}

/* Late-move reduction: plies less for a quiet move at index i, searching a child at depth
 * `child_depth` (which keeps at least one ply). */
static inline int late_move_reduction(const SearchTuning *tu, int depth, int i, int quiet, int child_depth)
{
    if (depth < tu->search_lmr_min_depth || i < tu->search_lmr_min_move || !quiet) return 0;
    int r = tu->search_lmr_base / 100;
    return r > child_depth - 1 ? (child_depth - 1 > 0 ? child_depth - 1 : 0) : r;
}

#endif

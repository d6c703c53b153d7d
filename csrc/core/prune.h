/* The pruning before a node's moves, for game_impl.h's instantiation of the search: reverse
 * futility (search_rfp) and the null move (search_nullmove).  Only outside the PV and away
 * from proven scores; a node that may prune evaluates before anything else. */

#define PRUNE_RFP 1
#define PRUNE_NULL 2

/* The cuts this node may try before its moves (PRUNE_* bits; 0: none). */
static inline int S(prunable)(const S(Thread) *t, const S(Node) *nd)
{
    const SearchTuning *tu = &t->sh->tu;
    if (nd->pvnode || nd->beta <= -SCORE_EVAL_MAX || nd->beta >= SCORE_EVAL_MAX) return 0;
    int rfp = tu->search_rfp && nd->depth <= tu->search_rfp_depth;
    int null = tu->search_nullmove && nd->depth >= 2 && t->played[nd->ply] != MOVE_NULL;
    return (rfp ? PRUNE_RFP : 0) | (null ? PRUNE_NULL : 0);
}

/* With the static score e: 1 and the node's value in *v when it is cut (0 when the search
 * stopped meanwhile), else 0.  Reverse futility: near the horizon a static score that beats
 * beta by a margin per remaining ply is trusted.  Null move: if passing the turn still holds
 * beta at a reduced depth, a move will too (not twice in a row; only where the game imagines
 * a pass). */
static inline int S(prune_before_moves)(S(Thread) *t, const S(Node) *nd, int prune, int e, int *v)
{
    const SearchTuning *tu = &t->sh->tu;
    int margin = tu->search_rfp * nd->depth;
    if ((prune & PRUNE_RFP) && e - margin >= nd->beta) {
        *v = e - margin;
        return 1;
    }
    POS c;
    if (!(prune & PRUNE_NULL) || e < nd->beta || !G(null_move)(nd->p, &c)) return 0;
    int cp = 0;
    t->played[nd->ply + 1] = MOVE_NULL;
    int s = -S(node)(t, &c, -nd->beta, -nd->beta + 1, nd->depth - 1 - tu->search_nullmove, nd->ply + 1, &cp);
    *v = t->stopped ? 0 : s;
    return t->stopped || (s >= nd->beta && s < SCORE_EVAL_MAX);
}

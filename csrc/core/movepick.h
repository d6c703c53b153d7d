/* The move picker, for game_impl.h's instantiation of the search: the order a node tries its
 * moves in.  The hash move first; then by the game's ordering hint (<p>_move_order, 0..1000,
 * CONTRACT.md), the killers of the ply as if their hint were 500 and 400 higher, and the
 * thread's history (history.h) to break ties within a hint.  pick_next (common.h) then takes
 * the moves one at a time, best first. */

#define ORDER_HINT_SCALE 4096             /* a hint step outweighs any history score */
#define ORDER_TT_MOVE (1 << 30)
#define ORDER_UNREDUCED (200 * ORDER_HINT_SCALE)

/* A move neither reduced nor pruned late (reduce.h) is one with a hint of 200 or more (the
 * games' captures and other forcing moves) or the hash move. */
#define MOVE_QUIET(score) ((score) < ORDER_UNREDUCED)

static inline void S(score_moves)(const History *h, const POS *p, const uint32_t *moves, int32_t *sc,
                                  int n, uint32_t ttmove, int ply, int side)
{
    uint32_t k0 = h->killers[ply][0], k1 = h->killers[ply][1];
    for (int i = 0; i < n; i++) {
        uint32_t m = moves[i];
        if (m == ttmove) {
            sc[i] = ORDER_TT_MOVE;
            continue;
        }
        sc[i] = G(move_order)(p, m) * ORDER_HINT_SCALE + history_score(h, side, m);
        if (m == k0) sc[i] += 500 * ORDER_HINT_SCALE;
        else if (m == k1) sc[i] += 400 * ORDER_HINT_SCALE;
    }
}

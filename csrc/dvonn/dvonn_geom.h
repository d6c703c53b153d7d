/* DVONN geometry shared by the board (dvonn.c) and the evaluation (dvonn_eval.c).
 * Filled once by dv_global_init; bits of the padded 11x5 grid as in dvonn.h. */
#ifndef GIPF_DVONN_GEOM_H
#define GIPF_DVONN_GEOM_H

#include "dvonn.h"

/* Hidden: read directly, not through the shared library's symbol table. */
#pragma GCC visibility push(hidden)
extern uint64_t VALID, INNER, NCOL0, NCOL10;
extern int8_t BIT2IDX[64];
extern int8_t IDX2BIT[DV_POINTS];
extern uint8_t DIST[DV_BITS][DV_BITS];
extern uint64_t LAND[DV_BITS][12];     /* landing points at distance h (h <= 10; 11: none) */
extern uint64_t NBR[DV_BITS];
/* LAND_CELLS[b][h]: LAND[b][h]'s points in bit order, padded with 63 (never occupied), so a
 * stack's landing points are six loads without a data-dependent loop; h = 11 stands for any
 * taller stack (none). */
extern uint8_t LAND_CELLS[DV_BITS][12][8];
#pragma GCC visibility pop

/* Cells adjacent to any cell of x (x itself included). */
static inline uint64_t spread(uint64_t x)
{
    return (x | ((x << 1) & NCOL0) | ((x >> 1) & NCOL10) | (x << 11) | (x >> 11) |
            ((x << 12) & NCOL0) | ((x >> 12) & NCOL10)) & VALID;
}

/* The cells of occ adjacent to a cell of x or in x, for x and occ on the board: there no
 * shift wraps onto a board cell that is not a neighbour, so the flood fills need no masks. */
static inline uint64_t spread_in(uint64_t x, uint64_t occ)
{
    return (x | x << 1 | x >> 1 | x << 11 | x >> 11 | x << 12 | x >> 12) & occ;
}

/* Occupied cells whose occupied neighbours form two or more separate arcs: emptying
 * such a cell may split the board.  For all cells at once: in cyclic direction order,
 * count the directions where an occupied neighbour follows an empty (or missing) one. */
static inline uint64_t cut_cells(uint64_t occ)
{
    uint64_t nb[6] = {(occ >> 1) & NCOL10, (occ >> 12) & NCOL10, occ >> 11,
                      (occ << 1) & NCOL0, (occ << 12) & NCOL0, occ << 11};
    uint64_t ones = 0, twos = 0;
    for (int i = 0; i < 6; i++) {
        uint64_t start = nb[i] & ~nb[(i + 5) % 6];
        twos |= ones & start;
        ones |= start;
    }
    return twos & occ;
}

/* Occupied cells whose six neighbours all exist and are occupied. */
static inline uint64_t surrounded(uint64_t occ)
{
    return occ & INNER & (occ >> 1) & (occ << 1) & (occ >> 11) & (occ << 11) &
           (occ >> 12) & (occ << 12);
}

#endif

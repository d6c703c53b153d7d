/* DVONN for the core: the shared search and solver compiled for DvPos, and the GameOps table
 * dvonn_game (core/games.c lists it). */
#define _POSIX_C_SOURCE 200809L
#include "dvonn.h"
#include "dvonn_eval.h"
#include "dvonn_order.h"

/* DVONN's search parameters (names and meanings: SEARCH_TUNING in core/search.h): the
 * SPRT-confirmed settings (docs/strength.md); the rest switched off. */
#define DV_search_lmr_min_depth 3
#define DV_search_lmr_min_move 3
#define DV_search_lmr_base 100
#define DV_search_lmp 3
#define DV_search_lmp_depth 2
#define DV_search_rfp 0
#define DV_search_rfp_depth 3
#define DV_search_nullmove 2

#define GAME_NAME dvonn
#define GP dv
#define GPU DV
#define POS DvPos
#include "game_impl.h"

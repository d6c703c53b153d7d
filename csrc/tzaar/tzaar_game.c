/* TZAAR for the core: the shared search and solver compiled for TzPos, and the GameOps table
 * tzaar_game (core/games.c lists it). */
#define _POSIX_C_SOURCE 200809L
#include "tzaar.h"
#include "tzaar_eval.h"

/* TZAAR's search parameters (names and meanings: SEARCH_TUNING in core/search.h): the
 * SPRT-confirmed settings (docs/strength.md); the rest switched off. */
#define TZ_search_lmr_min_depth 3
#define TZ_search_lmr_min_move 3
#define TZ_search_lmr_base 100
#define TZ_search_lmp 0
#define TZ_search_lmp_depth 2
#define TZ_search_rfp 300
#define TZ_search_rfp_depth 3
#define TZ_search_nullmove 0

#define GAME_NAME tzaar
#define GP tz
#define GPU TZ
#define POS TzPos
#include "game_impl.h"

/* TZAAR for the core: the shared search and solver compiled for TzPos, and the GameOps table
 * tzaar_game (core/games.c lists it). */
#define _POSIX_C_SOURCE 200809L
#include "tzaar.h"
#include "tzaar_eval.h"

/* The search parameters TZAAR changes from the shared defaults (search_params.h), each
 * kept by an SPRT (docs/strength.md, "What is kept"). */
#define GAME_SEARCH_VALUES(X) X(search_rfp, 300)

#define GAME_NAME tzaar
#define GP tz
#define GPU TZ
#define POS TzPos
#include "game_impl.h"

/* DVONN for the core: the shared search and solver compiled for DvPos, and the GameOps table
 * dvonn_game (core/games.c lists it). */
#define _POSIX_C_SOURCE 200809L
#include "dvonn.h"
#include "dvonn_eval.h"
#include "dvonn_order.h"

/* The search parameters DVONN changes from the shared defaults (search_params.h), each
 * kept by an SPRT (docs/strength.md, "What is kept"). */
#define GAME_SEARCH_VALUES(X) X(search_lmp, 3) X(search_nullmove, 4) X(search_next_iteration, 60)

#define GAME_NET
#define GAME_NAME dvonn
#define GP dv
#define GPU DV
#define POS DvPos
#include "game_impl.h"

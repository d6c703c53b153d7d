/* Instantiates the game-independent code named by PER_GAME_IMPL once per game, with GP (the
 * game's function prefix), POS (its position type) and MAXMOVES set, so the search and the
 * solver list the games in one place.  No include guard: search.c and solve.c each include it once. */
#ifndef PER_GAME_IMPL
#error "define PER_GAME_IMPL (the header to instantiate) before including per_game.h"
#endif

#define GP dv
#define POS DvPos
#define MAXMOVES DV_MAX_MOVES
#include PER_GAME_IMPL
#undef GP
#undef POS
#undef MAXMOVES

#define GP tz
#define POS TzPos
#define MAXMOVES TZ_MAX_MOVES
#include PER_GAME_IMPL
#undef GP
#undef POS
#undef MAXMOVES

#undef PER_GAME_IMPL

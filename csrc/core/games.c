/* The registry of games: a game's number in the API is its index here (engine/core.py finds
 * it by name through core_game).  Adding a game: its folder with a <game>_game.c that
 * includes game_impl.h, its line here, its source files in engine/_core_build.py. */
#include "game_ops.h"

extern const GameOps dvonn_game, tzaar_game;

const GameOps *const GAMES[] = {&dvonn_game, &tzaar_game};
const int NGAMES = (int)(sizeof GAMES / sizeof *GAMES);

/* The registry of games: a game's number in the API is its index here (engine/core.py finds
 * it by name through core_game).  Adding a game: its folder csrc/<game>/ with a <game>_game.c
 * that includes game_impl.h, and its line here; engine/_core_build.py finds and compiles
 * every C file of each csrc folder by itself (docs/adding-a-game.md). */
#include "game_ops.h"

extern const GameOps dvonn_game, tzaar_game;

const GameOps *const GAMES[] = {&dvonn_game, &tzaar_game};
const int NGAMES = (int)(sizeof GAMES / sizeof *GAMES);

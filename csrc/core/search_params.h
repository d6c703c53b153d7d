/* The search's parameters, each declared once here: name, range, shared default, meaning.
 * Every game gets its own set (listed by `weights` as <game>.search_*, changed between
 * searches); a game names only the values it changes, in its <game>_game.c
 * (GAME_SEARCH_VALUES).  A parameter stays only while it is on by default in some game
 * (docs/contributing.md, "Experiments").  Values outside the range are clamped where a search
 * starts.  Reductions are in 1/100 ply. */
#ifndef GIPF_SEARCH_PARAMS_H
#define GIPF_SEARCH_PARAMS_H

#include "eval_weights.h"

/* X(name, low, high, default, help) */
#define SEARCH_PARAMS(X) \
    X(search_lmr_min_depth, 1, 20, 3, "reduce late quiet moves from this remaining depth") \
    X(search_lmr_min_move, 1, 100, 3, "... from this move index on") \
    X(search_lmr_base, 0, 400, 100, "reduction of a late quiet move, 1/100 ply") \
    X(search_lmp, 0, 100, 0, "late-move pruning near the horizon outside the PV: quiet moves after this many x depth; 0 = off") \
    X(search_lmp_depth, 1, 6, 2, "... at remaining depths up to this") \
    X(search_rfp, 0, 100000, 0, "reverse futility: outside the PV, a static score this much per ply above beta cuts; 0 = off") \
    X(search_rfp_depth, 1, 20, 3, "... at remaining depths up to this") \
    X(search_nullmove, 0, 6, 0, "null-move pruning: depth reduction of the imagined pass, only where the game imagines one; 0 = off") \
    X(search_nullmove_depth, 1, 20, 2, "... at remaining depths from this") \
    X(search_killer_first, 0, 1000, 500, "move order: a ply's first killer as if its hint were this much higher (200 and more: never reduced)") \
    X(search_killer_second, 0, 1000, 400, "... its second killer") \
    X(search_next_iteration, 0, 100, 45, "a timed search starts no iteration after this % of the move's time")

#define SEARCH_PARAM_INDEX(name, low, high, deflt, help) SP_##name,
#define SEARCH_PARAM_FIELD(name, low, high, deflt, help) int name;
enum { SEARCH_PARAMS(SEARCH_PARAM_INDEX) SEARCH_NPARAMS };
typedef struct { SEARCH_PARAMS(SEARCH_PARAM_FIELD) } SearchTuning;
typedef union { SearchTuning w; int v[SEARCH_NPARAMS]; } SearchTuningSet;

/* A game's own value of one parameter: GAME_SEARCH_VALUES(X) lists X(name, value). */
typedef struct {
    int index;
    int value;
} SearchValue;
#define SEARCH_VALUE(name, value) {SP_##name, value},

/* The shared table (search.c): names, ranges, shared defaults and meanings (the range is
 * appended to each meaning: "... (0..400)"). */
extern const WeightInfo SEARCH_PARAM_INFO[SEARCH_NPARAMS];

/* A game's parameters from the shared defaults and its own values: the set and its table of
 * names and defaults (info[i].deflt the game's default). */
void search_params_init(SearchTuningSet *set, WeightInfo *info, const SearchValue *own, int nown);

/* The parameters as one search reads them: each clamped to its range. */
SearchTuning search_params_clamped(const SearchTuning *set);

#endif

/* The search's game-independent pieces: its parameters' table (search_params.h); the search
 * itself is compiled per game (game_impl.h). */
#include "search.h"

#include <string.h>

#define STR_(a) #a
#define STR(a) STR_(a)
#define SEARCH_PARAM_INFO_ROW(name, low, high, deflt, help) \
    [SP_##name] = {#name, deflt, help " (" STR(low) ".." STR(high) ")", low, high},
const WeightInfo SEARCH_PARAM_INFO[SEARCH_NPARAMS] = {SEARCH_PARAMS(SEARCH_PARAM_INFO_ROW)};

void search_params_init(SearchTuningSet *set, WeightInfo *info, const SearchValue *own, int nown)
{
    memcpy(info, SEARCH_PARAM_INFO, sizeof SEARCH_PARAM_INFO);
    for (int i = 0; i < nown; i++) info[own[i].index].deflt = own[i].value;
    for (int i = 0; i < SEARCH_NPARAMS; i++) set->v[i] = info[i].deflt;
}

SearchTuning search_params_clamped(const SearchTuning *set)
{
    SearchTuningSet tu = {.w = *set};
    for (int i = 0; i < SEARCH_NPARAMS; i++) {
        const WeightInfo *w = &SEARCH_PARAM_INFO[i];
        tu.v[i] = tu.v[i] < w->low ? w->low : tu.v[i] > w->high ? w->high : tu.v[i];
    }
    return tu.w;
}

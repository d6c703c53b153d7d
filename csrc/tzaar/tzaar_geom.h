/* TZAAR tables and helpers of the board (tzaar.c) that the evaluation (tzaar_eval.c) reads too:
 * both include this header, so neither includes the other's.  Filled once by tz_global_init. */
#ifndef GIPF_TZAAR_GEOM_H
#define GIPF_TZAAR_GEOM_H

#include "tzaar.h"

/* Hidden: read directly, not through the shared library's symbol table. */
#pragma GCC visibility push(hidden)
extern const int16_t TZ_HEIGHT_BONUS[32];   /* per height, summed per type in TzPos.hsum */
extern uint64_t TZ_RING[5];                 /* points at hex distance r from the centre */
/* stacks of colour c able to capture some stack of mask m */
uint64_t tz_attackers(const TzPos *p, uint64_t m, int c);
#pragma GCC visibility pop

#endif

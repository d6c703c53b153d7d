/* Monotonic time in ns and saturating arithmetic on it, for the search and the solver.
 * Include after defining _POSIX_C_SOURCE (clock_gettime). */
#ifndef GIPF_CLOCK_NS_H
#define GIPF_CLOCK_NS_H

#include <stdint.h>
#include <time.h>

static inline int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The protocol accepts 15-digit millisecond counts: saturate rather than overflow. */
static inline int64_t ms_to_ns(int64_t ms)
{
    return ms <= 0 ? 0 : ms >= INT64_MAX / 1000000 ? INT64_MAX : ms * 1000000;
}

static inline int64_t sat_add_ns(int64_t a, int64_t b)
{
    return b > INT64_MAX - a ? INT64_MAX : a + b;
}

#endif

/* Named evaluation weights: one X-macro table per game gives the struct fields,
 * their indexes, names, defaults and one-line meanings (dvonn_eval.c, tzaar_eval.c).
 *
 * The weights are the core's only mutable global state: the caller changes them
 * between searches (core_weight_set takes the search lock), never during one. */
#ifndef GIPF_EVAL_WEIGHTS_H
#define GIPF_EVAL_WEIGHTS_H

#define WEIGHT_LIMIT 1000000  /* |a weight| at most this (CORE_WEIGHT_MAX) */

typedef struct {
    const char *name;
    int deflt;
    const char *help;
    int low, high;  /* the values that take effect: the search's parameters are clamped */
} WeightInfo;

#define WEIGHT_FIELD(name, deflt, help) int name;
#define WEIGHT_DEFAULT(name, deflt, help) deflt,
#define WEIGHT_INFO(name, deflt, help) {#name, deflt, help, -WEIGHT_LIMIT, WEIGHT_LIMIT},

/* From a table: the indexes (INDEX(name, deflt, help) gives one enumerator) and their
 * count N, the struct of named fields, and a union to reach them by index. */
#define DECLARE_WEIGHTS(TABLE, INDEX, N, Struct, Set) \
    enum { TABLE(INDEX) N };                          \
    typedef struct { TABLE(WEIGHT_FIELD) } Struct;    \
    typedef union { Struct w; int v[N]; } Set;

#endif

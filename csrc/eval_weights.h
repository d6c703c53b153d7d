/* Named evaluation weights: one X-macro table per game gives the struct fields,
 * their indexes, names, defaults and one-line meanings (dvonn_eval.c, tzaar_eval.c).
 *
 * The weights are the core's only mutable global state: the caller changes them
 * between searches (core_weight_set takes the search lock), never during one. */
#ifndef GIPF_EVAL_WEIGHTS_H
#define GIPF_EVAL_WEIGHTS_H

typedef struct {
    const char *name;
    int deflt;
    const char *help;
} WeightInfo;

#define WEIGHT_FIELD(name, deflt, help) int name;
#define WEIGHT_DEFAULT(name, deflt, help) deflt,
#define WEIGHT_INFO(name, deflt, help) {#name, deflt, help},

#endif

/* The DVONN evaluation's small network (dvonn_net.c), trained by scripts/train_net as a residual
 * on the hand-written terms. */
#ifndef GIPF_DVONN_NET_H
#define GIPF_DVONN_NET_H

#include "dvonn.h"

/* The network's term with White (out[0]) and with Black (out[1]) to act, from the side to act's
 * view, in points at `weight` percent of its trained size. */
void dv_net_pair(const DvPos *p, int weight, int out[2]);

void dv_net_init(void);  /* from dv_eval_init, after the geometry */

#endif

"""Softmax fit of a DVONN stacking-move ordering on policy_data.pkl (raw move attributes)."""
import pickle
import sys

import numpy as np
import torch
torch.set_num_threads(1)

H = 6
data = pickle.load(open("/work/data/srch/policy_data.pkl", "rb"))
# raw: enemy, red_t, hs, ht, dt, ds, mred, nt, ns, nnbr
GROUPS = [("target height", 2 * H), ("mover height", 2 * H), ("target red dist", 8), ("mover red dist", 4),
          ("mover red", 1), ("result height", 2 * 8), ("target neighbours after", 2 * 7),
          ("source neighbours", 7), ("source cut", 2)]
NF = sum(n for _, n in GROUPS)
OFF = {}
o = 0
for name, n in GROUPS:
    OFF[name] = o
    o += n


def design(R):
    R = np.asarray(R)
    n = len(R)
    X = np.zeros((n, NF), dtype=np.float32)
    rows = np.arange(n)
    e = R[:, 0]
    hs = np.minimum(R[:, 2], H) - 1
    ht = np.minimum(R[:, 3], H) - 1
    X[rows, OFF["target height"] + e * H + ht] = 1
    X[rows, OFF["mover height"] + e * H + hs] = 1
    X[rows, OFF["target red dist"] + e * 4 + np.minimum(R[:, 4], 3)] = 1
    X[rows, OFF["mover red dist"] + np.minimum(R[:, 5], 3)] = 1
    X[rows, OFF["mover red"]] = R[:, 6]
    X[rows, OFF["result height"] + e * 8 + np.minimum(R[:, 2] + R[:, 3], 9) - 2] = 1
    # neighbours after the move; 6 on an inner point means surrounded
    nt = np.where(R[:, 9] < 6, np.minimum(R[:, 7], 5), R[:, 7])
    X[rows, OFF["target neighbours after"] + e * 7 + nt] = 1
    X[rows, OFF["source neighbours"] + np.minimum(R[:, 8], 6)] = 1
    X[rows, OFF["source cut"] + e] = R[:, 10]
    return X


def main():
    print(len(data), "positions", file=sys.stderr)
    Xs = [torch.tensor(design(X)) for X, _, _, _ in data]
    cs = [c for _, c, _, _ in data]
    split = int(len(data) * 0.8)
    # pad into one tensor for speed
    m = max(len(x) for x in Xs)
    Xp = torch.zeros(len(Xs), m, NF)
    mask = torch.full((len(Xs), m), -1e9)
    for i, x in enumerate(Xs):
        Xp[i, :len(x)] = x
        mask[i, :len(x)] = 0
    c = torch.tensor(cs)
    w = torch.zeros(NF, requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=200, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        s = Xp[:split] @ w + mask[:split]
        loss = torch.nn.functional.cross_entropy(s, c[:split]) + 1e-4 * (w * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    with torch.no_grad():
        s = Xp[split:] @ w + mask[split:]
        print("held-out loss", float(torch.nn.functional.cross_entropy(s, c[split:])))
        chosen = s[torch.arange(len(s)), c[split:]]
        rank = ((s > chosen[:, None]).sum(1)).float()
        print("learned top1 %.3f mean rank %.2f" % (float((rank == 0).float().mean()), float(rank.mean())))
        old = torch.full((len(Xs) - split, m), -1e9)
        for i, (_, _, o, _) in enumerate(data[split:]):
            old[i, :len(o)] = torch.tensor(o, dtype=torch.float32)
        oc = old[torch.arange(len(old)), c[split:]]
        orank = (old > oc[:, None]).sum(1).float() + 0.5 * ((old == oc[:, None]).sum(1).float() - 1)
        print("old hint top1(strict) %.3f mean rank %.2f" % (float(((old > oc[:, None]).sum(1) == 0).float().mean()), float(orank.mean())))
    wv = w.detach().numpy()
    for name, n in GROUPS:
        print(name, " ".join("%.2f" % x for x in wv[OFF[name]:OFF[name] + n]))
    np.save("/work/data/srch/fit_w.npy", wv)


main()

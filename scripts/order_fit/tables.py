"""Write the fitted ordering terms (fit_w.npy, fit.py's groups) into dvonn_order.h."""
import numpy as np
w = np.load("/work/data/srch/fit_w.npy")
q = [int(round(x * 40)) for x in w]
groups = [("DV_ORDER_TARGET_HEIGHT", "[2][6]", 12), ("DV_ORDER_MOVER_HEIGHT", "[2][6]", 12),
          ("DV_ORDER_TARGET_RED_DIST", "[2][4]", 8), ("DV_ORDER_MOVER_RED_DIST", "[4]", 4),
          ("DV_ORDER_MOVER_RED", "", 1), ("DV_ORDER_RESULT_HEIGHT", "[2][8]", 16),
          ("DV_ORDER_TARGET_NEIGHBOURS", "[2][7]", 14), ("DV_ORDER_SOURCE_NEIGHBOURS", "[7]", 7),
          ("DV_ORDER_SOURCE_CUT", "[2]", 2)]
out, o = [], 0
for name, shape, n in groups:
    v = q[o:o + n]
    o += n
    if shape == "":
        body = str(v[0])
    elif shape.startswith("[2]") and n > 2:
        h = n // 2
        body = "{{%s}, {%s}}" % (", ".join(map(str, v[:h])), ", ".join(map(str, v[h:])))
    else:
        body = "{%s}" % ", ".join(map(str, v))
    out.append(f"static const int16_t {name}{shape} = {body};")
assert o == len(q)
tables = "\n".join(out)
p = "csrc/dvonn/dvonn_order.h"
s = open(p).read()
a, b = s.index("/* ORDER TABLES */"), s.index("/* END ORDER TABLES */")
s = s[:a] + "/* ORDER TABLES */\n" + tables + "\n" + s[b:]
open(p, "w").write(s)
print(tables)

#!/usr/bin/env python3
"""ratios.py file... : per query, medians over rounds of wall/qcpu per engine and of the per-round ratios
dop2/dop1 (wall, qcpu) and dop2/duck2 (wall); geometric means over queries. Also checks that the answer hash
is the same at every degree and round (Columba against itself; DuckDB's hash is shown when it differs)."""
import sys, re, statistics, math, collections
rows = collections.defaultdict(dict)  # (tag, q, round) -> engine -> fields
for f in sys.argv[1:]:
    for line in open(f):
        p = line.split()
        if len(p) < 5 or not p[1].startswith('r'): continue
        tag, r, q, eng = p[0], p[1], p[2], p[3]
        kv = dict(zip(p[4::2], p[5::2]))
        rows[(tag, q)].setdefault(r, {})[eng] = kv
med = statistics.median
print('| tag | query | wall dop1 ms | wall dop2 ms | DuckDB 2 thr ms | **wall 2÷1** | qcpu dop1 ms | qcpu dop2 ms | **qcpu 2÷1** | Columba dop2 ÷ DuckDB | faults dop1 / dop2 (k) | qsys dop2 ms | load | answers |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
geo = collections.defaultdict(list)
for (tag, q) in sorted(rows):
    rs = rows[(tag, q)]
    d1 = [x['dop1'] for x in rs.values() if 'dop1' in x]
    k2 = [k for k in next(iter(rs.values())) if k.startswith('dop') and k != 'dop1'][0]
    d2 = [x[k2] for x in rs.values() if k2 in x]
    dk = [x['duck2'] for x in rs.values() if 'duck2' in x]
    w = lambda L, f: med([float(x[f]) for x in L]) if L else float('nan')
    wr = med([float(x[k2]['wall']) / float(x['dop1']['wall']) for x in rs.values()])
    cr = med([float(x[k2]['qcpu']) / float(x['dop1']['qcpu']) for x in rs.values()])
    duckr = med([float(x[k2]['wall']) / float(x['duck2']['wall']) for x in rs.values()]) if dk else float('nan')
    hashes = {x[e]['hash'] for x in rs.values() for e in ('dop1', k2)}
    ok = 'same' if len(hashes) == 1 else 'DIFFER ' + ','.join(hashes)
    loads = [float(x['dop1']['load']) for x in rs.values()]
    geo[tag, 'wall'].append(wr); geo[tag, 'cpu'].append(cr)
    if dk: geo[tag, 'duck'].append(duckr)
    print(f"| {tag} | {q} | {w(d1,'wall'):.0f} | {w(d2,'wall'):.0f} | {w(dk,'wall'):.0f} | **{wr:.2f}** | {w(d1,'qcpu'):.0f} | {w(d2,'qcpu'):.0f} | **{cr:.2f}** | {duckr:.2f} | {w(d1,'faults')/1000:.0f} / {w(d2,'faults')/1000:.0f} | {w(d2,'qsys'):.0f} | {min(loads):.0f}–{max(loads):.0f} | {ok} |")
for tag in sorted({t for t, _ in geo}):
    g = lambda L: math.exp(sum(map(math.log, L)) / len(L)) if L else float('nan')
    print(f"\n{tag}: geomean wall 2÷1 {g(geo[tag,'wall']):.2f}, qcpu 2÷1 {g(geo[tag,'cpu']):.2f}, Columba dop2 ÷ DuckDB 2 threads {g(geo[tag,'duck']):.2f}")

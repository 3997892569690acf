#!/usr/bin/env python3
"""balance.py file...: per query, medians over rounds at MAXDOP 2 of: qcpu (all threads), main thread CPU, the busiest
columba thread's CPU, and two idle-machine estimates against the serial qcpu (MAXDOP 1, same round):
 lb = max(qcpu2/2, busiest thread, main) / qcpu1  -- no two-core run can beat it (CPU-bound, warm data)
 ub = (main + busiest thread) / qcpu1             -- if main's work never overlapped the workers'
Geomeans over queries; 'over100' restricts to queries whose serial qcpu median is > 100 ms."""
import sys, statistics, math, collections
rows = collections.defaultdict(dict)
for f in sys.argv[1:]:
    for line in open(f):
        p = line.split()
        if len(p) < 5 or not p[1].startswith('r'): continue
        kv = dict(zip(p[4::2], p[5::2]))
        rows[(p[0], p[2])].setdefault(p[1], {})[p[3]] = kv
med = statistics.median
print('| tag | query | qcpu dop1 | qcpu dop2 | main dop2 | busiest thread dop2 | threads (median round) | lb 2÷1 | ub 2÷1 | wall 2÷1 |')
print('|---|---|---|---|---|---|---|---|---|---|')
geo = collections.defaultdict(list)
for (tag, q) in sorted(rows):
    rs = [x for x in rows[(tag, q)].values() if 'dop1' in x and 'dop2' in x]
    lbs, ubs, busy = [], [], []
    for x in rs:
        c1 = float(x['dop1']['qcpu']); d = x['dop2']; c2 = float(d['qcpu']); m = float(d['main'])
        ws = [float(v) for v in d.get('workers', '-').split(',') if v != '-']
        b = max(ws) if ws else 0.0
        busy.append(b)
        lbs.append(max(c2 / 2, b, m) / c1); ubs.append((m + b) / c1)
    c1 = med([float(x['dop1']['qcpu']) for x in rs]); c2 = med([float(x['dop2']['qcpu']) for x in rs])
    mid = sorted(rs, key=lambda x: float(x['dop2']['qcpu']))[len(rs) // 2]['dop2'].get('workers', '-')
    wr = med([float(x['dop2']['wall']) / float(x['dop1']['wall']) for x in rs])
    lb, ub = med(lbs), med(ubs)
    geo[tag, 'lb'].append(lb); geo[tag, 'ub'].append(ub)
    if c1 > 100: geo[tag, 'lb100'].append(lb); geo[tag, 'ub100'].append(ub)
    print(f"| {tag} | {q} | {c1:.0f} | {c2:.0f} | {med([float(x['dop2']['main']) for x in rs]):.0f} | {med(busy):.0f} | {mid} | **{lb:.2f}** | {ub:.2f} | {wr:.2f} |")
g = lambda L: math.exp(sum(map(math.log, L)) / len(L)) if L else float('nan')
for tag in sorted({t for t, _ in geo}):
    print(f"\n{tag}: geomean lb {g(geo[tag,'lb']):.2f} ub {g(geo[tag,'ub']):.2f}; queries > 100 ms serial: lb {g(geo[tag,'lb100']):.2f} ub {g(geo[tag,'ub100']):.2f} ({len(geo[tag,'lb100'])} queries)")

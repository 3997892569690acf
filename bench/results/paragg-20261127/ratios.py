import sys, re, statistics, collections
# usage: ratios.py file... ; prints per query: median dop1 qcpu, dop2 qcpu, median per-round ratio qcpu2/qcpu1, wall2/wall1, cpu2/cpu1
for f in sys.argv[1:]:
    d = collections.defaultdict(dict)
    for line in open(f):
        m = re.match(r'(\S+) r(\d+) (\S+) dop(\d) wall (\S+) cpu (\S+)(?: qcpu (\S+))?', line)
        if not m: continue
        tag, r, q, dop, wall, cpu, qcpu = m.groups()
        d[(q, int(r))][dop] = (float(wall), float(cpu), float(qcpu or 'nan'))
    qs = sorted({k[0] for k in d}, key=lambda q: -int(q[1:]))
    print(f)
    print('query  qcpu1  qcpu2  qcpu2/1(rounds)                 wall2/1(med)  proc-cpu2/1(med)')
    for q in qs:
        rounds = sorted(r for (qq, r) in d if qq == q)
        rq = [d[(q, r)]['2'][2] / d[(q, r)]['1'][2] for r in rounds if '1' in d[(q,r)] and '2' in d[(q,r)]]
        rw = [d[(q, r)]['2'][0] / d[(q, r)]['1'][0] for r in rounds if '1' in d[(q,r)] and '2' in d[(q,r)]]
        rc = [d[(q, r)]['2'][1] / d[(q, r)]['1'][1] for r in rounds if '1' in d[(q,r)] and '2' in d[(q,r)]]
        q1 = statistics.median(d[(q, r)]['1'][2] for r in rounds); q2 = statistics.median(d[(q, r)]['2'][2] for r in rounds)
        print(f"{q}  {q1:6.0f} {q2:6.0f}  {statistics.median(rq):.2f} [{' '.join(f'{x:.2f}' for x in rq)}]  {statistics.median(rw):.2f}  {statistics.median(rc):.2f}")

import sys, math
tag = sys.argv[1]
def load(v, d):
    r = {}
    for line in open(f'/tmp/lead/fin.{tag}.{v}.{d}'):
        p = line.split()
        if len(p) >= 8 and p[2] == 'wall':
            r[p[1]] = (float(p[3]), float(p[5]), int(p[7]))
    return r
B1, B2, N1, N2, D1, D2 = (load(v, d) for v, d in [('base',1),('base',2),('new',1),('new',2),('duck',1),('duck',2)])
qs = sorted(D1)
print('| query | base MAXDOP 1 ms | base 2÷1 | new MAXDOP 1 ms | new 2÷1 | new÷base, MAXDOP 1 / 2 | new ÷ DuckDB, 1 thread / 2 | base ÷ DuckDB, 1 / 2 | DuckDB 2÷1 |')
print('|---|---|---|---|---|---|---|---|---|')
g = {k: [] for k in ['b21','n21','nb1','nb2','nd1','nd2','d21','bd1','bd2']}
for q in qs:
    b1, b2, n1, n2, d1, d2 = (x[q][0] for x in (B1, B2, N1, N2, D1, D2))
    rows_ok = len({x[q][2] for x in (B1,B2,N1,N2,D1,D2)}) == 1
    mark = '' if b1 >= 100 else '*'
    print(f'| {q}{mark}{"" if rows_ok else " ROWS DIFFER"} | {b1:.1f} | {b2/b1:.2f} | {n1:.1f} | {n2/n1:.2f} | {n1/b1:.2f} / {n2/b2:.2f} | {n1/d1:.2f} / {n2/d2:.2f} | {b1/d1:.2f} / {b2/d2:.2f} | {d2/d1:.2f} |')
    for k, v in [('b21',b2/b1),('n21',n2/n1),('nb1',n1/b1),('nb2',n2/b2),('nd1',n1/d1),('nd2',n2/d2),('d21',d2/d1),('bd1',b1/d1),('bd2',b2/d2)]:
        g[k].append(v)
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print(f"| geomean | | {gm(g['b21']):.2f} | | {gm(g['n21']):.2f} | {gm(g['nb1']):.2f} / {gm(g['nb2']):.2f} | {gm(g['nd1']):.2f} / {gm(g['nd2']):.2f} | {gm(g['bd1']):.2f} / {gm(g['bd2']):.2f} | {gm(g['d21']):.2f} |")
over = [q for q in qs if N1[q][0] >= 100]
print('queries over 100 ms at MAXDOP 1 (new):', ', '.join(f"{q} base {B2[q][0]/B1[q][0]:.2f} new {N2[q][0]/N1[q][0]:.2f}" for q in over))
above = [q for q in qs if N1[q][0] / D1[q][0] > 2.0]
print('new ÷ DuckDB above 2.0 at one thread:', above)

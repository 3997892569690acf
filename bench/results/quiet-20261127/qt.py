import math, sys, glob
def load(path):
    d = {}
    for line in open(path):
        p = line.split()
        if len(p) >= 8 and p[2] == 'wall':
            d[p[1]] = (float(p[3]), float(p[5]), p[7])
    return d
rounds = sorted({int(f.rsplit('.',1)[1]) for f in glob.glob('qt.col.1.*')})
qs = [f"q{i:02d}" for i in range(1, 23)]
print("| query | " + " | ".join(f"r{r}: C1÷D1 / C2÷C1 / C2÷D2" for r in rounds) + " |")
print("|---|" + "---|"*len(rounds))
geo = {r: [[],[],[]] for r in rounds}
for q in qs:
    cells = []
    for r in rounds:
        c1 = load(f'qt.col.1.{r}'); c2 = load(f'qt.col.2.{r}')
        d1 = load(f'qt.duck.1.{r}'); d2 = load(f'qt.duck.2.{r}')
        assert c1[q][2] == d1[q][2] == c2[q][2] == d2[q][2], (q, r)
        a = c1[q][0]/d1[q][0]; b = c2[q][0]/c1[q][0]; c = c2[q][0]/d2[q][0]
        geo[r][0].append(a); geo[r][1].append(b); geo[r][2].append(c)
        mark = "" if c1[q][0] > 100 else "*"
        cells.append(f"{a:.2f} / {b:.2f}{mark} / {c:.2f}")
    print(f"| {q.upper()} | " + " | ".join(cells) + " |")
g = lambda xs: math.exp(sum(map(math.log, xs))/len(xs))
print("| geomean | " + " | ".join(f"{g(geo[r][0]):.2f} / {g(geo[r][1]):.2f} / {g(geo[r][2]):.2f}" for r in rounds) + " |")
# MAXDOP2/1 for queries > 100ms at MAXDOP1
for r in rounds:
    c1 = load(f'qt.col.1.{r}'); c2 = load(f'qt.col.2.{r}')
    long = [(q, c2[q][0]/c1[q][0]) for q in qs if c1[q][0] > 100]
    print(f"round {r}: queries over 100 ms at MAXDOP 1: " + ", ".join(f"{q.upper()} {x:.2f}" for q, x in long), " | over 0.6:", [q.upper() for q,x in long if x > 0.6])

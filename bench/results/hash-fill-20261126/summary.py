import sys,collections,statistics
rows=[]
for f in sys.argv[1:]:
    for l in open(f):
        if l.startswith('#') or l.count('\t')<9: continue
        r=l.rstrip('\n').split('\t'); rows.append(r)
e=collections.defaultdict(list); c=collections.defaultdict(list); e1=collections.defaultdict(list)
for r in rows:
    b='new' if r[1].startswith('new') else 'base'
    e[(r[2],b)].append(float(r[5])); c[(r[2],b)].append(float(r[8])); e1[(r[2],b)].append(float(r[3]))
serial={'Q02','Q11','Q13','Q16','Q22'}
print('| query | base MAXDOP 1 ms (median) | base e2/e1: median (min–max) | new e2/e1: median (min–max) | base cpu2/cpu1 median | new cpu2/cpu1 median | new plan at MAXDOP 2 |')
print('|---|---|---|---|---|---|---|')
for q in sorted({k[0] for k in e}):
    def m(d,b): v=d[(q,b)]; return f'{statistics.median(v):.2f} ({min(v):.2f}–{max(v):.2f})'
    print(f'| {q} | {statistics.median(e1[(q,"base")]):.0f} | {m(e,"base")} | {m(e,"new")} | {statistics.median(c[(q,"base")]):.2f} | {statistics.median(c[(q,"new")]):.2f} | {"serial (threshold)" if q in serial else "parallel"} |')

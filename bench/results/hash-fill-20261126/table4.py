import sys,collections,statistics
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('#') and l.count('\t')>=9]
# round build q e1 e2 r c1 c2 rc same load
data=collections.defaultdict(dict)
rounds=sorted({r[0] for r in rows},key=int)
for r in rows: data[r[2]][(r[0],r[1])]=r
qs=sorted(data)
print('| query | ' + ' | '.join(f'r{x} base: e1 ms, e2/e1, cpu2/cpu1 | r{x} new: e1 ms, e2/e1, cpu2/cpu1' for x in rounds) + ' | median e2/e1 base | median e2/e1 new |')
print('|---|' + '---|'*(2*len(rounds)+2))
for q in qs:
    cells=[]; mb=[]; mn=[]
    for x in rounds:
        for b,acc in (('base',mb),('new4',mn)):
            r=data[q].get((x,b))
            if r: cells.append(f'{float(r[3]):.0f}, {r[5]}, {r[8]}'+('' if r[9]=='same' else ' DIFF')); acc.append(float(r[5]))
            else: cells.append('—')
    print(f'| {q} | '+' | '.join(cells)+f' | {statistics.median(mb):.2f} | {statistics.median(mn):.2f} |')

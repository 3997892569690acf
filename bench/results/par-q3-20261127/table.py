import re,sys
def parse(f):
    d={}; cur=None
    for l in open(f):
        m=re.match(r'(Q\d\d)\twall ([\d.]+) -> ([\d.]+) \(([\d.]+); median of per-round ([\d.]+)\).*load ([\d.]+)',l)
        if m:
            cur=m.group(1); d[cur]={'w1':float(m.group(2)),'w2':float(m.group(3)),'wr':float(m.group(4)),'pr':float(m.group(5)),'load':m.group(6)}
        m=re.search(r'thread cpu dop 1: main ([\d.]+)',l)
        if m and cur: d[cur]['c1']=float(m.group(1))
        m=re.search(r'thread cpu dop 2: main ([\d.]+)  busiest worker ([\d.]+)  all workers ([\d.]+)  main\+busiest ([\d.]+)',l)
        if m and cur: d[cur]['m2']=float(m.group(1)); d[cur]['bw']=float(m.group(2)); d[cur]['aw']=float(m.group(3)); d[cur]['cp']=float(m.group(4))
        m=re.search(r'critical-path ratio.*: ([\d.]+)',l)
        if m and cur: d[cur]['cr']=float(m.group(1))
    return d
tag=sys.argv[1]
b=parse(f'/tmp/par-q3/m/{tag}-base.txt'); n=parse(f'/tmp/par-q3/m/{tag}-new.txt')
print('| query | base: MAXDOP 1 wall, ms | base: MAXDOP 2 ÷ 1, wall (median of rounds) | base: CPU critical path ÷ serial CPU | new: MAXDOP 1 wall, ms | new: MAXDOP 2 ÷ 1, wall (median of rounds) | new: CPU critical path ÷ serial CPU | new: main-thread CPU at MAXDOP 2, ms |')
print('|---|---|---|---|---|---|---|---|')
for q in sorted(b):
    x=b[q]; y=n.get(q,{})
    print(f"| {q} | {x['w1']:.0f} | {x['pr']:.2f} | {x.get('cr',0):.2f} | {y.get('w1',0):.0f} | {y.get('pr',0):.2f} | {y.get('cr',0):.2f} | {y.get('m2',0):.1f} (base {x.get('m2',0):.1f}) |")

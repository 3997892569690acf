import re,sys
tags=sys.argv[1:]
for tag in tags:
    rows={}
    for side in ('base','new'):
        txt=open(f'/tmp/morsel/m/{tag}-{side}.txt').read()
        for block in re.split(r'\n(?=q\d\d)',txt):
            if not block.startswith('q'): continue
            q=block[:3]
            r=dict(w1=float(re.search(r'wall ([\d.]+) ->',block).group(1)),
                   wr=float(re.search(r'median of per-round ([\d.]+)',block).group(1)),
                   cr=float(re.search(r'critical-path ratio.*: ([\d.]+)',block).group(1)),
                   same=re.search(r'\t(same|DIFFERENT)\t',block).group(1))
            d1=re.search(r'dop 1: main ([\d.]+)',block); d2=re.search(r'dop 2: main ([\d.]+)\s+busiest worker ([\d.]+)\s+all workers ([\d.]+)',block)
            r['main1']=float(d1.group(1)); r['all2']=float(d2.group(3)); r['bal']=float(d2.group(2))/float(d2.group(3))
            w=re.search(r'waits per exec dop 2:.*HTBUILD=\d+/([\d.]+)ms',block); r['ht']=w.group(1) if w else '-'
            rows.setdefault(q,{})[side]=r
    print(f'\n{tag}: | query | wall ratio base → new | CPU critical path base → new | workers CPU ÷ serial CPU base → new | busiest ÷ all workers base → new | HTBUILD ms/exec base → new | answers |')
    for q,d in rows.items():
        b,n=d['base'],d['new']
        print(f"| {q.upper()} | {b['wr']:.2f} → {n['wr']:.2f} | {b['cr']:.2f} → {n['cr']:.2f} | {b['all2']/b['main1']:.2f} → {n['all2']/n['main1']:.2f} | {b['bal']:.2f} → {n['bal']:.2f} | {b['ht']} → {n['ht']} | {b['same']}/{n['same']} |")

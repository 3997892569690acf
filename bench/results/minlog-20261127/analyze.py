import re,sys,statistics
# analyze.py NAME : per round, base (B) and new (N) JVMs started together; ratios within a JVM and new/base per round.
name=sys.argv[1]
def load(side):
    rows={}
    for line in open(f'/tmp/minlog/{name}-{side}.txt'):
        if not line.startswith('RESULT'): continue
        d=dict(kv.split('=') for kv in line.split()[1:])
        rows[(int(d['round']),d['target'])]={k:(int(v) if v.isdigit() else v) for k,v in d.items()}
    return rows
B,N=load('B'),load('N')
rounds=sorted({r for r,_ in B})
targets=[t for t in dict.fromkeys(t for _,t in B) if t!='duckdb']
for t in targets:
    print(f'### {t}')
    print('| round | base wall s | new wall s | new/base wall | new/base thread CPU | new/base process CPU | base MB written (log MB) | new MB written (log MB) | base ÷ DuckDB rows/s | new ÷ DuckDB rows/s | base: DuckDB CPU ÷ Columba CPU | new: DuckDB CPU ÷ Columba CPU |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|')
    acc={}
    for r in rounds:
        b,n=B[(r,t)],N[(r,t)]
        db,dn=B.get((r,'duckdb')),N.get((r,'duckdb'))
        vals=[n['wallMs']/b['wallMs'], n['threadCpuMs']/b['threadCpuMs'], n['processCpuMs']/b['processCpuMs']]
        cols=[f"{b['wallMs']/1000:.1f}",f"{n['wallMs']/1000:.1f}"]+[f'{v:.2f}' for v in vals]+[f"{b['writeMBwithClose']} ({b['logMB']})",f"{n['writeMBwithClose']} ({n['logMB']})"]
        if db and dn:
            rb,rn=db['wallMs']/b['wallMs'],dn['wallMs']/n['wallMs']
            cb,cn=db['processCpuMs']/b['processCpuMs'],dn['processCpuMs']/n['processCpuMs']
            cols+= [f'{rb:.2f}',f'{rn:.2f}',f'{cb:.2f}',f'{cn:.2f}']
            for k,v in zip(['rb','rn','cb','cn'],[rb,rn,cb,cn]): acc.setdefault(k,[]).append(v)
        else: cols+=['','','','']
        for k,v in zip(['w','t','p'],vals): acc.setdefault(k,[]).append(v)
        print(f'| {r} | '+' | '.join(cols)+' |')
    print('medians: '+', '.join(f'{k} {statistics.median(v):.2f}' for k,v in acc.items()))
    print()

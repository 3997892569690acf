import sys,re,statistics,collections
# analyze.py NAME: pairs NAME-B.txt (base) and NAME-N.txt (new); per round ratio Columba/DuckDB (rows/s, i.e. duck_time/columba_time) wall and thread CPU.
name=sys.argv[1]
def load(side):
    r={}
    for line in open('/tmp/load-csv/%s-%s.txt'%(name,side)):
        if not line.startswith('RESULT'): continue
        kv=dict(x.split('=') for x in line.split()[1:])
        r[(int(kv['round']),kv['target'],kv['format'])]=kv
    return r
B=load('B'); N=load('N')
rounds=sorted({k[0] for k in B})
targets=sorted({k[1] for k in B if k[1]!='duckdb'})
formats=sorted({k[2] for k in B})
for t in targets:
  for f in formats:
    print('\n%s from %s'%(t,f))
    print('| build | ÷ DuckDB wall, rounds | median | ÷ DuckDB thread CPU, median | thread CPU ms (median) | process CPU ms | MB written |')
    print('|---|---|---|---|---|---|---|')
    for side,R in (('base',B),('new',N)):
        wall=[];cpu=[];tc=[];pc=[];wm=[]
        for r in rounds:
            if (r,t,f) not in R or (r,'duckdb',f) not in R: continue
            c=R[(r,t,f)]; d=R[(r,'duckdb',f)]
            wall.append(int(d['wallMs'])/int(c['wallMs'])); cpu.append(int(d['threadCpuMs'])/int(c['threadCpuMs']))
            tc.append(int(c['threadCpuMs'])); pc.append(int(c['processCpuMs'])); wm.append(int(c.get('writeMB',-1)))
        if not wall: continue
        print('| %s | %s | %.2f | %.2f | %d | %d | %s |'%(side,' '.join('%.2f'%x for x in wall),statistics.median(wall),statistics.median(cpu),statistics.median(tc),statistics.median(pc),statistics.median(wm)))
    # paired new/base thread CPU per round
    pr=[int(N[(r,t,f)]['threadCpuMs'])/int(B[(r,t,f)]['threadCpuMs']) for r in rounds if (r,t,f) in N and (r,t,f) in B]
    pw=[int(N[(r,t,f)]['wallMs'])/int(B[(r,t,f)]['wallMs']) for r in rounds if (r,t,f) in N and (r,t,f) in B]
    pp=[int(N[(r,t,f)]['processCpuMs'])/int(B[(r,t,f)]['processCpuMs']) for r in rounds if (r,t,f) in N and (r,t,f) in B]
    print('new ÷ base per round: thread CPU %s (median %.2f); process CPU %s (median %.2f); wall %s (median %.2f)'%(' '.join('%.2f'%x for x in pr),statistics.median(pr),' '.join('%.2f'%x for x in pp),statistics.median(pp),' '.join('%.2f'%x for x in pw),statistics.median(pw)))

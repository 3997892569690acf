import sys,statistics
# formats.py NAME: per side (B = MAXDOP 1, N = MAXDOP 2), per target: Parquet rate ÷ CSV rate per round (wall, thread CPU, process CPU), and ÷ DuckDB.
name=sys.argv[1]
for side,label in (('B','MAXDOP 1 / threads 1'),('N','MAXDOP 2 / threads 2')):
    R={}
    for line in open('/tmp/load-csv/%s-%s.txt'%(name,side)):
        if line.startswith('RESULT'):
            kv=dict(x.split('=') for x in line.split()[1:]); R[(int(kv['round']),kv['target'],kv['format'])]=kv
    rounds=sorted({k[0] for k in R})
    print('\n%s'%label)
    print('| target | Parquet ÷ CSV rate, wall (rounds) | thread CPU | process CPU | ÷ DuckDB CSV wall / process CPU | ÷ DuckDB Parquet wall / process CPU |')
    print('|---|---|---|---|---|---|')
    for t in ('columnstore','rowstore','duckdb'):
        w=[];c=[];p=[];dc=[];dp=[]
        for r in rounds:
            a=R.get((r,t,'csv')); b=R.get((r,t,'parquet'))
            if a and b:
                w.append(int(a['wallMs'])/int(b['wallMs'])); c.append(int(a['threadCpuMs'])/int(b['threadCpuMs'])); p.append(int(a['processCpuMs'])/int(b['processCpuMs']))
            for fmt,lst in (('csv',dc),('parquet',dp)):
                x=R.get((r,t,fmt)); d=R.get((r,'duckdb',fmt))
                if x and d and t!='duckdb': lst.append('%.2f/%.2f'%(int(d['wallMs'])/int(x['wallMs']),int(d['processCpuMs'])/int(x['processCpuMs'])))
        f=lambda l:' '.join('%.2f'%v for v in l)
        print('| %s | %s | %s | %s | %s | %s |'%(t,f(w),f(c),f(p),' '.join(dc),' '.join(dp)))

import sys, re, collections, subprocess
f=sys.argv[1]
out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--events','jdk.ExecutionSample','--stack-depth','120',f],capture_output=True,text=True).stdout
c=collections.Counter()
OPS=('ColumnstoreScan','HashAggregateOperator','RepartitionOperator','SharedRepartition','HashJoinOperator','SharedHashBuild','FilterOperator','TopNOperator','GatherOperator','ProjectOperator','BitmapFilterOperator','ColumnstoreScanOperator')
for s in out.split('jdk.ExecutionSample')[1:]:
    m=re.search(r'sampledThread = "([^"]+)"',s); t=m.group(1) if m else '?'
    tg='worker' if t.startswith('columba-worker') else ('main' if t=='main' else 'other')
    fr=[x.split('.')[-2] for x in re.findall(r'^\s+([\w.$]+)\(',s,re.M)]
    chain=[x for x in fr if x in OPS]
    # collapse consecutive duplicates
    ch=[]
    for x in chain:
        if not ch or ch[-1]!=x: ch.append(x)
    if not ch: c[(tg,'(none)')]+=1; continue
    inner=ch[0]
    if inner=='HashAggregateOperator':
        outer=ch[1] if len(ch)>1 else '-'
        role='agg under '+outer
    elif inner in ('ColumnstoreScan','ColumnstoreScanOperator'):
        nxt=[x for x in ch[1:] if x not in ('ColumnstoreScan','ColumnstoreScanOperator','FilterOperator','ProjectOperator','BitmapFilterOperator')]
        role='scan for '+(nxt[0] if nxt else '-')+(' > '+nxt[1] if len(nxt)>1 else '')
    else:
        role=inner+(' < '+ch[1] if len(ch)>1 else '')
    c[(tg,role)]+=1
for k,v in sorted(c.items(), key=lambda x:-x[1]): print(f'{v:6d} {k[0]:6s} {k[1]}')

import sys,json,collections,subprocess
# per sample: (thread kind, build nesting level, leaf activity)
f=sys.argv[1]
out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--stack-depth','300','--json','--events','jdk.ExecutionSample',f],capture_output=True,text=True).stdout
ev=json.loads(out)['recording']['events']
c=collections.Counter(); n=0; leafc=collections.defaultdict(collections.Counter)
for e in ev:
    v=e['values']; th=v['sampledThread']['javaName'] if v.get('sampledThread') else '?'
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    full=[x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in reversed(fr)]  # root first
    j=' '.join(full)
    if 'dev/columba' not in ' '.join(x['method']['type']['name'] for x in fr): continue
    tk='worker' if th.startswith('columba-worker') else th[:10]
    if 'Planner' in j or 'calcite' in j or 'Calcite' in j: c[(tk,'-','planning')]+=1; n+=1; continue
    level=sum(1 for x in full if x in ('HashJoinOperator.build',))
    # leaf activity: the last recognizable step
    act='other'
    for x in full:
        if x.startswith('ColumnstoreScan.open') or x.startswith('ColumnstoreScan.<init>'): act='scan open'
        elif x.startswith('ColumnstoreScan.'): act='scan'
        elif x in ('HashJoinOperator.prepareProbe','JoinOperator.probeView','JoinOperator.next') : act='probe'
        elif x.startswith('HashJoinOperator$ParallelFill'): act='parallel fill'
        elif x in ('HashJoinOperator.insertBuildRows','HashJoinOperator.copyBuildRows','HashJoinOperator.finishBuild','HashJoinOperator$ParallelFill.complete'): act=x.split('.')[1]
        elif x=='HashJoinOperator.assemble': act='assemble'
        elif x=='HashJoinOperator.readShare': act='readShare'
        elif x.startswith('RuntimeFilter.publish'): act='publish filter'
        elif x.startswith('RuntimeFilterOperator'): act='bitmap filter'
        elif x.startswith('HashAggregateOperator'): act='aggregate'
        elif x.startswith('RepartitionOperator') or x.startswith('SharedRepartition'): act='repartition'
        elif x.startswith('TopNOperator'): act='topn'
        elif x.startswith('GatherOperator'): act='gather'
        elif x.startswith('ProjectOperator'): act='project'
    c[(tk,level,act)]+=1; n+=1
    leafc[(tk,level,act)][full[-1]]+=1
print('samples',n)
for k,v in sorted(c.items(), key=lambda x:(str(x[0][1]),-x[1])): 
    print(f'{v:5d} {100*v/n:5.1f}%  {k[0]:8s} build-level {k[1]}  {k[2]:18s}  ', ', '.join(f'{a} {b}' for a,b in leafc[k].most_common(3)))

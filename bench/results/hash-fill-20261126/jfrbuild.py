import sys,json,collections,subprocess
f=sys.argv[1]
def events(name):
    out=subprocess.run(['jfr','print','--json','--events',name,f],capture_output=True,text=True).stdout
    return json.loads(out)['recording']['events']
def dur(s):
    return float(s[2:-1]) if s.startswith('PT') and s.endswith('S') else 0
ev=events('jdk.ExecutionSample')
per=collections.Counter(); cat=collections.defaultdict(collections.Counter)
def category(names):
    j=' '.join(names)
    if 'ParallelFill' in j: return 'fill in parallel (all workers)'
    if 'HashJoinOperator.assemble' in j or 'HashJoinOperator.buildFrom' in j:
        if 'readShare' in j: return 'read share'
        return 'build by one (copy shares, insert, link)'
    if 'readShare' in j: return 'read share'
    if 'RepartitionOperator' in j: return 'repartition'
    if 'HashAggregateOperator' in j: return 'aggregate'
    if 'JoinOperator' in j: return 'probe'
    if 'Scan' in j: return 'scan'
    return 'other'
for e in ev:
    v=e['values']; th=v['sampledThread']['javaName'] if v.get('sampledThread') else '?'
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    if not th.startswith('columba-worker'): continue
    names=[x['method']['type']['name'].split('.')[-1].split('/')[-1]+'.'+x['method']['name'] for x in fr]
    per[th]+=1; cat[th][category(names)]+=1
tot=collections.Counter()
for th,c in sorted(per.items()):
    for k,v in cat[th].items(): tot[k]+=v
allw=sum(per.values())
print(f"worker samples {allw} on {len(per)} threads")
for k,v in tot.most_common(): print(f"  {k}: {v} ({100*v/allw:.0f}%)")
mw=events('jdk.JavaMonitorWait')
wt=collections.Counter()
for e in mw:
    v=e['values']; th=v['eventThread']['javaName'] if v.get('eventThread') else '?'
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    names=[x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in fr]
    j=' '.join(names)
    if 'SharedHashBuild' in j:
        key='fill barrier (join)' if 'SharedHashBuild.join' in j else ('wait for table (awaitBuilt)' if 'awaitBuilt' in j else 'wait other')
        wt[key]+=dur(v['duration'])
    elif 'SharedRepartition' in j or 'Repartition' in j:
        wt['repartition barrier']+=dur(v['duration'])
print("monitor waits (s, summed over worker threads):", ', '.join(f"{k} {v:.2f}" for k,v in wt.most_common()))
if len(sys.argv)>2:
    oc=collections.Counter()
    for e in ev:
        v=e['values']; th=v['sampledThread']['javaName'] if v.get('sampledThread') else '?'
        if not th.startswith('columba-worker'): continue
        fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
        names=[x['method']['type']['name'].split('.')[-1].split('/')[-1]+'.'+x['method']['name'] for x in fr]
        if category(names)==sys.argv[2]:
            oc[' < '.join(names[:4])]+=1
    for k,v in oc.most_common(12): print(v,k)

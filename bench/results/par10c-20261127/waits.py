import json,collections,datetime,sys
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
def dur(s):
    s=s[2:-1]; return float(s) if s else 0
park=json.load(open(sys.argv[1]))['recording']['events']
ex=json.load(open(sys.argv[2]))['recording']['events']
lo,hi=float(sys.argv[3]),float(sys.argv[4]); n=int(sys.argv[5])
t0=min(ts(e['values']['startTime']) for e in ex)
waits=[]
for e in park:
    v=e['values']
    if not v.get('stackTrace'): continue
    fr=[f['method']['type']['name'].split('/')[-1]+'.'+f['method']['name']+':'+str(f['lineNumber']) for f in v['stackTrace']['frames']]
    if any('waitForBuild' in x for x in fr):
        site=[x for x in fr if x.startswith(('SharedHashBuild.awaitBuilt','SharedHashBuild.join','SharedHashBuild.acquire'))][0]
        s=ts(v['startTime'])-t0
        if lo<=s<=hi: waits.append((s,dur(v['duration']),v['eventThread']['javaName'],site+' d%d'%len(fr)))
tot=collections.Counter()
for w in waits: tot[w[3]]+=w[1]
for k,v in tot.most_common(): print(f"{v*1000/n:7.1f} ms/exec  {k}")
# what the other worker did during waits, by site
def key(fr):
    for k in ('ParallelFill.complete','finishBuild','RuntimeFilter','copyBuildRows','reserve','ParallelFill.run','partitionChunk','fillPartition','rebasePartition','readShare','assemble','acquire'):
        for f in fr:
            if f.startswith(k) or ('.'+k) in f: return k
    return fr[0]
for site in tot:
    agg=collections.Counter()
    for e in ex:
        v=e['values']; t=ts(v['startTime'])-t0; th=v['sampledThread']['javaName']
        if not th.startswith('columba-worker'): continue
        if not any(w[3]==site and w[0]<=t<=w[0]+w[1] and th!=w[2] for w in waits): continue
        fr=[f['method']['type']['name'].split('/')[-1]+'.'+f['method']['name'] for f in v['stackTrace']['frames']]
        agg[key(fr)]+=1
    print(site, agg.most_common(8))

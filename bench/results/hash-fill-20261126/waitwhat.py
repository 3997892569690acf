import sys,json,collections,subprocess,datetime
f=sys.argv[1]
def events(name):
    out=subprocess.run(['jfr','print','--json','--events',name,f],capture_output=True,text=True).stdout
    return json.loads(out)['recording']['events']
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z','+00:00')).timestamp()
def dur(s): return float(s[2:-1]) if s.startswith('PT') and s.endswith('S') else 0
import os; exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cat.py')).read())
samples=[]
for e in events('jdk.ExecutionSample'):
    v=e['values']; th=v['sampledThread']['javaName'] if v.get('sampledThread') else '?'
    if not th.startswith('columba-worker'): continue
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    names=[x['method']['type']['name'].split('.')[-1].split('/')[-1]+'.'+x['method']['name'] for x in fr]
    samples.append((ts(v['startTime']),th,category(names)))
waits=[]
for e in events('jdk.JavaMonitorWait'):
    v=e['values']; th=v['eventThread']['javaName'] if v.get('eventThread') else '?'
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    j=' '.join(x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in fr)
    if 'SharedHashBuild' not in j: continue
    kind='join' if 'SharedHashBuild.join' in j else ('awaitBuilt' if 'awaitBuilt' in j else 'acquire')
    s=ts(v['startTime']); waits.append((s,s+dur(v['duration']),th,kind))
tot=collections.Counter(); what=collections.Counter()
for s,e,th,kind in waits:
    tot[kind]+=e-s
    for t,th2,c in samples:
        if s<=t<=e and th2!=th: what[(kind,c)]+=1
print('waits (s):',{k:round(v,2) for k,v in tot.items()})
for (k,c),n in sorted(what.items(),key=lambda x:-x[1])[:10]: print(f'  while waiting in {k}: other workers sampled in {c}: {n}')

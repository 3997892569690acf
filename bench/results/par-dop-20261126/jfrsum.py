import sys,json,collections,subprocess
f=sys.argv[1]
def events(name):
    out=subprocess.run(['jfr','print','--json','--events',name,f],capture_output=True,text=True).stdout
    return json.loads(out)['recording']['events']
ev=events('jdk.ExecutionSample')
per=collections.Counter(); top=collections.defaultdict(collections.Counter); op=collections.defaultdict(collections.Counter)
for e in ev:
    v=e['values']; th=v['sampledThread']['javaName'] if v.get('sampledThread') else '?'
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    per[th]+=1
    if fr:
        m=fr[0]['method']; top[th][m['type']['name'].split('.')[-1]+'.'+m['name']]+=1
    ops=[x['method']['type']['name'].split('.')[-1]+'.'+x['method']['name'] for x in fr if 'exec/' in x['method']['type']['name']]
    op[th][ops[0] if ops else '?']+=1
n=int(sys.argv[2]) if len(sys.argv)>2 else 8
for th,c in per.most_common(6):
    print(f"== {th}: {c} samples")
    print("  self:", ', '.join(f"{k} {v}" for k,v in top[th].most_common(n)))
    print("  innermost exec:", ', '.join(f"{k} {v}" for k,v in op[th].most_common(n)))
pk=events('jdk.ThreadPark')
pt=collections.Counter(); pw=collections.defaultdict(collections.Counter)
def dur(s):
    # ISO8601 duration like PT0.05S
    return float(s[2:-1]) if s.startswith('PT') and s.endswith('S') else 0
for e in pk:
    v=e['values']; th=v['eventThread']['javaName'] if v.get('eventThread') else '?'
    d=dur(v['duration']); pt[th]+=d
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    ops=[x['method']['type']['name'].split('.')[-1]+'.'+x['method']['name'] for x in fr if 'columba' in x['method']['type']['name'] and 'LockSupport' not in x['method']['type']['name']]
    pw[th][ops[0] if ops else '?']+=d
print("== parks (s)")
for th,d in pt.most_common(6):
    print(f"  {th}: {d:.2f}", ', '.join(f"{k} {v:.2f}" for k,v in pw[th].most_common(3)))
mw=events('jdk.JavaMonitorWait')
pt=collections.Counter(); pw=collections.defaultdict(collections.Counter)
for e in mw:
    v=e['values']; th=v['eventThread']['javaName'] if v.get('eventThread') else '?'
    d=dur(v['duration']); pt[th]+=d
    fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    ops=[x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in fr if 'columba' in x['method']['type']['name']]
    pw[th]['<'.join(ops[:3]) if ops else '?']+=d
print("== monitor waits (s)")
for th,d in pt.most_common(6):
    print(f"  {th}: {d:.2f}", ', '.join(f"{k} {v:.2f}" for k,v in pw[th].most_common(3)))

import sys,json,collections,subprocess
f=sys.argv[1]; key=sys.argv[2]
out=subprocess.run(['jfr','print','--json','--events','jdk.ExecutionSample',f],capture_output=True,text=True).stdout
ev=json.loads(out)['recording']['events']
tot=collections.Counter(); child=collections.Counter(); selfc=collections.Counter(); n=0
for e in ev:
    v=e['values']; fr=v['stackTrace']['frames'] if v.get('stackTrace') else []
    names=[x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in fr]
    th=v['sampledThread']['javaName']
    tot[th]+=1
    for i,nm in enumerate(names):
        if nm==key:
            n+=1; child[names[i-1] if i>0 else 'self']+=1; selfc[names[0]]+=1; break
print(key, n, 'of', sum(tot.values()))
print(' children:', child.most_common(10))
print(' self:', selfc.most_common(10))

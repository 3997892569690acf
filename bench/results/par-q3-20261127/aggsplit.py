import json,subprocess,collections,sys
out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--stack-depth','300','--json','--events','jdk.ExecutionSample',sys.argv[1]],capture_output=True,text=True).stdout
ev=json.loads(out)['recording']['events']
c=collections.Counter(); leaf=collections.defaultdict(collections.Counter); tot=0
for e in ev:
    v=e['values']; th=v['sampledThread']['javaName']
    fr=v['stackTrace']['frames']
    names=[x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in fr]
    if not any(x['method']['type']['name'].startswith('dev/columba') for x in fr): continue
    if any('calcite' in x['method']['type']['name'] or 'Planner' in x['method']['type']['name'] for x in fr): continue
    tot+=1
    # root-first list of operator frames
    ops=[n for n in reversed(names) if n.split('.')[-1] in ('next','produce','add','build','readShare','contribute','acquire','run') and n.split('.')[0].endswith(('Operator','Build','Scan'))]
    key=[]
    for n in ops:
        cls=n.split('.')[0]
        if not key or key[-1]!=cls: key.append(cls)
    k=' > '.join(k.replace('Operator','') for k in key)
    c[('W' if th.startswith('columba-worker') else 'M')+' '+k]+=1
    cols=[n for x,n in zip(fr,names) if x['method']['type']['name'].startswith('dev/columba')]
    leaf[('W' if th.startswith('columba-worker') else 'M')+' '+k][cols[0] if cols else names[0]]+=1
print('samples',tot)
for k,v in c.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 25):
    print(f'{v:5d} {100*v/tot:5.1f}% {k}   [{", ".join(f"{a} {b}" for a,b in leaf[k].most_common(3))}]')

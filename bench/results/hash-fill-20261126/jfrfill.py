import sys,json,collections,subprocess
f=sys.argv[1]
out=subprocess.run(['jfr','print','--json','--events','jdk.ExecutionSample',f],capture_output=True,text=True).stdout
ev=json.loads(out)['recording']['events']
c=collections.Counter()
for e in ev:
    fr=e['values']['stackTrace']['frames'] if e['values'].get('stackTrace') else []
    names=[x['method']['type']['name'].split('.')[-1].split('/')[-1]+'.'+x['method']['name'] for x in fr]
    j=' '.join(names)
    if sys.argv[2] in j:
        # innermost frame + the first frame of interest
        top=names[0]
        k=[n for n in names if sys.argv[3] in n]
        c[top+' @ '+(k[0] if k else '?')]+=1
for k,v in c.most_common(15): print(v,k)

import json,sys,collections
d=json.load(open(sys.argv[1]))
ev=d['recording']['events']
byThread=collections.Counter(); top=collections.Counter(); incl=collections.Counter()
filt=sys.argv[2] if len(sys.argv)>2 else None
n=0
for e in ev:
    f=e['values']
    t=f['sampledThread']['javaName'] if f.get('sampledThread') else '?'
    byThread[t]+=1
    if filt and filt not in t: continue
    fr=f['stackTrace']['frames']
    names=[x['method']['type']['name'].split('.')[-1]+'.'+x['method']['name'] for x in fr]
    n+=1
    top[names[0]]+=1
    for m in set(names): incl[m]+=1
print(byThread.most_common(10))
print('samples',n)
for m,c in top.most_common(25): print('self %5.1f%% %s'%(100*c/n,m))
for m,c in incl.most_common(45): print('incl %5.1f%% %s'%(100*c/n,m))

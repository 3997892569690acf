import sys, re, collections, subprocess
# usage: prof.py file.jfr [topN]
f=sys.argv[1]; N=int(sys.argv[2]) if len(sys.argv)>2 else 25
out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--events','jdk.ExecutionSample','--stack-depth','80',f],capture_output=True,text=True).stdout
samples=out.split('jdk.ExecutionSample')
top=collections.Counter(); op=collections.Counter(); threads=collections.Counter(); incl=collections.Counter()
for s in samples[1:]:
    m=re.search(r'sampledThread = "([^"]+)"',s)
    t=m.group(1) if m else '?'
    tg='worker' if t.startswith('columba-worker') else ('main' if t=='main' else 'other')
    frames=re.findall(r'^\s+([\w.$]+)\(',s,re.M)
    if not frames: continue
    threads[tg]+=1
    top[(tg,frames[0])]+=1
    # innermost operator frame
    o='-'
    for fr in frames:
        cls=fr.rsplit('.',1)[0].split('.')[-1]
        if cls.endswith('Operator') or cls in ('ColumnstoreScan','SharedRepartition','SharedHashBuild','GroupHashTable'):
            o=cls+'.'+fr.rsplit('.',1)[1]; break
    op[(tg,o)]+=1
    for fr in set(frames):
        incl[(tg,fr)]+=1
print('threads',dict(threads))
print('--- top self frames'); [print(f'{c:6d} {k[0]:6s} {k[1]}') for k,c in top.most_common(N)]
print('--- innermost operator'); [print(f'{c:6d} {k[0]:6s} {k[1]}') for k,c in op.most_common(N)]
if len(sys.argv)>3:
    for pat in sys.argv[3].split(','):
        print('--- inclusive',pat); [print(f'{c:6d} {k[0]:6s} {k[1]}') for k,c in incl.most_common() if pat in k[1]][:15]

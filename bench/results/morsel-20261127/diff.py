import sys, re, collections, subprocess
def load(f):
    out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--events','jdk.ExecutionSample','--stack-depth','60',f],capture_output=True,text=True).stdout
    c=collections.Counter()
    for s in out.split('jdk.ExecutionSample')[1:]:
        if 'columba-worker' not in s: continue
        fr=re.findall(r'^\s+([\w.$]+)\(',s,re.M)
        for x in set(fr): c[x]+=1
    return c
a=load(sys.argv[1]); b=load(sys.argv[2])
keys=set(a)|set(b)
rows=sorted(keys,key=lambda k:-(b[k]-a[k]))
for k in rows[:25]: print(f'{a[k]:5d} {b[k]:5d} {b[k]-a[k]:+5d} {k}')

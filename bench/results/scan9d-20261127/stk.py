import sys, subprocess, collections, re
# stk.py file.jfr Method depth [n]: distribution of the call paths (depth frames below Method)
f=sys.argv[1]; m=sys.argv[2]; d=int(sys.argv[3]); n=int(sys.argv[4]) if len(sys.argv)>4 else 25
out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--events','jdk.ExecutionSample','--stack-depth','96',f],capture_output=True,text=True).stdout
c=collections.Counter(); tot=0
for s in out.split('jdk.ExecutionSample'):
    fr=re.findall(r'^\s+([\w$.<>/]+)\(.*?line: (\d+)', s, re.M)
    if not fr: continue
    tot+=1
    names=[a for a,_ in fr]
    hits=[k for k,x in enumerate(names) if x.endswith(m)]
    if hits:
        i=hits[-1]
        path=[f"{fr[j][0].split('.')[-1]}:{fr[j][1]}" for j in range(i, max(-1,i-d-1), -1)]
        c[' > '.join(path)]+=1
for k,v in c.most_common(n): print(f'{100*v/tot:5.1f} {k}')

import sys, re, collections, subprocess
f=sys.argv[1]; pats=sys.argv[2].split(','); depth=int(sys.argv[3]) if len(sys.argv)>3 else 4
out=subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--events','jdk.ExecutionSample','--stack-depth','80',f],capture_output=True,text=True).stdout
for pat in pats:
    c=collections.Counter()
    for s in out.split('jdk.ExecutionSample')[1:]:
        fr=re.findall(r'^\s+([\w.$]+)\(.*?line: (\d+)',s,re.M)
        if fr and pat in fr[0][0]:
            c[' <- '.join(x[0].split('.')[-2]+'.'+x[0].split('.')[-1]+':'+x[1] for x in fr[1:depth+1])]+=1
    print('===',pat)
    for k,v in c.most_common(8): print(v,k)

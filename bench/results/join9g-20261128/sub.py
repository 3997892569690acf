import sys, subprocess, collections, json
# sub.py file.jfr Method [depth] : inclusive counts of methods called below Method (by depth frames)
f, m = sys.argv[1], sys.argv[2]; d = int(sys.argv[3]) if len(sys.argv) > 3 else 3
out = subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--json','--events','jdk.ExecutionSample','--stack-depth','120',f],capture_output=True,text=True).stdout
ev = json.loads(out)['recording']['events']
c = collections.Counter(); tot = 0; all_ = 0
for e in ev:
    if e['values']['sampledThread']['javaName'] != 'main': continue
    all_ += 1
    fr = e['values']['stackTrace']['frames']
    names = [x['method']['type']['name'].replace('/', '.') + '.' + x['method']['name'] + ('*' if x['type']=='Interpreted' else '') for x in fr]
    idx = [i for i, nm in enumerate(names) if nm.rstrip('*').endswith(m)]
    if not idx: continue
    i = idx[-1]; tot += 1
    c[' < '.join(reversed(names[max(0, i - d):i]))] += 1
print('samples', all_, 'under', m, tot)
for k, v in c.most_common(30): print(f'{100*v/all_:5.1f} {k}')

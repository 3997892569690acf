import sys, subprocess, collections, json
# top.py file.jfr [n] [filter-substring] : self-time top frames (with frame type), inclusive by method, share by top-frame type
f = sys.argv[1]; n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
flt = sys.argv[3] if len(sys.argv) > 3 else None
out = subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--json','--events','jdk.ExecutionSample','--stack-depth','100',f],capture_output=True,text=True).stdout
ev = json.loads(out)['recording']['events']
selfc = collections.Counter(); incl = collections.Counter(); typ = collections.Counter(); total = 0
interp_by_method = collections.Counter()
for e in ev:
    fr = e['values']['stackTrace']['frames']
    if e['values']['sampledThread']['javaName'] != 'main': continue
    names = [x['method']['type']['name'].replace('/', '.') + '.' + x['method']['name'] for x in fr]
    if flt and not any(flt in nm for nm in names): continue
    total += 1
    t = fr[0]['type']
    selfc[names[0] + ' [' + t + ']'] += 1
    typ[t] += 1
    # nearest columba frame and its type
    for x, nm in zip(fr, names):
        if nm.startswith('dev.columba'):
            if x['type'] == 'Interpreted': interp_by_method[nm] += 1
            break
    seen = set()
    for nm in names:
        if nm not in seen: incl[nm] += 1; seen.add(nm)
print('total', total)
print('--- top-frame type'); [print(f'{100*v/total:5.1f} {k}') for k, v in typ.most_common()]
print('--- self')
for k, v in selfc.most_common(n): print(f'{100*v/total:5.1f} {k}')
print('--- nearest columba frame interpreted')
for k, v in interp_by_method.most_common(25): print(f'{100*v/total:5.1f} {k}')
print('--- inclusive')
for k, v in incl.most_common(n): print(f'{100*v/total:5.1f} {k}')

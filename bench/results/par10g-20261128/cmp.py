import json, sys, collections, subprocess
# cmp.py a.jfr b.jfr : inclusive samples per frame (query threads), b - a
def prof(f):
    out = subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr', 'print', '--json', '--stack-depth', '60', '--events', 'jdk.ExecutionSample', f], capture_output=True, text=True).stdout
    incl = collections.Counter(); selfc = collections.Counter(); n = 0
    for e in json.loads(out)['recording']['events']:
        v = e['values']; name = v['sampledThread'].get('javaName') or ''
        if not (name.startswith('columba-worker') or name == 'main'): continue
        st = v.get('stackTrace')
        if not st: continue
        frames = [x['method']['type']['name'].split('/')[-1] + '.' + x['method']['name'] for x in st['frames']]
        if any(x.startswith(('Session.prepare', 'Planner', 'Explain')) for x in frames): continue
        n += 1; selfc[frames[0]] += 1
        for x in set(frames): incl[x] += 1
    return n, incl, selfc
na, a, sa = prof(sys.argv[1]); nb, b, sb = prof(sys.argv[2])
print('samples', na, nb)
keys = set(a) | set(b)
d = sorted(keys, key=lambda k: -(b[k] - a[k]))
print('--- inclusive grew most (a, b, b-a)')
for k in d[:35]: print(f'{a[k]:5d} {b[k]:5d} {b[k]-a[k]:+5d} {k}')
print('--- self grew most')
ks = sorted(set(sa) | set(sb), key=lambda k: -(sb[k] - sa[k]))
for k in ks[:25]: print(f'{sa[k]:5d} {sb[k]:5d} {sb[k]-sa[k]:+5d} {k}')

import json, sys, collections, subprocess
# usage: top.py file.jfr event [depth] [filter-thread-prefix]
f, ev = sys.argv[1], sys.argv[2]
depth = int(sys.argv[3]) if len(sys.argv) > 3 else 1
tp = sys.argv[4] if len(sys.argv) > 4 else None
out = subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr', 'print', '--json', '--stack-depth', '30', '--events', ev, f], capture_output=True, text=True).stdout
data = json.loads(out)
c = collections.Counter(); incl = collections.Counter(); total = 0
for e in data['recording']['events']:
    v = e['values']
    th = (v.get('sampledThread') or v.get('eventThread') or {}) 
    name = th.get('javaName') or th.get('osName') or ''
    if tp and not name.startswith(tp): continue
    w = v.get('weight', 1) if ev.endswith('AllocationSample') else 1
    st = v.get('stackTrace')
    if not st: continue
    frames = [fr['method']['type']['name'].split('.')[-1] + '.' + fr['method']['name'] for fr in st['frames']]
    key = ' < '.join(frames[:depth])
    c[key] += w; total += w
    for fr in set(frames): incl[fr] += w
print('total', total)
for k, n in c.most_common(25): print(f'{100*n/total:5.1f}% {k}')
print('--- inclusive')
for k, n in incl.most_common(40): print(f'{100*n/total:5.1f}% {k}')

import sys, re, collections, datetime
# usage: perq.py samples.txt harness.txt  -> per query: samples main/worker, top operator frames and top frames of workers
samples, harness = sys.argv[1], sys.argv[2]
want = sys.argv[3] if len(sys.argv) > 3 else None
wins = []
for l in open(harness):
    p = l.split()
    if len(p) > 5 and p[1].startswith('r') and 'start' in p:
        kv = dict(zip(p[4::2], p[5::2])); wins.append((int(kv['start']), int(kv['end']), p[2] + ':' + p[3]))
def tod(ms):
    d = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc); return d.hour * 3600000 + d.minute * 60000 + d.second * 1000 + d.microsecond // 1000
wins = [(tod(a), tod(b), q) for a, b, q in wins]
ev = []; cur = None; inst = False
for line in open(samples):
    l = line.strip()
    if l.startswith('jdk.ExecutionSample'):
        cur = {'t': None, 'thread': '', 'frames': []}; ev.append(cur); inst = False
    elif cur is not None:
        if l.startswith('startTime'):
            m = re.search(r'(\d+):(\d+):(\d+)\.(\d+)', l); h, mi, s, f = m.groups(); cur['t'] = ((int(h) * 60 + int(mi)) * 60 + int(s)) * 1000 + int(f[:3].ljust(3, '0'))
        elif l.startswith('sampledThread'):
            m = re.search(r'"([^"]*)"', l); cur['thread'] = m.group(1) if m else l
        elif l.startswith('stackTrace'): inst = True
        elif inst and 'line:' in l: cur['frames'].append(re.sub(r'\s+line:.*', '', l))
per = collections.defaultdict(list)
for e in ev:
    for a, b, q in wins:
        if e['t'] is not None and a <= e['t'] <= b: per[q].append(e); break
for q in sorted(per):
    if want and q != want: continue
    es = per[q]; th = collections.Counter('main' if e['thread'] == 'main' else e['thread'] for e in es)
    print(f'== {q}: {len(es)} samples', dict(th.most_common(6)))
    ops = collections.Counter(); top = collections.Counter()
    for e in es:
        t = 'main' if e['thread'] == 'main' else 'w'
        op = next((f for f in e['frames'] if re.search(r'(Operator|Shared\w+|GroupHashTable|Accumulators\$\w+)\.', f)), '?')
        ops[(t, op[:120])] += 1
        if e['frames']: top[(t, e['frames'][0][:100])] += 1
    for (t, f), c in ops.most_common(int(sys.argv[4]) if len(sys.argv) > 4 else 14): print(f'  {c:4d} {t} {f}')
    print('  -- top frames')
    for (t, f), c in top.most_common(8): print(f'  {c:4d} {t} {f}')

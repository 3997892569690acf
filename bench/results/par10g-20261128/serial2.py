import json, sys, collections, subprocess, re, datetime, bisect
# serial.py file.jfr : samples of a worker taken while another worker waits (monitor wait / park in columba code)
f = sys.argv[1]
def load(ev, depth=40):
    out = subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr', 'print', '--json', '--stack-depth', str(depth), '--events', ev, f], capture_output=True, text=True).stdout
    return json.loads(out)['recording']['events']
def fr(x): return x['method']['type']['name'].split('/')[-1] + '.' + x['method']['name']
def ts(s):
    # 2026-11-28T02:01:01.123456789Z or with offset
    m = re.match(r'(.*T\d\d:\d\d:\d\d)(\.\d+)?(.*)', s); base = datetime.datetime.fromisoformat(m.group(1)); frac = float(m.group(2) or 0)
    return base.timestamp() + frac
def dur(d):
    m = re.match(r'PT(?:(\d+)H)?(?:(\d+)M)?([\d.]+)S', d); return (int(m.group(1) or 0)*3600 + int(m.group(2) or 0) * 60 + float(m.group(3))) if m else 0
waits = collections.defaultdict(list)  # thread -> [(start, end, site)]
for ev in ('jdk.JavaMonitorWait', 'jdk.ThreadPark'):
    for e in load(ev, 12):
        v = e['values']; name = (v['eventThread'].get('javaName') or '')
        if not name.startswith('columba-worker'): continue
        st = v.get('stackTrace'); frames = [fr(x) for x in st['frames']] if st else []
        site = next((x for x in frames if x.startswith(('SharedHashBuild', 'WorkerHandIns', 'GatherOperator', 'WorkerExchange', 'MergeGather', 'SharedAggregation', 'HashAggregate'))), None)
        if site is None: site = 'idle:' + (frames[3] if len(frames) > 3 else '?')
        s = ts(v['startTime']); waits[name].append((s, s + dur(v['duration']), site))
for k in waits: waits[k].sort()
def inwait(iv, t):
    i = bisect.bisect_right(iv, (t, 9e18, '')) - 1
    for j in range(max(0, i - 3), i + 1):
        a, b, site = iv[j]
        if a <= t <= b: return site
    return None
def waiting(name, t):
    # serial: every other worker thread is waiting (a columba wait, or idle in the pool) at t
    sites = []
    for other, iv in waits.items():
        if other == name: continue
        s = inwait(iv, t)
        if s is None: return None
        sites.append(s)
    return '+'.join(sorted(x for x in sites if not x.startswith('idle'))) or 'idle'
tot = collections.Counter(); ser = collections.Counter(); serincl = collections.Counter(); sertop = collections.Counter(); n = 0; ns = 0
for e in load('jdk.ExecutionSample'):
    v = e['values']; name = v['sampledThread'].get('javaName') or ''
    if not name.startswith('columba-worker'): continue
    n += 1; t = ts(v['startTime'])
    w = waiting(name, t)
    if w is None: continue
    ns += 1
    st = v.get('stackTrace'); frames = [fr(x) for x in st['frames']] if st else []
    cf = [x for x in frames if x.startswith(('HashJoin', 'GroupHash', 'HashAggregate', 'SharedHash', 'RowBuffer', 'JoinOperator', 'ColumnstoreScan', 'RuntimeFilter', 'SortOperator', 'TopN', 'VectorCopy', 'Project', 'Filter'))]
    sertop[' < '.join(cf[:3])] += 1
    for x in set(frames): serincl[x] += 1
    ser[w] += 1
print(f'worker samples {n}, while another worker waits {ns} ({100*ns/max(n,1):.1f}%)')
print('--- other waits at', dict(ser.most_common(8)))
print('--- serial samples by columba frames')
for k, c in sertop.most_common(25): print(f'{c:5d} {k}')
print('--- serial inclusive')
for k, c in serincl.most_common(45): print(f'{c:5d} {k}')

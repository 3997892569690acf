import re, sys, datetime, collections
# split.py runs.log samples.txt: JFR execution samples (`jfr print --events jdk.ExecutionSample --stack-depth 64`) of the
# main thread assigned to the Runs driver's runs (by their wall-clock end and wall), from run 40 on; self samples per
# run by frame for the fast runs (< 27 ms thread CPU) and the slow ones (> 31 ms).
runs = []
for l in open(sys.argv[1]):
    if ' run ' not in l: continue
    p = l.split(); runs.append((int(p[3]), float(p[5]), int(p[-1]) - float(p[7]), int(p[-1])))
day = datetime.datetime.fromtimestamp(runs[0][3] / 1000, datetime.timezone.utc).date()
mode = {'fast': collections.Counter(), 'slow': collections.Counter()}
for s in open(sys.argv[2]).read().split('jdk.ExecutionSample {')[1:]:
    m = re.search(r'startTime = (\d+):(\d+):(\d+)\.(\d+)', s)
    if not m or '"main"' not in s: continue
    h, mi, se, ms = map(int, m.groups())
    t = datetime.datetime(day.year, day.month, day.day, h, mi, se, ms * 1000, tzinfo=datetime.timezone.utc).timestamp() * 1000
    for r, cpu, start, end in runs:
        if r >= 40 and start <= t <= end:
            k = 'fast' if cpu < 27 else ('slow' if cpu > 31 else None)
            frames = re.findall(r'^\s+([\w$.<>/]+)\(.*?line: (\d+)', s, re.M)
            if k and frames: mode[k][frames[0][0]] += 1
            break
n = {k: sum(1 for r in runs if r[0] >= 40 and (r[1] < 27 if k == 'fast' else r[1] > 31)) for k in mode}
print('runs', n)
for f, _ in (mode['fast'] + mode['slow']).most_common(12):
    print('%6.2f %6.2f  %s' % (mode['fast'][f] / max(n['fast'], 1), mode['slow'][f] / max(n['slow'], 1), f))

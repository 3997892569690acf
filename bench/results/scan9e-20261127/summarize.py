import re, sys, statistics, collections
# summarize.py rounds.log [rounds2.log ...]: per build/engine and query, the medians of each JVM's medians.
rows = collections.defaultdict(lambda: collections.defaultdict(list))
for path in sys.argv[1:]:
    build = None
    for line in open(path):
        m = re.match(r'=== (\S+) (\S+) ', line)
        if m:
            build = m.group(1) + ' ' + m.group(2)
            continue
        m = re.match(r'(\S+) (\S+) warm wall \S+ cpu (\S+) \| cold wall \S+ cpu (\S+) readMB (\S+)', line)
        if m and build:
            rows[build][m.group(2)].append((float(m.group(3)), float(m.group(4)), float(m.group(5))))
for build, queries in rows.items():
    for q, runs in queries.items():
        warm = statistics.median(r[0] for r in runs); cold = statistics.median(r[1] for r in runs)
        print(f"{build:10s} {q:5s} JVMs {len(runs)} warm CPU ms {warm:7.1f} {[r[0] for r in runs]} cold CPU ms {cold:7.1f} {[r[1] for r in runs]} readMB {runs[0][2]}")

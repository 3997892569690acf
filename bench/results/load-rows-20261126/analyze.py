import sys, re, statistics, collections
def load(path):
    d = collections.defaultdict(dict)
    for line in open(path):
        m = re.match(r'RESULT round=(\d+) target=(\w+) format=(\w+) rows=\d+ wallMs=(\d+) threadCpuMs=(\d+) processCpuMs=(\d+)', line)
        if m:
            r, t, f, w, c, p = m.groups()
            d[int(r)][(t, f)] = (int(w), int(c), int(p))
    return d
for path in sys.argv[1:]:
    d = load(path)
    rounds = sorted(r for r in d if r > 0)
    print("==", path, "rounds", rounds)
    targets = sorted({t for r in rounds for (t, f) in d[r] if t != 'duckdb'})
    for t in targets:
        for f in ['csv', 'parquet']:
            if (t, f) not in d[rounds[0]]: continue
            for k, name in [(0, 'wall'), (1, 'threadCPU'), (2, 'processCPU')]:
                ratios = [d[r][('duckdb', f)][k] / d[r][(t, f)][k] for r in rounds if (t, f) in d[r] and ('duckdb', f) in d[r]]
                print(f"{t:9s} {f:8s} ÷DuckDB {name:10s} " + " ".join(f"{x:.2f}" for x in ratios) + f"  median {statistics.median(ratios):.2f}")
        # parquet vs csv
        if (t,'csv') in d[rounds[0]] and (t,'parquet') in d[rounds[0]]:
            for k, name in [(0, 'wall'), (1, 'threadCPU')]:
                ratios = [d[r][(t, 'csv')][k] / d[r][(t, 'parquet')][k] for r in rounds]
                print(f"{t:9s} parquet÷csv rate {name:10s} " + " ".join(f"{x:.2f}" for x in ratios) + f"  median {statistics.median(ratios):.2f}")
    for (t, f) in sorted(d[rounds[0]]):
        for k, name in [(1, 'threadCPU'), (2, 'processCPU')]:
            print(f"  median {name} {t} {f}: {statistics.median(d[r][(t,f)][k] for r in rounds if (t,f) in d[r])} ms")

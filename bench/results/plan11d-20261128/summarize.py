"""summarize.py first-ab.txt: per query, first-EXPLAIN CPU ms of each pair (base, new) and the median ratio."""
import re, sys, statistics, collections
pairs = collections.defaultdict(dict)
loads = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    m = re.search(r'round=(\d+) build=(\w+) load=([\d.]+) connect_cpu_ms=(\d+) first (\w+) cpu_ms=([\d.]+)', line)
    if m:
        r, b, load, connect, q, cpu = m.groups()
        pairs[(q, int(r))][b] = float(cpu)
        loads[(q, int(r))][b] = load
print('| query | round | load base / new | base | new | new ÷ base |')
print('|---|---|---|---|---|---|')
by_query = collections.defaultdict(list)
for (q, r), v in sorted(pairs.items(), key=lambda kv: (int(kv[0][0][1:]), kv[0][1])):
    if 'base' in v and 'new' in v:
        by_query[q].append((v['base'], v['new']))
        print(f"| {q} | {r} | {loads[(q, r)]['base']} / {loads[(q, r)]['new']} | {v['base']:.0f} | {v['new']:.0f} | {v['new'] / v['base']:.2f} |")
print()
print('| query | pairs | median base | median new | median of new ÷ base | range of new ÷ base |')
print('|---|---|---|---|---|---|')
for q in sorted(by_query, key=lambda q: int(q[1:])):
    p = by_query[q]
    ratios = [n / b for b, n in p]
    print(f"| {q} | {len(p)} | {statistics.median(b for b, _ in p):.0f} | {statistics.median(n for _, n in p):.0f} | "
          f"{statistics.median(ratios):.2f} | {min(ratios):.2f}–{max(ratios):.2f} |")

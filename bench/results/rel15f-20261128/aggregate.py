#!/usr/bin/env python3
"""Sums the per-kind flip tables and the kill counts of several `columba bench reliability` reports."""
import re, sys
from collections import defaultdict, OrderedDict

kinds = OrderedDict()
counts = defaultdict(int)
outcomes = defaultdict(int)
failures = []
cols = None
for name in sys.argv[1:]:
    section = None
    for line in open(name):
        if line.startswith('## '):
            section = line.strip()
        m = re.match(r'\| ([^|]+?) \| (\d[\d,]*) \|$', line.strip())
        if section and section.startswith('## kill') and m and not m.group(1).startswith('file kind'):
            counts[m.group(1)] += int(m.group(2).replace(',', ''))
        if section and section.startswith('## SQL') and m:
            outcomes[m.group(1)] += int(m.group(2).replace(',', ''))
        if 'FAILURE' in line or line.startswith('- seed') or 'index ' in line and 'XX000' in line:
            failures.append(line.strip())
        if line.startswith('| file kind'):
            cols = [c.strip() for c in line.strip().strip('|').split('|')][1:]
            continue
        if cols and line.startswith('| ') and not line.startswith('|---'):
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if len(cells) == len(cols) + 1 and all(c.isdigit() for c in cells[1:]):
                row = kinds.setdefault(cells[0], [0] * len(cols))
                for i, c in enumerate(cells[1:]):
                    row[i] += int(c)
            else:
                cols = None
for key, value in sorted(outcomes.items()):
    print(f'| {key} | {value:,} |')
if outcomes:
    print(f'| total | {sum(outcomes.values()):,} |')
for failure in failures:
    print(failure)
for key, value in counts.items():
    print(f'| {key} | {value:,} |')
print()
print('| file kind | ' + ' | '.join(cols or ['detected named', 'detected', 'same answers', 'silently wrong', 'internal error', 'hang']) + ' |')
print('|---|' + '---:|' * 6)
total = [0] * 6
for kind in sorted(kinds):
    row = kinds[kind]
    total = [a + b for a, b in zip(total, row)]
    print(f'| {kind} | ' + ' | '.join(f'{v:,}' for v in row) + ' |')
print(f'| **total ({sum(total):,})** | ' + ' | '.join(f'**{v:,}**' for v in total) + ' |')

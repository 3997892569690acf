"""oltp-table.py <run>=<base file>,<new file> ...: the MEDIAN lines of OltpCpu outputs as one table."""
import re, sys
print('| run | workload | Columba base | Columba new | new ÷ base | H2 (base JVM / new JVM) | Columba ÷ H2 base | Columba ÷ H2 new |')
print('|---|---|---|---|---|---|---|---|')
for argument in sys.argv[1:]:
    run, files = argument.split('=')
    base_file, new_file = files.split(',')
    def medians(path):
        out = {}
        for line in open(path):
            m = re.match(r'MEDIAN (\w+)\s+columba\s+([\d.]+) h2\s+([\d.]+)', line)
            if m:
                out[m.group(1)] = (float(m.group(2)), float(m.group(3)))
        return out
    base, new = medians(base_file), medians(new_file)
    for workload in base:
        (cb, hb), (cn, hn) = base[workload], new[workload]
        print(f'| {run} | {workload} | {cb:.1f} | {cn:.1f} | {cn / cb:.2f} | {hb:.1f} / {hn:.1f} | {cb / hb:.2f} | {cn / hn:.2f} |')

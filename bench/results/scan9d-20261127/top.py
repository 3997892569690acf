import sys, subprocess, collections, re
# top.py file.jfr [depth] : self-time top frames, and inclusive by method
f = sys.argv[1]; n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
out = subprocess.run(['/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr','print','--events','jdk.ExecutionSample','--stack-depth','64',f],capture_output=True,text=True).stdout
samples = out.split('jdk.ExecutionSample')
selfc = collections.Counter(); incl = collections.Counter(); total = 0
for s in samples:
    frames = re.findall(r'^\s+([\w$.<>/]+)\(.*?line: (\d+)', s, re.M)
    if not frames: continue
    total += 1
    selfc[frames[0][0]] += 1
    seen = set()
    for fr, _ in frames:
        if fr not in seen: incl[fr] += 1; seen.add(fr)
print('total', total)
print('--- self')
for k, v in selfc.most_common(n): print(f'{100*v/total:5.1f} {k}')
print('--- inclusive')
for k, v in incl.most_common(n): print(f'{100*v/total:5.1f} {k}')

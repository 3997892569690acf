import sys, re, collections
# usage: shares.py file.txt  (output of jfr print --events jdk.ExecutionSample --stack-depth 96)
text = open(sys.argv[1]).read()
events = text.split('jdk.ExecutionSample')
root = sys.argv[2] if len(sys.argv) > 2 else 'CopyCommand'
stacks = []
for e in events:
    frames = re.findall(r'^\s+([\w.$]+(?:\.[\w$<>]+))\(', e, re.M)
    if not frames: continue
    if any(root in f for f in frames):
        stacks.append(frames)
n = len(stacks)
print("samples under", root, n)
incl = collections.Counter(); top = collections.Counter()
for fr in stacks:
    top[fr[0]] += 1
    seen = set()
    for f in fr:
        if f not in seen:
            incl[f] += 1; seen.add(f)
print("--- top frames (self)")
for f, c in top.most_common(25): print(f"{100*c/n:5.1f}% {f}")
print("--- inclusive")
for f, c in incl.most_common(60): print(f"{100*c/n:5.1f}% {f}")

"""incl.py <jfr print of jdk.CPUTimeSample> <marker> [N]: inclusive share of each frame in main-thread samples whose
stack contains <marker> (e.g. DriverManager.getConnection), and the share under class loading."""
import sys, collections
def samples(path):
    cur = None
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('jdk.CPUTimeSample'):
            cur = {'thread': None, 'frames': []}
        elif cur is not None and 'eventThread' in line:
            cur['thread'] = line.split('"')[1]
        elif cur is not None and line.startswith('    ') and not line.strip().startswith(']') and '=' not in line:
            cur['frames'].append(line.strip())
        elif cur is not None and line.startswith('}'):
            yield cur; cur = None
marker = sys.argv[2]
incl = collections.Counter(); total = 0; classload = 0
for s in samples(sys.argv[1]):
    fr = s['frames']
    if s['thread'] != 'main' or not any(marker in f for f in fr): continue
    total += 1
    text = ' '.join(fr)
    if 'ClassLoader' in text or 'defineClass' in text or 'linkCallSite' in text or 'MethodHandleNatives' in text:
        classload += 1
    seen = set()
    for f in fr:
        name = f.split('line:')[0].strip()
        if name in seen: continue
        seen.add(name); incl[name] += 1
print('samples', total, 'class loading/linking', round(100 * classload / max(1, total), 1), '%')
for f, v in incl.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 60):
    print(f"{100 * v / total:5.1f}% {f}")

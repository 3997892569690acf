"""incl.py <jfr print of jdk.CPUTimeSample> [N]: inclusive share of each frame in main-thread samples inside PlanTime.explain."""
import os, sys, collections
# the sample reader of plan11c's phases.py
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'plan11c-20261127', 'phases.py')).read().split('PH=')[0])
incl=collections.Counter(); T=0
for s in samples(sys.argv[1]):
    fr=s['frames']
    if s['thread']!='main' or not any('PlanTime.explain' in f for f in fr): continue
    T+=s['period']
    seen=set()
    for f in fr:
        name=f.split('(')[0].split(' ')[0] if False else f.split('line:')[0].strip()
        name=name.split('(')[0]
        if name in seen: continue
        seen.add(name); incl[name]+=s['period']
print('total ms',round(T))
for f,v in incl.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 80):
    print(f"{100*v/T:5.1f}% {f}")

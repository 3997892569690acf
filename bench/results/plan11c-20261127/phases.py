import sys, re, collections
# classify main-thread CPU samples inside the EXPLAIN (frames below PlanTime.explain) by planning phase
def samples(path):
    cur=None; frames=[]
    for line in open(path):
        line=line.rstrip('\n')
        if line.startswith('jdk.CPUTimeSample'):
            cur={'thread':None,'period':0}; frames=[]
        elif cur is not None and 'eventThread' in line:
            cur['thread']=line.split('"')[1]
        elif cur is not None and 'samplingPeriod' in line:
            v=line.split('=')[1].strip(); num=float(v.split()[0]); cur['period']=num*(1000 if 'ms' not in v and 's' in v.split()[1] else 1)
        elif cur is not None and line.startswith('    ') and not line.strip().startswith(']'):
            frames.append(line.strip())
        elif cur is not None and line.startswith('}'):
            cur['frames']=frames; yield cur; cur=None
PH=[('parse','ColumbaSqlParser.parse'),('validate','QueryPlanner.validate('),('sql2rel','SqlToRelConverter.convertQuery'),
    ('volcano','VolcanoPlanner.'),('orderJoins','QueryPlanner.orderJoins'),('rewrite','QueryPlanner.rewrite('),
    ('catalog','CatalogSchema.build'),('post','QueryPlanner.planStatement'),('session','Session.'),('jdbc','dev.columba.jdbc')]
def phase(fr):
    # outermost-first: walk from root to leaf, choose the deepest matching phase marker? use first marker found from leaf upward
    for f in fr:
        for name,m in PH:
            if m in f: return name
    return 'other'
def kind(fr):
    s=' '.join(fr)
    if 'ClassLoader' in s or 'defineClass' in s or 'linkCallSite' in s or 'BootstrapMethodInvoker' in s or 'MethodHandleNatives' in s or 'Class.forName' in s: return 'classload'
    return 'code'
tot=collections.Counter(); kinds=collections.Counter(); n=0
for s in samples(sys.argv[1]):
    fr=s['frames']
    if s['thread']!='main' or not any('PlanTime.explain' in f for f in fr): continue
    p=phase(fr); tot[p]+=s['period']; kinds[(p,kind(fr))]+=s['period']; n+=1
T=sum(tot.values())
print('samples',n,'ms',round(T))
for p,v in tot.most_common():
    print(f"{p:12s} {v:7.0f} ms {100*v/T:5.1f}%  classload {kinds[(p,'classload')]:6.0f}")

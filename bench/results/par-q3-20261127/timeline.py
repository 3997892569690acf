import sys,collections
lines=[l.split(None,3) for l in open(sys.argv[1]) if l.startswith('TRACE')]
start='exec-start' if any(w.startswith('exec-start') for _,_,_,w in lines) else 'gather-start'
# split executions at gather-start on main
execs=[]; cur=None
for _,t,th,what in lines:
    t=int(t); what=what.strip()
    if what.startswith(start):
        cur=[]; execs.append(cur); t0=t
    if cur is not None: cur.append((t,th,what))
which=int(sys.argv[2]) if len(sys.argv)>2 else -1
ex=execs[which]
t0=ex[0][0]
names={}
for t,th,what in ex:
    if th not in names: names[th]='T%d'%len(names)
    print(f'{(t-t0)/1e6:8.2f} ms  {names[th]:3s} {what}')

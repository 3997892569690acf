import subprocess, sys, re, statistics, json, time, os
# pair.py <mode first|warm> <rounds> <queries...>: base and new JVMs started together, each on its own database copy;
# the copies swap every round. Prints per-run figures and per-round new/base ratios as JSON lines.
SIDES=tuple(os.environ.get('SIDES','base new').split()); mode=sys.argv[1]; rounds=int(sys.argv[2]); qs=sys.argv[3:]
def parse(out):
    pc=[(int(a),int(b)) for a,b in re.findall(r'parse and compile time: \n\s+CPU time = (\d+) ms, elapsed time = (\d+) ms', out)]
    ex=[(int(a),int(b)) for a,b in re.findall(r'Execution Times:\n\s+CPU time = (\d+) ms,\s+elapsed time = (\d+) ms', out)]
    m=re.search(r'PROC user=([\d.]+) sys=([\d.]+) wall=([\d.]+)', out)
    return pc, ex, (float(m.group(1)), float(m.group(2)), float(m.group(3))) if m else None
for r in range(rounds):
    for q in qs:
        dbs=('dbA','dbB') if r%2==0 else ('dbB','dbA')
        f = f'/tmp/lead/q/{q}.sql' if mode=='first' else f'/tmp/plan11b/m/warm-{q}.sql'
        load=os.getloadavg()[0]
        ps={}
        for side,db in zip(SIDES,dbs):
            ps[side]=subprocess.Popen(['./run1.sh',side,db,f],stdout=subprocess.PIPE,stderr=subprocess.STDOUT,text=True)
        res={}
        for side,p in ps.items():
            out,_=p.communicate(); pc,ex,proc=parse(out)
            if not pc: print('FAILED',side,q,out[-500:],flush=True); continue
            if mode=='first':
                res[side]=dict(pc_cpu=pc[0][0],pc_wall=pc[0][1],ex_cpu=ex[0][0] if ex else None,proc_user=proc[0],proc_wall=proc[2])
            else:
                tail=pc[-20:]
                res[side]=dict(first_cpu=pc[0][0],warm_cpu=statistics.median(a for a,b in tail),warm_wall=statistics.median(b for a,b in tail),n=len(pc))
        print(json.dumps(dict(round=r,q=q,load=round(load,1),**{f'{s}_{k}':v for s,d in res.items() for k,v in d.items()})),flush=True)

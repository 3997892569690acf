import sys,re,collections,datetime
# per query (time windows from Prof2's output): samples on the session thread (serial) vs worker threads, and worker balance
wins=[(l.split('\t')[0],int(l.split('\t')[1]),int(l.split('\t')[2])) for l in open(sys.argv[2]) if l.count('\t')==2]
text=open(sys.argv[1]).read()
stat=collections.defaultdict(lambda: collections.Counter())
top=collections.defaultdict(lambda: collections.Counter())
for e in text.split('jdk.ExecutionSample')[1:]:
    m=re.search(r'startTime = (\S+) \((\S+)\)',e)
    t=re.search(r'startTime = ([0-9:.]+)',e)
    th=re.search(r'sampledThread = "([^"]*)"',e)
    if not t or not th: continue
    # jfr prints local time HH:MM:SS.mmm; convert using date of windows
    hh,mm,ss=t.group(1).split(':'); sec=int(hh)*3600+int(mm)*60+float(ss)
    for q,s0,s1 in wins:
        d0=(s0/1000)%86400; d1=(s1/1000)%86400
        if d0<=sec<=d1:
            name=th.group(1)
            kind='worker' if 'worker' in name else ('main' if name=='main' else 'other')
            stat[q][kind]+=1
            if kind=='worker': stat[q][name]+=1
            if kind=='main':
                frames=re.findall(r'^\s+([\w$.<>]+)\(.*?\)\s+line:',e,re.M)
                cl=[f.split('.')[-2] for f in frames if 'exec.' in f and 'Operator' in f]
                top[q][cl[0] if cl else (frames[0].split('.')[-2] if frames else '?')]+=1
            break
for q,s0,s1 in wins:
    c=stat[q]; w=c['worker']; m=c['main']; tot=w+m
    workers=sorted([v for k,v in c.items() if k.startswith('columba-worker')],reverse=True)
    print(f"{q}\tsamples {tot}\tserial(main) {100*m/max(tot,1):.0f}%\tworker threads {len(workers)} top {workers[:4]}\tmain in: {', '.join(f'{k} {v}' for k,v in top[q].most_common(3))}")

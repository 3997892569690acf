import json,sys,collections
# Samples of the loading thread with CopyCommand on the stack (Columba's COPY, not DuckDB's), first matching part wins.
parts=[('log: page images copied (pageRecord)','TransactionManager.pageRecord'),('minimally logged page writes (WriteSet.writeMinimallyLogged*)','BufferPool.writeMinimallyLogged'),
('commit other','TransactionManager.commit'),('checkpoint','Database.checkpoint'),('spill','WriteSet.spillColdest'),
('CSV parse','CsvBlockParser.parse'),('WriteSet.modify/pin','WriteSet.modify'),('row encode','RowCodec.'),('key encode','KeyCodec.encode'),('B+tree builder','BTree$Builder'),('bulk insert other','BulkInserter.insert'),('finish','BulkInserter.finish'),('copy other','CopyCommand.execute')]
for kind in ('exec','native'):
  for s in 'BN':
    d=json.load(open(f'/tmp/minlog/p2-{s}-{kind}.json'))
    c=collections.Counter(); n=0; top=collections.Counter()
    for e in d['recording']['events']:
        v=e['values']
        if v['sampledThread']['javaName']!='main': continue
        fr=[x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in v['stackTrace']['frames']]
        joined=' '.join(fr)
        if 'CopyCommand' not in joined: continue
        n+=1
        for name,key in parts:
            if key in joined: c[name]+=1; break
        else: c['other']+=1
        if kind=='native':
            # the Java frame that called into native code, and the one above that
            top[' < '.join(fr[:3])]+=1
    print(f'== {kind} {"base" if s=="B" else "new"}: {n} samples')
    for k,v in c.most_common(): print('  %5.1f%% %5d %s'%(100*v/n,v,k))
    if kind=='native':
        for k,v in top.most_common(8): print('     %5d %s'%(v,k))

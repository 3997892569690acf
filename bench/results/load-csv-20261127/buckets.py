import json,sys,collections
d=json.load(open(sys.argv[1])); thread=sys.argv[2]
parts=[('parse','CsvBlockParser.parse'),('pageRecord (WAL images)','TransactionManager.pageRecord'),('commit other','TransactionManager.commit'),
('writeSet modify/pin','WriteSet.modify'),('row encode','RowCodec.'),('key encode','KeyCodec.encode'),('sorter','EntrySorter'),('builder','BTree$Builder'),('checkpoint','Database.checkpoint'),('bulk insert other','BulkInserter.insert'),('finish','BulkInserter.finish'),('copy other','CopyCommand.execute')]
c=collections.Counter(); n=0; selfc=collections.Counter()
for e in d['recording']['events']:
    v=e['values']
    if v['sampledThread']['javaName']!=thread: continue
    fr=[x['method']['type']['name'].split('/')[-1]+'.'+x['method']['name'] for x in v['stackTrace']['frames']]
    n+=1
    joined=' '.join(fr)
    for name,key in parts:
        if key in joined: c[name]+=1; break
    else: c['other']+=1
    selfc[fr[0]]+=1
print('samples',n)
for k,v in c.most_common(): print('%5.1f%% %s'%(100*v/n,k))
for k,v in selfc.most_common(int(sys.argv[3]) if len(sys.argv)>3 else 20): print(' self %5.1f%% %s'%(100*v/n,k))

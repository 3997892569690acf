import sys, re, collections
text = open(sys.argv[1]).read()
rules = [
 ('commit (log, install)', ['Session.finishWrite']),
 ('finish: merge of runs + build', ['BulkInserter.finish']),
 ('Parquet decoding', ['ParquetFileFormat$Reader', 'ParquetFileFormat.open']),
 ('CSV parsing', ['CsvReader.hasNext', 'CsvReader.advance', 'CsvReader.<init>']),
 ('row as Object[] (ColumnBatch.row / javaValues)', ['ColumnBatch.row', 'BulkInserter.javaValues']),
 ('key encoding', ['KeyCodec.encode', 'TableStore.keyValues']),
 ('row encoding', ['RowCodec.encode', 'RowCodec.write', 'RowCodec.encodedSize', 'TableStore.encodeRow', 'RowCodec.columnsToMoveOutOfRow']),
 ('sort: add, sort and write runs', ['EntrySorter']),
 ('build: Builder.add / restart', ['BTree$Builder']),
]
c = collections.Counter(); n = 0
for e in text.split('jdk.ExecutionSample'):
    fr = re.findall(r'^\s+([\w.$]+(?:\.[\w$<>]+))\(', e, re.M)
    if not fr or not any('CopyCommand' in f for f in fr): continue
    n += 1
    for name, pats in rules:
        if any(p in f for f in fr for p in pats):
            c[name] += 1; break
    else:
        c['other'] += 1
print("samples", n)
for name, _ in rules + [('other', None)]:
    print(f"| {name} | {100*c[name]/n:.1f}% |")

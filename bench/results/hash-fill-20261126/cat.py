def category(names):
    j=' '.join(names)
    if 'ParallelFill' in j: return 'fill in parallel (all workers)'
    if 'HashJoinOperator.assemble' in j or 'HashJoinOperator.buildFrom' in j:
        if 'readShare' in j: return 'read share'
        return 'build by one (copy shares, insert, link)'
    if 'readShare' in j: return 'read share'
    if 'RepartitionOperator' in j: return 'repartition'
    if 'HashAggregateOperator' in j: return 'aggregate'
    if 'JoinOperator' in j: return 'probe'
    if 'Scan' in j: return 'scan'
    return 'other'

-- TPC-H Q11, Important Stock Identification. Validation parameters: NATION = GERMANY, FRACTION = 0.0001.
-- The specification scales FRACTION as 0.0001 / SF; the tests keep 0.0001, which at their small scale factor
-- keeps hundreds of rows to compare rather than a handful.
select
	ps_partkey,
	sum(ps_supplycost * ps_availqty) as value
from
	partsupp,
	supplier,
	nation
where
	ps_suppkey = s_suppkey
	and s_nationkey = n_nationkey
	and n_name = 'GERMANY'
group by
	ps_partkey having
		sum(ps_supplycost * ps_availqty) > (
			select
				sum(ps_supplycost * ps_availqty) * 0.0001000000
			from
				partsupp,
				supplier,
				nation
			where
				ps_suppkey = s_suppkey
				and s_nationkey = n_nationkey
				and n_name = 'GERMANY'
		)
order by
	value desc

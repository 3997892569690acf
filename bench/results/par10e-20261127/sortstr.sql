SELECT l_orderkey, l_shipdate, l_comment FROM lineitem WHERE l_shipdate >= DATE '1998-01-01' ORDER BY l_comment, l_orderkey

"""psycopg 3 against a Columba server: named (server-side) cursors and information_schema.

Run by PsycopgTest with the server's port; prints what it checked and exits non-zero at the first difference.
"""
import sys

import psycopg


def check(label, actual, expected):
    if actual != expected:
        print(f"FAILED {label}: expected {expected!r}, got {actual!r}")
        sys.exit(1)
    print(f"ok {label}")


port = int(sys.argv[1])
print("psycopg", psycopg.__version__, "libpq", psycopg.pq.version(), psycopg.pq.__impl__)
conn = psycopg.connect(host="127.0.0.1", port=port, user="tester", dbname="shop")
with conn.cursor() as cur:
    cur.execute("CREATE TABLE items (id INT NOT NULL PRIMARY KEY, name VARCHAR(20), price DECIMAL(10,2))")
    cur.execute("INSERT INTO items SELECT generate_series, 'item ' || CAST(generate_series AS VARCHAR(10)),"
                " generate_series * 1.5 FROM generate_series(1, 1000)")
conn.commit()

# A named cursor: DECLARE through the extended protocol with a parameter, Describe of the cursor's portal,
# FETCH FORWARD n per itersize.
with conn.cursor(name="items cursor") as cur:
    cur.itersize = 100
    cur.execute("SELECT id, name, price FROM items WHERE id > %s ORDER BY id", (990,))
    check("description", [column.name for column in cur.description], ["id", "name", "price"])
    check("fetchone", cur.fetchone(), (991, "item 991", __import__("decimal").Decimal("1486.50")))
    check("fetchmany", [row[0] for row in cur.fetchmany(3)], [992, 993, 994])
    cur.scroll(2)
    check("after scroll(2)", cur.fetchone()[0], 997)
    check("iteration", [row[0] for row in cur], [998, 999, 1000])
conn.commit()

with conn.cursor(name="all items") as cur:
    cur.itersize = 64
    cur.execute("SELECT id FROM items ORDER BY id")
    check("iterating 1000 rows by 64", sum(row[0] for row in cur), 500500)
conn.commit()

# WITH HOLD survives the commit; binary rows decode.
with conn.cursor(name="held", withhold=True) as cur:
    cur.execute("SELECT id FROM items WHERE id <= 3 ORDER BY id")
    conn.commit()
    check("withhold after commit", cur.fetchall(), [(1,), (2,), (3,)])
with conn.cursor(name="binary", binary=True) as cur:
    cur.execute("SELECT id, name FROM items WHERE id = %s", (7,))
    check("binary cursor", cur.fetchall(), [(7, "item 7")])
conn.rollback()

# Closing a named cursor that was never executed asks pg_cursors first.
unused = conn.cursor(name="never executed")
unused.close()
conn.rollback()

# Going backwards is refused with PostgreSQL's SQLSTATE; the transaction is then failed until rollback.
with conn.cursor(name="forward only") as cur:
    cur.execute("SELECT id FROM items ORDER BY id")
    cur.fetchone()
    try:
        cur.scroll(-1)
        check("scroll(-1) refused", "no error", "55000")
    except psycopg.errors.ObjectNotInPrerequisiteState as error:
        check("scroll(-1) refused", error.sqlstate, "55000")
conn.rollback()

# information_schema with parameters, as ORMs check for a table.
with conn.cursor() as cur:
    cur.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = %s AND table_name = %s",
                ("public", "items"))
    check("has_table", cur.fetchall(), [("items",)])
    cur.execute("SELECT column_name, data_type, numeric_precision, numeric_scale, character_maximum_length"
                " FROM information_schema.columns WHERE table_name = %s ORDER BY ordinal_position", ("items",))
    check("columns", cur.fetchall(), [("id", "integer", 32, 0, None), ("name", "character varying", None, None, 20),
                                      ("price", "numeric", 10, 2, None)])
conn.rollback()

# uuid.UUID parameters, in text (psycopg's default) and in binary (%b): Columba keeps the canonical text.
import uuid
token = uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
with conn.cursor() as cur:
    cur.execute("CREATE TABLE tokens (token VARCHAR(36), owner VARCHAR(20))")
    cur.execute("INSERT INTO tokens VALUES (%s, %s)", (token, "ann"))
    cur.execute("INSERT INTO tokens VALUES (%b, %s)", (uuid.UUID("00000000-0000-0000-0000-0000000000ff"), "bob"))
    cur.execute("SELECT owner FROM tokens WHERE token = %b", (token,))
    check("uuid binary parameter", cur.fetchall(), [("ann",)])
    cur.execute("SELECT token FROM tokens WHERE owner = %s", ("bob",))
    check("uuid stored as text", cur.fetchall(), [("00000000-0000-0000-0000-0000000000ff",)])
conn.commit()
conn.close()
print("done")

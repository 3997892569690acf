"""psycopg 3 against a Columba server: what an application does first.

Connect, create, insert and select with parameters of every common type (text and binary), an error and then
recovery, a transaction rolled back, a long query cancelled from another thread, COPY in and out.
Run by PsycopgTest with the server's port; prints what it checked and exits non-zero at the first difference.
"""
import datetime
import decimal
import sys
import threading
import time
import uuid

import psycopg


def check(label, actual, expected):
    if actual != expected:
        print(f"FAILED {label}: expected {expected!r}, got {actual!r}")
        sys.exit(1)
    print(f"ok {label}")


port = int(sys.argv[1])
conn = psycopg.connect(host="127.0.0.1", port=port, user="tester", dbname="basics", autocommit=True)
check("server_version", conn.info.parameter_status("server_version").startswith("15.0"), True)

conn.execute("CREATE TABLE everything (id INT NOT NULL PRIMARY KEY, big BIGINT, d DOUBLE, n DECIMAL(12, 3),"
             " b BOOLEAN, s VARCHAR(40), day DATE, seen TIMESTAMP, u UUID, raw VARBINARY(16))")
row = (1, 9_000_000_000, 2.5, decimal.Decimal("1234.567"), True, "grüße, 'quoted'", datetime.date(2024, 2, 29),
       datetime.datetime(2024, 5, 1, 10, 30, 15, 123456), uuid.UUID("1b4e28ba-2fa1-11d2-883f-0016d3cca427"),
       b"\x00\x01\xfe\xff")
conn.execute("INSERT INTO everything VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
# The same values again, sent in binary.
conn.execute("INSERT INTO everything VALUES (%b, %b, %b, %b, %b, %b, %b, %b, %b, %b)", (2,) + row[1:])
conn.execute("INSERT INTO everything (id) VALUES (%s)", (3,))
for binary in (False, True):
    with conn.cursor(binary=binary) as cur:
        cur.execute("SELECT * FROM everything WHERE id <= %s AND s = %s ORDER BY id", (2, "grüße, 'quoted'"))
        check(f"every type back (binary={binary})", cur.fetchall(), [row, (2,) + row[1:]])
        cur.execute("SELECT * FROM everything WHERE id = %s", (3,))
        check(f"nulls back (binary={binary})", cur.fetchone(), (3,) + (None,) * 9)
with conn.cursor() as cur:
    cur.execute("SELECT id FROM everything WHERE day = %s AND seen > %s AND u = %s AND n > %s ORDER BY id",
                (datetime.date(2024, 2, 29), datetime.datetime(2024, 1, 1), row[8], decimal.Decimal("1000")))
    check("parameters in a filter", cur.fetchall(), [(1,), (2,)])

# An error, then the connection goes on.
try:
    conn.execute("SELECT * FROM no_such_table")
    check("missing table", "no error", "42P01")
except psycopg.errors.UndefinedTable as error:
    check("missing table", error.sqlstate, "42P01")
try:
    conn.execute("INSERT INTO everything (id) VALUES (%s)", (1,))
    check("duplicate key", "no error", "23505")
except psycopg.errors.UniqueViolation as error:
    check("duplicate key", error.sqlstate, "23505")
check("after the errors", conn.execute("SELECT COUNT(*) FROM everything").fetchone(), (3,))

# A transaction rolled back, and one that failed.
conn.autocommit = False
conn.execute("INSERT INTO everything (id) VALUES (10)")
conn.execute("DELETE FROM everything WHERE id = 1")
conn.rollback()
check("rolled back", conn.execute("SELECT COUNT(*), MIN(id) FROM everything").fetchone(), (3, 1))
conn.rollback()
conn.execute("INSERT INTO everything (id) VALUES (11)")
try:
    conn.execute("SELECT 1 / 0")
except psycopg.errors.DivisionByZero as error:
    check("division by zero", error.sqlstate, "22012")
try:
    conn.execute("SELECT 1")
    check("failed transaction", "no error", "25P02")
except psycopg.errors.InFailedSqlTransaction as error:
    check("failed transaction", error.sqlstate, "25P02")
conn.rollback()
check("failed transaction rolled back", conn.execute("SELECT COUNT(*) FROM everything WHERE id = 11").fetchone(), (0,))
conn.commit()
conn.autocommit = True

# A long query cancelled from another thread (CancelRequest on a connection of its own).
def cancel_until_done(done):
    while not done.is_set():
        time.sleep(0.2)
        conn.cancel_safe()

done = threading.Event()
canceller = threading.Thread(target=cancel_until_done, args=(done,))
canceller.start()
try:
    conn.execute("SELECT COUNT(*) FROM generate_series(1, 100000) AS a (x) CROSS JOIN generate_series(1, 100000) AS b (y)")
    check("cancelled", "finished", "57014")
except psycopg.errors.QueryCanceled as error:
    check("cancelled", error.sqlstate, "57014")
finally:
    done.set()
    canceller.join()
check("after the cancel", conn.execute("SELECT 1").fetchone(), (1,))

# COPY in and out.
with conn.cursor() as cur:
    with cur.copy("COPY everything (id, s) FROM STDIN") as copy:
        for i in range(100, 110):
            copy.write_row((i, f"copied {i}"))
    check("copy in", cur.execute("SELECT COUNT(*) FROM everything WHERE s LIKE 'copied%'").fetchone(), (10,))
    with cur.copy("COPY (SELECT id, s FROM everything WHERE id >= 100 ORDER BY id) TO STDOUT") as copy:
        check("copy out", [tuple(r) for r in copy.rows()][:2], [("100", "copied 100"), ("101", "copied 101")])
conn.close()
print("done")

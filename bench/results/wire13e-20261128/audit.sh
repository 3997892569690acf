#!/bin/bash
# The audit's runs (bench/results/wire13e-20261128.md, "Runs for the audit"), from a built tree ($1, default .).
cd "${1:-.}"
for c in "" demo sql server inspect diag "diag dictionary" repair trino bench; do
  for o in --help --version; do echo "=== columba $c $o"; ./columba $c $o 2>&1 | head -3; echo "rc=${PIPESTATUS[0]}"; done
done
DIR=$(mktemp -d); IP=$(hostname -I | awk '{print $1}')
./columba server $DIR/db --listen $IP --port 55432; echo "rc=$?"   # refused: no login
./columba sql $DIR/db -c "CREATE LOGIN alice WITH PASSWORD = 'Secret-42'"
./columba server $DIR/db --listen $IP --port 55432 --metrics-port 59090 & SERVER=$!
sleep 30
psql -h $IP -p 55432 -U alice -w -c "SELECT 1"; echo "exit $?"
PGPASSWORD=wrong psql -h $IP -p 55432 -U alice -c "SELECT 1"; echo "exit $?"
PGPASSWORD=Secret-42 psql -h $IP -p 55432 -U alice -c "CREATE TABLE t (id INT NOT NULL PRIMARY KEY, name VARCHAR(20), amount DECIMAL(10,2))" \
  -c "CREATE INDEX t_name ON t (name)" -c "INSERT INTO t VALUES (1, 'a', 2.50)" -c '\dt' -c '\d t'; echo "exit $?"
curl -s http://$IP:59090/metrics | grep -c "^columba_"
kill $SERVER

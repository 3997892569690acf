-- The start-up cache's training run. `./columba build` runs this script once in a fresh database
-- (in a temporary directory, which is also the working directory, so 'sales.csv' lands there) with
-- -XX:AOTCacheOutput; the JVM keeps every class it loaded and linked, and the profiles of the hot
-- methods, in cli/target/columba.aot, and later commands start from that cache. The statements
-- are the kinds people run first -- DDL, loads, point reads, scans, joins, aggregates, sorts,
-- windows, subqueries, EXPLAIN, COPY -- over both storage kinds. A statement that fails here fails
-- the training (StartupTrainingTest runs this file), so keep it to what Columba supports.
CREATE TABLE part_rows (id INT PRIMARY KEY, kind VARCHAR(10) NOT NULL, weight DECIMAL(12, 2), added TIMESTAMP);
INSERT INTO part_rows SELECT generate_series, CASE WHEN MOD(generate_series, 3) = 0 THEN 'bolt' ELSE 'nut' END, CAST(generate_series AS DECIMAL(12, 2)) / 8, TIMESTAMP '2024-01-01 00:00:00' FROM generate_series(1, 1000);
INSERT INTO part_rows VALUES (1001, 'washer', 0.25, NULL), (1002, 'pin', NULL, TIMESTAMP '2024-02-03 04:05:06');
CREATE TABLE sales_rows (id BIGINT PRIMARY KEY, part INT NOT NULL, flag VARCHAR(1), quantity DECIMAL(15, 2), price DECIMAL(15, 2), discount DECIMAL(15, 2), ratio DOUBLE, shipdate DATE, note VARCHAR(40));
INSERT INTO sales_rows SELECT generate_series, 1 + MOD(generate_series * 7, 1000), CASE WHEN MOD(generate_series, 3) = 0 THEN 'A' ELSE 'N' END, CAST(MOD(generate_series, 50) AS DECIMAL(15, 2)), CAST(generate_series AS DECIMAL(15, 2)) / 100, CAST(MOD(generate_series, 10) AS DECIMAL(15, 2)) / 100, generate_series / 7.0, DATEADD(day, MOD(generate_series, 2000), DATE '1993-01-01'), 'note ' || CAST(MOD(generate_series, 1000) AS VARCHAR(10)) FROM generate_series(1, 30000);
CREATE TABLE sales (id BIGINT, part INT NOT NULL, flag VARCHAR(1), quantity DECIMAL(15, 2), price DECIMAL(15, 2), discount DECIMAL(15, 2), ratio DOUBLE, shipdate DATE, note VARCHAR(40)) WITH (storage = columnstore);
INSERT INTO sales SELECT * FROM sales_rows;
CREATE INDEX sales_rows_part ON sales_rows (part);
UPDATE sales_rows SET note = 'changed' WHERE id < 100;
DELETE FROM sales WHERE id > 29900;
SET STATISTICS IO ON;
SET STATISTICS TIME ON;
SELECT flag, COUNT(*), SUM(quantity), AVG(price), SUM(price * (1 - discount)), MIN(ratio) FROM sales WHERE shipdate <= DATE '1998-09-02' - INTERVAL '90' DAY GROUP BY flag ORDER BY flag;
SELECT SUM(price * discount) FROM sales WHERE shipdate >= DATE '1994-01-01' AND shipdate < DATE '1995-01-01' AND discount BETWEEN 0.05 AND 0.07 AND quantity < 24;
SET STATISTICS TIME OFF;
SET STATISTICS IO OFF;
SELECT p.kind, COUNT(*), MAX(s.shipdate) FROM sales s JOIN part_rows p ON s.part = p.id WHERE s.note LIKE '%9%' GROUP BY p.kind HAVING COUNT(*) > 1;
SELECT s.id, s.price FROM sales_rows s WHERE s.part IN (SELECT id FROM part_rows WHERE weight > 100) ORDER BY s.price DESC, s.id FETCH FIRST 5 ROWS ONLY;
SELECT * FROM sales_rows WHERE id = 12345;
SELECT part, quantity, ROW_NUMBER() OVER (PARTITION BY part ORDER BY id), SUM(price) OVER (PARTITION BY part) FROM sales_rows WHERE part < 3;
SELECT COUNT(DISTINCT part) FROM sales WHERE NOT EXISTS (SELECT 1 FROM part_rows p WHERE p.id = sales.part AND p.kind = 'bolt');
SELECT p.id, p.kind FROM part_rows p WHERE p.weight > (SELECT AVG(s.quantity) FROM sales s WHERE s.part = p.id) ORDER BY p.id FETCH FIRST 3 ROWS ONLY;
WITH totals (part, total) AS (SELECT part, SUM(price) FROM sales GROUP BY part) SELECT t.part, t.total, p.kind FROM totals t LEFT JOIN part_rows p ON p.id = t.part WHERE t.total > 100 ORDER BY t.total DESC FETCH FIRST 3 ROWS ONLY;
SELECT kind FROM part_rows WHERE id < 10 UNION SELECT flag FROM sales WHERE id < 10 ORDER BY 1;
SELECT EXTRACT(YEAR FROM shipdate) AS y, SUBSTRING(note FROM 1 FOR 4), UPPER(flag), COALESCE(NULLIF(flag, 'A'), '-') FROM sales WHERE id BETWEEN 10 AND 12 ORDER BY id;
EXPLAIN SELECT flag, SUM(quantity) FROM sales GROUP BY flag;
COPY (SELECT * FROM sales WHERE id < 1000) TO 'sales.csv' (FORMAT csv, HEADER);
CREATE TABLE loaded (id BIGINT, part INT NOT NULL, flag VARCHAR(1), quantity DECIMAL(15, 2), price DECIMAL(15, 2), discount DECIMAL(15, 2), ratio DOUBLE, shipdate DATE, note VARCHAR(40)) WITH (storage = columnstore);
COPY loaded FROM 'sales.csv' (FORMAT csv, HEADER);
SELECT table_name, storage, row_count FROM sys.tables ORDER BY table_name;
CHECKPOINT;

-- Seed 000 ("SQL Server Read Ahead Reads Example"), every statement in the order the article runs
-- them, as written there, with two changes:
--   * "SELECT * INTO Testtable2 FROM TestTable t1" is written CREATE TABLE ... AS SELECT
--     (Columba does not parse T-SQL's SELECT ... INTO);
--   * a semicolon ends CREATE UNIQUE CLUSTERED INDEX and the PRINTs, which the article leaves off
--     (T-SQL does not require them; Columba separates statements by semicolons).

CREATE TABLE DBO.TestTable (
   ID int IDENTITY (1, 1) NOT NULL,
   IDvarchar AS CAST(ID AS varchar(50)) PERSISTED NOT NULL,
   intcolumn int,
   NAME varchar(50) NOT NULL,
   Age int NOT NULL,
   Randomvalue bigint
);

INSERT INTO TestTable (intcolumn, NAME, AGE)
SELECT s1.number, 'Some Random Data..', s1.number % 10 + 25
FROM master.dbo.spt_values s1
CROSS JOIN master.dbo.spt_values s2;

UPDATE TestTable
SET Randomvalue = CAST(RAND(CHECKSUM(NEWID())) * ID AS int);

ALTER TABLE TestTable ALTER COLUMN Randomvalue int NOT NULL;

CREATE UNIQUE CLUSTERED INDEX CI_TestTable_ID ON DBO.TestTable (ID);

DBCC DROPCLEANBUFFERS;SET STATISTICS IO ON;

SELECT * FROM TestTable WHERE ID <300;

--Table 'TestTable'. Scan count 1, logical reads 5, physical reads 1, read-ahead reads 2, lob logical reads 0, lob physical reads 0, lob read-ahead reads 0.

SET STATISTICS IO ON;SELECT * FROM TestTable WHERE ID <300;

SELECT * FROM TestTable WHERE ID <600;

CREATE TABLE Testtable2 AS SELECT * FROM TestTable t1;CREATE unique clustered INDEX ix_id_testtable2 ON testtable2 (IDvarchar);
CREATE unique INDEX ix_IDVARCHAR ON testtable2 (IDvarchar);

DBCC DROPCLEANBUFFERS;
SET STATISTICS IO ON;

SELECT *
FROM TestTable t1
WHERE IDvarchar IN 
   (SELECT IDvarchar
    FROM testtable2 t2)
AND ID < 27 
OPTION (loop join);

DBCC DROPCLEANBUFFERS;
SET STATISTICS IO ON;

SELECT *
FROM TestTable t1
WHERE IDvarchar IN 
   (SELECT IDvarchar
    FROM testtable2 t2)
AND ID < 26
OPTION (loop join);

SET STATISTICS IO OFF;
SET STATISTICS TIME ON;

--------------------------
-- test with trace flags
--------------------------
DBCC DROPCLEANBUFFERS; 

DBCC TRACEON (652);

SELECT *
FROM TestTable
WHERE ID < 300000;

PRINT ' RAR disable'; --elapsed time = 13978 ms.

DBCC TRACEOFF (652);

--------------------------
-- test without trace flags
--------------------------
DBCC DROPCLEANBUFFERS;

SELECT *
FROM TestTable
WHERE ID < 300000;

PRINT ' RAR enabled';  --elapsed time = 2587 ms.

SET STATISTICS TIME ON;

--------------------------
-- test with trace flags
--------------------------
DBCC DROPCLEANBUFFERS;
DBCC TRACEON (8744);

SELECT *
FROM TestTable t1
WHERE IDvarchar IN 
   (SELECT IDvarchar
    FROM testtable2 t2)
AND ID < 1000
OPTION (RECOMPILE, LOOP JOIN, MAXDOP 1);

PRINT 'prefetching disable'; -- elapsed time = 37398 ms.

DBCC TRACEOFF (8744);

--------------------------
-- test without trace flags
--------------------------
DBCC DROPCLEANBUFFERS;

SELECT *
FROM TestTable t1
WHERE IDvarchar IN 
   (SELECT IDvarchar
    FROM testtable2 t2)
AND ID < 1000
OPTION (RECOMPILE, LOOP JOIN, MAXDOP 1);

PRINT 'prefetching enable'; -- elapsed time = 2565 ms.

-- Every call pays for each index on the call log (0011): about 4 k
-- instructions an index for every row written, on SQLite under the file's
-- one write lock. Both secondary indexes go; the log is read by seq.
--
-- call_log_by_kind served the history of exec calls, newest first. Without
-- it that query walks the table from its newest row and stops at its limit,
-- so its cost is the rows of other kinds it passes on the way: nothing when
-- most calls are execs, 25 to 40 ms for a log of 100,000 help and search
-- calls holding a handful of execs (the log never keeps more than
-- call_log_keep_rows).
--
-- call_log_by_ts served `calls_since` (the telemetry report) and the sweep
-- of entries older than call_log_keep_days. Both now read the whole table
-- (at most call_log_keep_rows: 25 to 40 ms at 100,000 rows): the report is
-- asked for by a person, and the sweep runs at most every 10 minutes.
DROP INDEX IF EXISTS call_log_by_kind;
DROP INDEX IF EXISTS call_log_by_ts;

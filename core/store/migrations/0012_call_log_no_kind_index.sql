-- Every call pays for each index on the call log (0011). The kind index
-- served one query, the history of exec calls, newest first; without it that
-- query walks the table from its newest row and stops at the limit, so its
-- cost is the rows of other kinds it passes on the way: nothing when most
-- calls are execs, about 25 ms for a log of 100,000 help and search calls
-- holding a handful of execs (the log never keeps more than
-- call_log_keep_rows). Writing a row without the index costs about a fifth
-- less.
DROP INDEX IF EXISTS call_log_by_kind;

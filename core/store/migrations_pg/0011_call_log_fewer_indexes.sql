-- Every call writes a call-log row, so every index on the table is paid on
-- every call (in the writer thread, and on SQLite while it holds the file's
-- one write lock, which creates wait for). No query reads the log by
-- session: the history filters by kind, caller or op and orders by seq, and
-- the sweep and `calls_since` read by time. The session index goes; a
-- session's calls are still grouped when the log is read back.
DROP INDEX IF EXISTS call_log_by_session;

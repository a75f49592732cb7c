-- 0004 (PostgreSQL), as SQLite's 0004: whether the stored arguments were cut.
ALTER TABLE call_log ADD COLUMN args_truncated bigint NOT NULL DEFAULT 0;

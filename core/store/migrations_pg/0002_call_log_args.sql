-- 0002 (PostgreSQL), as SQLite's 0002: the call log keeps each call's arguments.
ALTER TABLE call_log ADD COLUMN args text COLLATE "C";

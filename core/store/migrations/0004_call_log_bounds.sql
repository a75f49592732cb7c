-- The call log keeps at most a few KB of each call's arguments (see
-- docs/exec.md, "Telemetry"); this flag says the stored copy was cut, so
-- that the history does not pass a shortened call off as the real one.
ALTER TABLE call_log ADD COLUMN args_truncated INTEGER NOT NULL DEFAULT 0;

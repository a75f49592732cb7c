-- Placeholder, as SQLite's 0006: version 6 belongs to the telemetry branch's
-- migration. Replace this file with that migration in PostgreSQL's words
-- when it is merged (docs/store.md, "Schema and migrations per dialect").
SELECT 1;

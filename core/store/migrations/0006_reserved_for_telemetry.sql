-- Placeholder: version 6 belongs to the telemetry branch's migration. This
-- file only keeps the numbering gap-free on the team-http branch; delete it
-- when that branch's 0006 is merged.
SELECT 1;

-- The explorer's history re-opens past calls into its call builder, so the
-- log keeps each call's arguments (as JSON text) next to their digest.
ALTER TABLE call_log ADD COLUMN args TEXT;

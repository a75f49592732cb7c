-- The call log becomes the audit log of every gateway call, not only exec:
-- help, search, batch, the hybrid lane (the typed lane offered each turn,
-- list_tools, run_tool) and the discovery protocol's steps. `kind` says which
-- call a row is (older rows were all exec). `session_id` groups one caller's
-- calls; `chain_id` is the trace id of the discovery step (a search, a help,
-- an expand) that led to this call, so search -> help -> exec can be read
-- back; `parent_id` is the trace id of the call this one ran inside (a
-- run_tool, a call_tool or a batch); `lane` says how the host reached it
-- (gateway, typed, generic, protocol); `detail` keeps a few bounded facts
-- (the query, the ops a search surfaced, lane counts) as JSON text.
ALTER TABLE call_log ADD COLUMN kind TEXT NOT NULL DEFAULT 'exec';
ALTER TABLE call_log ADD COLUMN session_id TEXT;
ALTER TABLE call_log ADD COLUMN chain_id TEXT;
ALTER TABLE call_log ADD COLUMN parent_id TEXT;
ALTER TABLE call_log ADD COLUMN lane TEXT;
ALTER TABLE call_log ADD COLUMN detail TEXT;
CREATE INDEX call_log_by_kind ON call_log(kind, seq);
CREATE INDEX call_log_by_session ON call_log(session_id, seq);

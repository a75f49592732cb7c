-- 0006 (PostgreSQL), as SQLite's 0006: the call log records every gateway
-- call (help, search, batch, the hybrid lane, the discovery steps), with the
-- session, the discovery chain, the enclosing call and the lane it came by.
ALTER TABLE call_log ADD COLUMN kind text NOT NULL DEFAULT 'exec';
ALTER TABLE call_log ADD COLUMN session_id text;
ALTER TABLE call_log ADD COLUMN chain_id text;
ALTER TABLE call_log ADD COLUMN parent_id text;
ALTER TABLE call_log ADD COLUMN lane text;
ALTER TABLE call_log ADD COLUMN detail text;
CREATE INDEX call_log_by_kind ON call_log(kind, seq);
CREATE INDEX call_log_by_session ON call_log(session_id, seq);

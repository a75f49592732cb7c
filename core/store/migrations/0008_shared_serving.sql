-- State that several `opgate serve --http` processes on one workspace share
-- (docs/serve.md, "Several server processes").
--
-- pending_confirmations: a 2026-07-28 client was asked to confirm a call and
-- may send its answer to any process. The row holds what the answer must
-- match (the caller, the call, the op and its arguments, the state digest of
-- the diff the person saw) and, for a batch, the steps already done. Only a
-- SHA-256 digest of the request state is kept, as for API tokens. The process
-- that redeems an answer deletes the row under the write lock: exactly once.
--
-- client_sessions: what a named session (Opgate-Session) remembers between
-- calls (current ids, inspected ops), keyed by a digest of the session key,
-- written only when it changes.
-- PostgreSQL's 0008 also makes rate_buckets, the rate per caller shared by
-- every server process; one process serves a SQLite workspace, and its
-- buckets in memory are already the whole service's.
-- Plain SQL on purpose: the PostgreSQL backend runs the same statements.
CREATE TABLE pending_confirmations (
    state_hash       TEXT NOT NULL PRIMARY KEY,
    caller           TEXT NOT NULL,
    call_fingerprint TEXT NOT NULL,
    op               TEXT NOT NULL,
    args_fingerprint TEXT NOT NULL,
    state_digest     TEXT,
    id_seed          TEXT,
    done_steps       TEXT,
    created_at       TEXT NOT NULL,
    expires_at       TEXT NOT NULL
);
CREATE INDEX pending_confirmations_by_caller ON pending_confirmations (caller, expires_at);
CREATE INDEX pending_confirmations_by_expiry ON pending_confirmations (expires_at);

CREATE TABLE client_sessions (
    session_key TEXT NOT NULL PRIMARY KEY,
    state       TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

-- 0008 (PostgreSQL), as SQLite's 0008: confirmations any server process can
-- redeem, and named sessions' remembered state (docs/serve.md).
CREATE TABLE pending_confirmations (
    state_hash       text COLLATE "C" NOT NULL PRIMARY KEY,
    caller           text COLLATE "C" NOT NULL,
    call_fingerprint text COLLATE "C" NOT NULL,
    op               text COLLATE "C" NOT NULL,
    args_fingerprint text COLLATE "C" NOT NULL,
    state_digest     text COLLATE "C",
    id_seed          text COLLATE "C",
    done_steps       text COLLATE "C",
    created_at       text COLLATE "C" NOT NULL,
    expires_at       text COLLATE "C" NOT NULL
);
CREATE INDEX pending_confirmations_by_caller ON pending_confirmations (caller, expires_at);
CREATE INDEX pending_confirmations_by_expiry ON pending_confirmations (expires_at);

CREATE TABLE client_sessions (
    session_key text COLLATE "C" NOT NULL PRIMARY KEY,
    state       text COLLATE "C" NOT NULL,
    updated_at  text COLLATE "C" NOT NULL
);

-- One rate bucket per caller for every server process on this database
-- (GCRA: the time the caller's next request is due, in epoch seconds).
-- Only PostgreSQL has it: a SQLite workspace is served by one process,
-- whose buckets in memory are already the whole service's.
CREATE TABLE rate_buckets (
    name text COLLATE "C" NOT NULL PRIMARY KEY,
    due  double precision NOT NULL
);

-- Bearer tokens for the authenticated HTTP server (docs/serve.md, "A server
-- for a team"). Only a SHA-256 digest of each token is kept: the token itself
-- is shown once, when it is created, and cannot be read back from here.
-- A revoked token keeps its row (revoked_at set), so that the audit log's
-- caller names still say whose they were.
-- Plain SQL on purpose: the PostgreSQL backend runs the same statements.
CREATE TABLE api_tokens (
    name       TEXT NOT NULL PRIMARY KEY,
    role       TEXT NOT NULL CHECK (role IN ('reader', 'writer', 'approver')),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

-- 0007 (PostgreSQL), as SQLite's 0007: bearer tokens for the authenticated
-- HTTP server, kept as SHA-256 digests only (docs/serve.md).
CREATE TABLE api_tokens (
    name       text COLLATE "C" NOT NULL PRIMARY KEY,
    role       text COLLATE "C" NOT NULL CHECK (role IN ('reader', 'writer', 'approver')),
    token_hash text COLLATE "C" NOT NULL UNIQUE,
    created_at text COLLATE "C" NOT NULL,
    revoked_at text COLLATE "C"
);

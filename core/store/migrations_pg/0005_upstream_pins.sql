-- 0005 (PostgreSQL), as SQLite's 0005: the accepted definitions of upstream MCP tools.
CREATE TABLE upstream_pins (
    upstream   text COLLATE "C" NOT NULL,
    tool       text COLLATE "C" NOT NULL,
    digest     text COLLATE "C" NOT NULL,
    definition text COLLATE "C" NOT NULL,
    pinned_at  text COLLATE "C" NOT NULL,
    PRIMARY KEY (upstream, tool)
);

-- What each upstream MCP server's tools looked like when a person last
-- accepted them (tool poisoning, OWASP MCP03): a tool whose definition no
-- longer matches its pin is quarantined until approved again. The row with
-- tool = '' marks that the upstream has been listed at least once, so that a
-- server whose first listing was empty still has its later tools reviewed.
CREATE TABLE upstream_pins (
    upstream   TEXT NOT NULL,
    tool       TEXT NOT NULL,
    digest     TEXT NOT NULL,
    definition TEXT NOT NULL,
    pinned_at  TEXT NOT NULL,
    PRIMARY KEY (upstream, tool)
);

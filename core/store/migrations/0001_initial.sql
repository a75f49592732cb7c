-- 0001: the ontology's ten kinds, templates, edges, task documents, the
-- keyword index, and the dispatcher's idempotency keys and call log.
--
-- Every entity table has `seq INTEGER PRIMARY KEY`: a stable rowid that the
-- search index uses as its key (seq * 16 + kind number), because a table's
-- implicit rowid may be renumbered by VACUUM. `id` is the public UUID.

CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE projects (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT,
    type_key TEXT,
    state_key TEXT NOT NULL,
    facet_context TEXT,
    facet_scale TEXT,
    facet_stage TEXT,
    start_at TEXT,
    end_at TEXT,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX projects_by_created ON projects(created_at);
CREATE INDEX projects_by_state ON projects(state_key, created_at);

CREATE TABLE goals (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    description TEXT,
    type_key TEXT,
    state_key TEXT NOT NULL,
    target_at TEXT,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX goals_by_project ON goals(project_id, created_at);
CREATE INDEX goals_by_project_state ON goals(project_id, state_key, created_at);
CREATE INDEX goals_by_state ON goals(state_key, created_at);

CREATE TABLE plans (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    description TEXT,
    type_key TEXT,
    state_key TEXT NOT NULL,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX plans_by_project ON plans(project_id, created_at);
CREATE INDEX plans_by_project_state ON plans(project_id, state_key, created_at);
CREATE INDEX plans_by_state ON plans(state_key, created_at);

CREATE TABLE milestones (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    title TEXT NOT NULL,
    description TEXT,
    due_at TEXT,
    state_key TEXT NOT NULL,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX milestones_by_project ON milestones(project_id, created_at);
CREATE INDEX milestones_by_project_state ON milestones(project_id, state_key, created_at);
CREATE INDEX milestones_by_state ON milestones(state_key, created_at);

CREATE TABLE documents (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    title TEXT NOT NULL,
    type_key TEXT NOT NULL,
    state_key TEXT NOT NULL,
    content TEXT,
    parent_id TEXT REFERENCES documents(id),
    position INTEGER NOT NULL,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX documents_by_project ON documents(project_id, created_at);
CREATE INDEX documents_by_project_state ON documents(project_id, state_key, created_at);
CREATE INDEX documents_by_state ON documents(state_key, created_at);
CREATE INDEX documents_by_parent ON documents(project_id, parent_id, position);
CREATE INDEX documents_by_parent_id ON documents(parent_id);

CREATE TABLE tasks (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    title TEXT NOT NULL,
    description TEXT,
    type_key TEXT,
    state_key TEXT NOT NULL,
    priority INTEGER NOT NULL,
    due_at TEXT,
    plan_id TEXT REFERENCES plans(id),
    goal_id TEXT REFERENCES goals(id),
    supporting_milestone_id TEXT REFERENCES milestones(id),
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX tasks_by_project ON tasks(project_id, created_at);
CREATE INDEX tasks_by_project_state ON tasks(project_id, state_key, created_at);
CREATE INDEX tasks_by_state ON tasks(state_key, created_at);
CREATE INDEX tasks_by_plan_id ON tasks(plan_id);
CREATE INDEX tasks_by_goal_id ON tasks(goal_id);
CREATE INDEX tasks_by_supporting_milestone_id ON tasks(supporting_milestone_id);

CREATE TABLE outputs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    type_key TEXT,
    state_key TEXT NOT NULL,
    description TEXT,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX outputs_by_project ON outputs(project_id, created_at);
CREATE INDEX outputs_by_project_state ON outputs(project_id, state_key, created_at);
CREATE INDEX outputs_by_state ON outputs(state_key, created_at);

CREATE TABLE risks (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    title TEXT NOT NULL,
    description TEXT,
    impact TEXT,
    probability TEXT,
    state_key TEXT NOT NULL,
    mitigation TEXT,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX risks_by_project ON risks(project_id, created_at);
CREATE INDEX risks_by_project_state ON risks(project_id, state_key, created_at);
CREATE INDEX risks_by_state ON risks(state_key, created_at);

CREATE TABLE decisions (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    title TEXT NOT NULL,
    rationale TEXT,
    outcome TEXT,
    decision_at TEXT,
    state_key TEXT NOT NULL,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX decisions_by_project ON decisions(project_id, created_at);
CREATE INDEX decisions_by_project_state ON decisions(project_id, state_key, created_at);
CREATE INDEX decisions_by_state ON decisions(state_key, created_at);

CREATE TABLE requirements (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    text TEXT NOT NULL,
    type_key TEXT,
    priority INTEGER,
    state_key TEXT NOT NULL,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX requirements_by_project ON requirements(project_id, created_at);
CREATE INDEX requirements_by_project_state ON requirements(project_id, state_key, created_at);
CREATE INDEX requirements_by_state ON requirements(state_key, created_at);

CREATE TABLE templates (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    scope TEXT NOT NULL,
    type_key TEXT NOT NULL,
    name TEXT NOT NULL,
    realm TEXT,
    description TEXT,
    status TEXT NOT NULL,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX templates_by_scope ON templates(scope, created_at);

CREATE TABLE edges (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    src_kind TEXT NOT NULL,
    src_id TEXT NOT NULL,
    dst_kind TEXT NOT NULL,
    dst_id TEXT NOT NULL,
    rel TEXT NOT NULL,
    props TEXT NOT NULL CHECK (json_valid(props)),
    created_at TEXT NOT NULL,
    UNIQUE (src_id, dst_id, rel)
);
CREATE INDEX edges_by_dst ON edges(dst_id, rel);

CREATE TABLE task_documents (
    task_id TEXT NOT NULL REFERENCES tasks(id),
    document_id TEXT NOT NULL REFERENCES documents(id),
    role TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (task_id, document_id)
);
CREATE INDEX task_documents_by_document ON task_documents(document_id);

CREATE TABLE idempotency_keys (
    caller TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    response TEXT CHECK (response IS NULL OR json_valid(response)),
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (caller, key)
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys(expires_at);

CREATE TABLE call_log (
    seq INTEGER PRIMARY KEY,
    ts TEXT NOT NULL,
    trace_id TEXT,
    op TEXT,
    tool_name TEXT,
    duration_ms REAL,
    ok INTEGER NOT NULL,
    code TEXT,
    dry_run INTEGER NOT NULL DEFAULT 0,
    caller TEXT,
    args_digest TEXT
);
CREATE INDEX call_log_by_ts ON call_log(ts);

-- Keyword search over display names (column `name`) and long text (`body`).
-- The table keeps its own copy of the text so that snippet() works; triggers
-- below keep it in step with the entity tables, whoever writes them.
CREATE VIRTUAL TABLE search_text USING fts5(
    name, body, kind UNINDEXED, entity_id UNINDEXED, project_id UNINDEXED,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);
-- A hit in a display name counts ten times a hit in the body.
INSERT INTO search_text(search_text, rank) VALUES ('rank', 'bm25(10.0, 1.0)');
-- The index's vocabulary; fuzzy search looks for near-misses of typed words here.
CREATE VIRTUAL TABLE search_terms USING fts5vocab(search_text, 'row');

CREATE TRIGGER projects_search_insert AFTER INSERT ON projects BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 1, new.name, concat_ws(' ', new.description), 'project', new.id, new.id);
END;
CREATE TRIGGER projects_search_update AFTER UPDATE OF name, description ON projects BEGIN
    UPDATE search_text SET name = new.name, body = concat_ws(' ', new.description)
    WHERE rowid = new.seq * 16 + 1;
END;
CREATE TRIGGER projects_search_delete AFTER DELETE ON projects BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 1;
END;

CREATE TRIGGER goals_search_insert AFTER INSERT ON goals BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 3, new.name, concat_ws(' ', new.description), 'goal', new.id, new.project_id);
END;
CREATE TRIGGER goals_search_update AFTER UPDATE OF name, description ON goals BEGIN
    UPDATE search_text SET name = new.name, body = concat_ws(' ', new.description)
    WHERE rowid = new.seq * 16 + 3;
END;
CREATE TRIGGER goals_search_delete AFTER DELETE ON goals BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 3;
END;

CREATE TRIGGER plans_search_insert AFTER INSERT ON plans BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 4, new.name, concat_ws(' ', new.description), 'plan', new.id, new.project_id);
END;
CREATE TRIGGER plans_search_update AFTER UPDATE OF name, description ON plans BEGIN
    UPDATE search_text SET name = new.name, body = concat_ws(' ', new.description)
    WHERE rowid = new.seq * 16 + 4;
END;
CREATE TRIGGER plans_search_delete AFTER DELETE ON plans BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 4;
END;

CREATE TRIGGER milestones_search_insert AFTER INSERT ON milestones BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 7, new.title, concat_ws(' ', new.description), 'milestone', new.id, new.project_id);
END;
CREATE TRIGGER milestones_search_update AFTER UPDATE OF title, description ON milestones BEGIN
    UPDATE search_text SET name = new.title, body = concat_ws(' ', new.description)
    WHERE rowid = new.seq * 16 + 7;
END;
CREATE TRIGGER milestones_search_delete AFTER DELETE ON milestones BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 7;
END;

CREATE TRIGGER documents_search_insert AFTER INSERT ON documents BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 5, new.title, concat_ws(' ', new.content), 'document', new.id, new.project_id);
END;
CREATE TRIGGER documents_search_update AFTER UPDATE OF title, content ON documents BEGIN
    UPDATE search_text SET name = new.title, body = concat_ws(' ', new.content)
    WHERE rowid = new.seq * 16 + 5;
END;
CREATE TRIGGER documents_search_delete AFTER DELETE ON documents BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 5;
END;

CREATE TRIGGER tasks_search_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 2, new.title, concat_ws(' ', new.description), 'task', new.id, new.project_id);
END;
CREATE TRIGGER tasks_search_update AFTER UPDATE OF title, description ON tasks BEGIN
    UPDATE search_text SET name = new.title, body = concat_ws(' ', new.description)
    WHERE rowid = new.seq * 16 + 2;
END;
CREATE TRIGGER tasks_search_delete AFTER DELETE ON tasks BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 2;
END;

CREATE TRIGGER outputs_search_insert AFTER INSERT ON outputs BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 6, new.name, concat_ws(' ', new.description), 'output', new.id, new.project_id);
END;
CREATE TRIGGER outputs_search_update AFTER UPDATE OF name, description ON outputs BEGIN
    UPDATE search_text SET name = new.name, body = concat_ws(' ', new.description)
    WHERE rowid = new.seq * 16 + 6;
END;
CREATE TRIGGER outputs_search_delete AFTER DELETE ON outputs BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 6;
END;

CREATE TRIGGER risks_search_insert AFTER INSERT ON risks BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 8, new.title, concat_ws(' ', new.description, new.mitigation), 'risk', new.id, new.project_id);
END;
CREATE TRIGGER risks_search_update AFTER UPDATE OF title, description, mitigation ON risks BEGIN
    UPDATE search_text SET name = new.title, body = concat_ws(' ', new.description, new.mitigation)
    WHERE rowid = new.seq * 16 + 8;
END;
CREATE TRIGGER risks_search_delete AFTER DELETE ON risks BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 8;
END;

CREATE TRIGGER decisions_search_insert AFTER INSERT ON decisions BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 9, new.title, concat_ws(' ', new.rationale, new.outcome), 'decision', new.id, new.project_id);
END;
CREATE TRIGGER decisions_search_update AFTER UPDATE OF title, rationale, outcome ON decisions BEGIN
    UPDATE search_text SET name = new.title, body = concat_ws(' ', new.rationale, new.outcome)
    WHERE rowid = new.seq * 16 + 9;
END;
CREATE TRIGGER decisions_search_delete AFTER DELETE ON decisions BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 9;
END;

CREATE TRIGGER requirements_search_insert AFTER INSERT ON requirements BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 10, new.text, NULL, 'requirement', new.id, new.project_id);
END;
CREATE TRIGGER requirements_search_update AFTER UPDATE OF text ON requirements BEGIN
    UPDATE search_text SET name = new.text, body = NULL
    WHERE rowid = new.seq * 16 + 10;
END;
CREATE TRIGGER requirements_search_delete AFTER DELETE ON requirements BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 10;
END;

CREATE TRIGGER templates_search_insert AFTER INSERT ON templates BEGIN
    INSERT INTO search_text(rowid, name, body, kind, entity_id, project_id)
    VALUES (new.seq * 16 + 11, new.name, concat_ws(' ', new.description), 'template', new.id, NULL);
END;
CREATE TRIGGER templates_search_update AFTER UPDATE OF name, description ON templates BEGIN
    UPDATE search_text SET name = new.name, body = concat_ws(' ', new.description)
    WHERE rowid = new.seq * 16 + 11;
END;
CREATE TRIGGER templates_search_delete AFTER DELETE ON templates BEGIN
    DELETE FROM search_text WHERE rowid = old.seq * 16 + 11;
END;

-- 0001 (PostgreSQL): the schema of SQLite's 0001_initial.sql, in PostgreSQL's words.
--
-- Porting rules (docs/store.md, "PostgreSQL"): text columns are
-- COLLATE "C" so that ordering and range scans compare bytes as SQLite does;
-- INTEGER is bigint (SQLite integers are 64-bit) and REAL double precision;
-- `seq INTEGER PRIMARY KEY` is an identity column; JSON stays canonical text,
-- as the store writes it, so that rows read back byte for byte the same;
-- references are DEFERRABLE so that a reset can empty tables in any order.
-- FTS5 has no counterpart: search_text keeps a tsvector per entity, filled
-- by one trigger function, and search_terms keeps the indexed words for
-- fuzzy search (SQLite's fts5vocab table).

CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TABLE store_meta (key text COLLATE "C" PRIMARY KEY, value text COLLATE "C" NOT NULL);

CREATE TABLE projects (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    name text COLLATE "C" NOT NULL,
    description text COLLATE "C",
    type_key text COLLATE "C",
    state_key text COLLATE "C" NOT NULL,
    facet_context text COLLATE "C",
    facet_scale text COLLATE "C",
    facet_stage text COLLATE "C",
    start_at text COLLATE "C",
    end_at text COLLATE "C",
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX projects_by_created ON projects(created_at);
CREATE INDEX projects_by_state ON projects(state_key, created_at);

CREATE TABLE goals (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    name text COLLATE "C" NOT NULL,
    description text COLLATE "C",
    type_key text COLLATE "C",
    state_key text COLLATE "C" NOT NULL,
    target_at text COLLATE "C",
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX goals_by_project ON goals(project_id, created_at);
CREATE INDEX goals_by_project_state ON goals(project_id, state_key, created_at);
CREATE INDEX goals_by_state ON goals(state_key, created_at);

CREATE TABLE plans (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    name text COLLATE "C" NOT NULL,
    description text COLLATE "C",
    type_key text COLLATE "C",
    state_key text COLLATE "C" NOT NULL,
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX plans_by_project ON plans(project_id, created_at);
CREATE INDEX plans_by_project_state ON plans(project_id, state_key, created_at);
CREATE INDEX plans_by_state ON plans(state_key, created_at);

CREATE TABLE milestones (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    title text COLLATE "C" NOT NULL,
    description text COLLATE "C",
    due_at text COLLATE "C",
    state_key text COLLATE "C" NOT NULL,
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX milestones_by_project ON milestones(project_id, created_at);
CREATE INDEX milestones_by_project_state ON milestones(project_id, state_key, created_at);
CREATE INDEX milestones_by_state ON milestones(state_key, created_at);

CREATE TABLE documents (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    title text COLLATE "C" NOT NULL,
    type_key text COLLATE "C" NOT NULL,
    state_key text COLLATE "C" NOT NULL,
    content text COLLATE "C",
    parent_id text COLLATE "C" REFERENCES documents(id) DEFERRABLE,
    position bigint NOT NULL,
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX documents_by_project ON documents(project_id, created_at);
CREATE INDEX documents_by_project_state ON documents(project_id, state_key, created_at);
CREATE INDEX documents_by_state ON documents(state_key, created_at);
CREATE INDEX documents_by_parent ON documents(project_id, parent_id, position);
CREATE INDEX documents_by_parent_id ON documents(parent_id);

CREATE TABLE tasks (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    title text COLLATE "C" NOT NULL,
    description text COLLATE "C",
    type_key text COLLATE "C",
    state_key text COLLATE "C" NOT NULL,
    priority bigint NOT NULL,
    due_at text COLLATE "C",
    plan_id text COLLATE "C" REFERENCES plans(id) DEFERRABLE,
    goal_id text COLLATE "C" REFERENCES goals(id) DEFERRABLE,
    supporting_milestone_id text COLLATE "C" REFERENCES milestones(id) DEFERRABLE,
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX tasks_by_project ON tasks(project_id, created_at);
CREATE INDEX tasks_by_project_state ON tasks(project_id, state_key, created_at);
CREATE INDEX tasks_by_state ON tasks(state_key, created_at);
CREATE INDEX tasks_by_plan_id ON tasks(plan_id);
CREATE INDEX tasks_by_goal_id ON tasks(goal_id);
CREATE INDEX tasks_by_supporting_milestone_id ON tasks(supporting_milestone_id);

CREATE TABLE outputs (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    name text COLLATE "C" NOT NULL,
    type_key text COLLATE "C",
    state_key text COLLATE "C" NOT NULL,
    description text COLLATE "C",
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX outputs_by_project ON outputs(project_id, created_at);
CREATE INDEX outputs_by_project_state ON outputs(project_id, state_key, created_at);
CREATE INDEX outputs_by_state ON outputs(state_key, created_at);

CREATE TABLE risks (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    title text COLLATE "C" NOT NULL,
    description text COLLATE "C",
    impact text COLLATE "C",
    probability text COLLATE "C",
    state_key text COLLATE "C" NOT NULL,
    mitigation text COLLATE "C",
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX risks_by_project ON risks(project_id, created_at);
CREATE INDEX risks_by_project_state ON risks(project_id, state_key, created_at);
CREATE INDEX risks_by_state ON risks(state_key, created_at);

CREATE TABLE decisions (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    title text COLLATE "C" NOT NULL,
    rationale text COLLATE "C",
    outcome text COLLATE "C",
    decision_at text COLLATE "C",
    state_key text COLLATE "C" NOT NULL,
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX decisions_by_project ON decisions(project_id, created_at);
CREATE INDEX decisions_by_project_state ON decisions(project_id, state_key, created_at);
CREATE INDEX decisions_by_state ON decisions(state_key, created_at);

CREATE TABLE requirements (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    project_id text COLLATE "C" NOT NULL REFERENCES projects(id) DEFERRABLE,
    text text COLLATE "C" NOT NULL,
    type_key text COLLATE "C",
    priority bigint,
    state_key text COLLATE "C" NOT NULL,
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX requirements_by_project ON requirements(project_id, created_at);
CREATE INDEX requirements_by_project_state ON requirements(project_id, state_key, created_at);
CREATE INDEX requirements_by_state ON requirements(state_key, created_at);

CREATE TABLE templates (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    scope text COLLATE "C" NOT NULL,
    type_key text COLLATE "C" NOT NULL,
    name text COLLATE "C" NOT NULL,
    realm text COLLATE "C",
    description text COLLATE "C",
    status text COLLATE "C" NOT NULL,
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    updated_at text COLLATE "C" NOT NULL
);
CREATE INDEX templates_by_scope ON templates(scope, created_at);

CREATE TABLE edges (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text COLLATE "C" NOT NULL UNIQUE,
    src_kind text COLLATE "C" NOT NULL,
    src_id text COLLATE "C" NOT NULL,
    dst_kind text COLLATE "C" NOT NULL,
    dst_id text COLLATE "C" NOT NULL,
    rel text COLLATE "C" NOT NULL,
    props text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    UNIQUE (src_id, dst_id, rel)
);
CREATE INDEX edges_by_dst ON edges(dst_id, rel);

CREATE TABLE task_documents (
    seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    task_id text COLLATE "C" NOT NULL REFERENCES tasks(id) DEFERRABLE,
    document_id text COLLATE "C" NOT NULL REFERENCES documents(id) DEFERRABLE,
    role text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    PRIMARY KEY (task_id, document_id)
);
CREATE INDEX task_documents_by_document ON task_documents(document_id);

CREATE TABLE idempotency_keys (
    caller text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL,
    fingerprint text COLLATE "C" NOT NULL,
    response text COLLATE "C",
    status text COLLATE "C" NOT NULL,
    created_at text COLLATE "C" NOT NULL,
    expires_at text COLLATE "C" NOT NULL,
    PRIMARY KEY (caller, key)
);
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys(expires_at);

CREATE TABLE call_log (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ts text COLLATE "C" NOT NULL,
    trace_id text COLLATE "C",
    op text COLLATE "C",
    tool_name text COLLATE "C",
    duration_ms double precision,
    ok bigint NOT NULL,
    code text COLLATE "C",
    dry_run bigint NOT NULL DEFAULT 0,
    caller text COLLATE "C",
    args_digest text COLLATE "C"
);
CREATE INDEX call_log_by_ts ON call_log(ts);


-- Keyword search: one row per entity, its display name weighted A and its
-- long text D, words lower-cased and without accents (like FTS5's unicode61
-- tokenizer with remove_diacritics).
CREATE TABLE search_text (
    kind text COLLATE "C" NOT NULL,
    entity_id text COLLATE "C" NOT NULL,
    project_id text COLLATE "C",
    name text COLLATE "C",
    body text COLLATE "C",
    words tsvector NOT NULL,
    PRIMARY KEY (kind, entity_id)
);
CREATE INDEX search_text_words ON search_text USING gin (words);

-- Every word ever indexed, where fuzzy search looks for near-misses of
-- typed words (SQLite's fts5vocab table). Words are added, never counted or
-- removed: counting them meant updating the same few rows ("the", a common
-- word) on every insert, and a transaction inserting thousands of entities
-- slowed down with each one, walking the row versions it had made itself.
-- A word whose last entity is gone only ever adds a query term that
-- matches nothing.
CREATE TABLE search_terms (term text COLLATE "C" PRIMARY KEY);

CREATE FUNCTION search_words(name text, body text) RETURNS tsvector
LANGUAGE sql STABLE AS $$
    SELECT setweight(to_tsvector('simple', lower(unaccent(coalesce(name, '')))), 'A')
        || setweight(to_tsvector('simple', lower(unaccent(coalesce(body, '')))), 'D')
$$;

-- Arguments: kind, display-name column, project column ('' for none), long-text columns.
CREATE FUNCTION search_text_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    entity jsonb;
    new_words tsvector;
    body text;
    i int;
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM search_text WHERE kind = TG_ARGV[0] AND entity_id = OLD.id;
    ELSE
        entity := to_jsonb(NEW);
        body := NULL;
        FOR i IN 3 .. TG_NARGS - 1 LOOP
            body := concat_ws(' ', body, entity ->> TG_ARGV[i]);
        END LOOP;
        new_words := search_words(entity ->> TG_ARGV[1], body);
        INSERT INTO search_text (kind, entity_id, project_id, name, body, words)
        VALUES (TG_ARGV[0], NEW.id, CASE WHEN TG_ARGV[2] = '' THEN NULL ELSE entity ->> TG_ARGV[2] END,
                entity ->> TG_ARGV[1], body, new_words)
        ON CONFLICT (kind, entity_id) DO UPDATE
            SET name = EXCLUDED.name, body = EXCLUDED.body, words = EXCLUDED.words;
    END IF;
    IF new_words IS NOT NULL THEN
        INSERT INTO search_terms (term)
        SELECT lexeme FROM unnest(tsvector_to_array(new_words)) AS lexeme
        ON CONFLICT (term) DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER projects_search AFTER INSERT OR DELETE OR UPDATE OF name, description ON projects
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('project', 'name', 'id', 'description');
CREATE TRIGGER goals_search AFTER INSERT OR DELETE OR UPDATE OF name, description ON goals
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('goal', 'name', 'project_id', 'description');
CREATE TRIGGER plans_search AFTER INSERT OR DELETE OR UPDATE OF name, description ON plans
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('plan', 'name', 'project_id', 'description');
CREATE TRIGGER milestones_search AFTER INSERT OR DELETE OR UPDATE OF title, description ON milestones
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('milestone', 'title', 'project_id', 'description');
CREATE TRIGGER documents_search AFTER INSERT OR DELETE OR UPDATE OF title, content ON documents
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('document', 'title', 'project_id', 'content');
CREATE TRIGGER tasks_search AFTER INSERT OR DELETE OR UPDATE OF title, description ON tasks
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('task', 'title', 'project_id', 'description');
CREATE TRIGGER outputs_search AFTER INSERT OR DELETE OR UPDATE OF name, description ON outputs
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('output', 'name', 'project_id', 'description');
CREATE TRIGGER risks_search AFTER INSERT OR DELETE OR UPDATE OF title, description, mitigation ON risks
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('risk', 'title', 'project_id', 'description', 'mitigation');
CREATE TRIGGER decisions_search AFTER INSERT OR DELETE OR UPDATE OF title, rationale, outcome ON decisions
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('decision', 'title', 'project_id', 'rationale', 'outcome');
CREATE TRIGGER requirements_search AFTER INSERT OR DELETE OR UPDATE OF text ON requirements
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('requirement', 'text', 'project_id');
CREATE TRIGGER templates_search AFTER INSERT OR DELETE OR UPDATE OF name, description ON templates
    FOR EACH ROW EXECUTE FUNCTION search_text_sync('template', 'name', '', 'description');

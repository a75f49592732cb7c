-- SQLite's 0010 in PostgreSQL's words (chr for char): each title with its
-- ASCII letters lowered (the "C" collation) and its spaces dropped, so the
-- titles a new task or document is compared with are one step down an index.
-- The expression must stay exactly that of _sqlite_entities.title_key_sql.
CREATE INDEX tasks_by_project_title_key ON tasks(project_id, lower(replace(replace(replace(replace(replace(title, ' ', ''), chr(9), ''), chr(10), ''), chr(13), ''), chr(160), '')));
CREATE INDEX documents_by_project_title_key ON documents(project_id, lower(replace(replace(replace(replace(replace(title, ' ', ''), chr(9), ''), chr(10), ''), chr(13), ''), chr(160), '')));

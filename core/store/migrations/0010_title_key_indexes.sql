-- A new task or document is compared with the titles of its project that equal
-- its own but for case and spacing. Keyword search found them, at a cost that
-- grew with how many entities share the title's words (5 ms a create at
-- 300,000 tasks for a title of common words); these indexes hold each title
-- with its ASCII letters lowered and its spaces dropped, so the candidates are
-- one step down an index. The expression must stay exactly that of
-- _sqlite_entities.title_key_sql: SQLite uses an index on an expression only
-- for the same expression.
CREATE INDEX tasks_by_project_title_key ON tasks(project_id, lower(replace(replace(replace(replace(replace(title, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')));
CREATE INDEX documents_by_project_title_key ON documents(project_id, lower(replace(replace(replace(replace(replace(title, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), '')));

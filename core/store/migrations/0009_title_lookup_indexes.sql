-- Creating a task or document first looks for one with the same title in its
-- project (a warning, not a refusal). Without these indexes that lookup read
-- every task of the project, inside the write lock: one project of 100,000
-- tasks made every create scan 100,000 rows.
CREATE INDEX tasks_by_project_title ON tasks(project_id, title);
CREATE INDEX documents_by_project_title ON documents(project_id, title);

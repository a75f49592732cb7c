-- 0008 is taken by the team-procs branch (shared confirmations, sessions and
-- rate limits across server processes). This placeholder keeps the numbers
-- without gaps on the read-path branch; at merge, team-procs' 0008 replaces it.
SELECT 1;

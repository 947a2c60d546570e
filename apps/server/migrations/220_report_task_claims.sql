-- Report tasks and their jobs end together (issue 26, finding 2; modules/reports/tasks.ts).
--
-- claimed_at: when a job handler took the task. From then until it ends, the handler's process holds the
-- session advisory lock (22087, hashtext(task id)) on a connection of its own; a process that dies (kill -9,
-- a lost connection, a database restart) loses the lock with its connection. A task 'running' — or
-- 'queued' and claimed — whose lock is free is therefore abandoned: settleAbandonedTasks fails it with a
-- Spanish reason and deletes its partial file (at start-up, every scheduler tick, and before the slots of
-- a user are counted).
alter table export_tasks add column claimed_at timestamptz;
create index export_tasks_live_idx on export_tasks (user_id) where status in ('queued', 'running');

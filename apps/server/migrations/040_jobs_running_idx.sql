-- Job queue: the worker's periodic recovery of abandoned leases ("running" jobs whose worker died)
-- reads only running jobs, not the whole (ever-growing) history of finished ones.
create index jobs_running_idx on jobs (locked_at) where status = 'running';

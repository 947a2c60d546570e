-- socket.io between processes (issue 24, modules/exporter/plugin.ts): @socket.io/postgres-adapter sends
-- every event with NOTIFY; a payload over 8000 bytes (or binary) is stored here and its id notified.
-- The adapter deletes rows older than its cleanup interval (30 s) itself. Same shape as its README's.
create table if not exists socket_io_attachments (
  id          bigserial unique,
  created_at  timestamptz default now(),
  payload     bytea
);

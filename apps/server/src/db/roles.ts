import pg from 'pg';
import { dataDirSecret } from './embedded.js';

// The application connects as a role of its own, not as the superuser (issue 26 finding 6: an injection
// through a superuser connection would be command execution — `COPY … TO PROGRAM` — as the OS user that
// owns the cluster). The role owns its database and that database's `public` schema (so migrations run
// as it), and has no other privilege: not superuser, cannot create roles or databases, cannot read or
// write server files or run programs. The superuser connection is used only here, at start, to create
// the role and hand it the database (docs/operations.md "Database roles").

/** The embedded cluster's application role. */
export const APP_ROLE = 'vigia_app';

/** The application role's password of a data directory: generated once into DATA_DIR/secrets/pg_app_password. */
export function appRolePassword(dataDir: string): string {
  return dataDirSecret(dataDir, 'pg_app_password');
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * With the superuser connection `adminUrl` (database `postgres`): creates `role` (login, no other
 * privilege) or sets its password, creates `database` owned by it or hands an existing one over, and
 * hands over what a superuser created in its `public` schema before the role existed (a cluster made by
 * an earlier version: tables, views, sequences, functions). Extension members stay with their extension.
 * Returns the role's URL to `database`.
 */
export async function ensureAppRole(
  adminUrl: string,
  opts: { role: string; password: string; database: string },
): Promise<string> {
  const { role, password, database } = opts;
  const admin = new pg.Client({ connectionString: adminUrl });
  admin.on('error', () => {});
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_roles where rolname = $1', [role]);
    await admin.query(
      `${exists.rowCount ? 'alter' : 'create'} role ${ident(role)} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password ${admin.escapeLiteral(password)}`,
    );
    const db = await admin.query('select 1 from pg_database where datname = $1', [database]);
    if (db.rowCount) await admin.query(`alter database ${ident(database)} owner to ${ident(role)}`);
    else await admin.query(`create database ${ident(database)} owner ${ident(role)}`);
  } finally {
    await admin.end().catch(() => {});
  }

  const inDb = new URL(adminUrl);
  inDb.pathname = `/${encodeURIComponent(database)}`;
  const c = new pg.Client({ connectionString: inDb.toString() });
  c.on('error', () => {});
  await c.connect();
  try {
    await c.query(`alter schema public owner to ${ident(role)}`);
    // what an earlier version created as the superuser: one statement each, nothing when all is the role's
    await c.query(
      `do $$
       declare
         r record;
         app oid := (select oid from pg_roles where rolname = ${c.escapeLiteral(role)});
       begin
         for r in
           select c.oid, c.relkind, format('%I.%I', n.nspname, c.relname) as name
             from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'public' and c.relowner <> app and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S')
              -- extension members stay; a sequence owned by a column moves with its table
              and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid
                                and (d.deptype = 'e' or (c.relkind = 'S' and d.deptype in ('a', 'i'))))
            order by c.relkind = 'S'
         loop
           execute format('alter %s %s owner to %I',
             case r.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table'
                            when 'S' then 'sequence' else 'table' end,
             r.name, ${c.escapeLiteral(role)});
         end loop;
         for r in
           select p.oid::regprocedure::text as name, p.prokind
             from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = 'public' and p.proowner <> app
              and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid
                                and d.deptype = 'e')
         loop
           execute format('alter %s %s owner to %I', case r.prokind when 'p' then 'procedure' when 'a' then 'aggregate' else 'function' end,
                          r.name, ${c.escapeLiteral(role)});
         end loop;
       end $$`,
    );
  } finally {
    await c.end().catch(() => {});
  }
  const url = new URL(inDb);
  url.username = encodeURIComponent(role);
  url.password = encodeURIComponent(password);
  return url.toString();
}

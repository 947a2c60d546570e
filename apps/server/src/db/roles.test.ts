import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/context.js';
import {
  clusterLayout,
  clusterPassword,
  ensureDatabase,
  openDatabase,
  startEmbeddedPostgres,
} from './database.js';
import { migrate } from './migrate.js';
import { APP_ROLE } from './roles.js';

// Issue 26 finding 6: the application connects as a role of its own, not as the superuser — so that an
// injection could never run a program (`COPY … TO PROGRAM`) or read server files. The embedded cluster
// creates the role and hands it the database; a cluster made by an earlier version gets it at the next start.

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'vigia-roles-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) {
    const layout = clusterLayout(d);
    rmSync(d, { recursive: true, force: true });
    if (layout.relocated) rmSync(dirname(layout.dir), { recursive: true, force: true });
  }
});

/** What the connection may do: superuser?, run a program?, read a server file? */
async function powers(pool: pg.Pool) {
  const { rows } = await pool.query(
    `select current_user as role, r.rolsuper, r.rolcreaterole, r.rolcreatedb,
            pg_has_role(current_user, 'pg_execute_server_program', 'member') as program,
            pg_has_role(current_user, 'pg_read_server_files', 'member') as files
       from pg_roles r where r.rolname = current_user`,
  );
  const program = await pool.query(`copy (select 1) to program 'true'`).then(
    () => 'ran',
    (e: { code?: string }) => e.code,
  );
  const file = await pool.query(`select pg_read_file('postgresql.conf')`).then(
    () => 'read',
    (e: { code?: string }) => e.code,
  );
  return { ...rows[0], copyToProgram: program, readFile: file };
}

const NONE = {
  rolsuper: false,
  rolcreaterole: false,
  rolcreatedb: false,
  program: false,
  files: false,
  copyToProgram: '42501', // insufficient_privilege
  readFile: '42501',
};

describe('the application role (issue 26 finding 6)', () => {
  it('a new embedded cluster: the app connects as its own role, owner of its database, and cannot run programs', async () => {
    const dataDir = tempDir();
    const db = await openDatabase({ dataDir });
    try {
      expect(await powers(db.pool)).toEqual({ role: APP_ROLE, ...NONE });
      const secret = join(dataDir, 'secrets', 'pg_app_password');
      expect(statSync(secret).mode & 0o777).toBe(0o600);
      expect(decodeURIComponent(new URL(db.url).password)).toBe(readFileSync(secret, 'utf8').trim());
      expect(readFileSync(secret, 'utf8').trim()).not.toBe(clusterPassword(dataDir));
      // migrations run as the role (owner of the database and its schema), pg_trgm included
      await migrate(db.pool);
      const { rows } = await db.pool.query(
        `select (select pg_get_userbyid(datdba) from pg_database where datname = current_database()) as db_owner,
                (select pg_get_userbyid(nspowner) from pg_namespace where nspname = 'public') as schema_owner,
                (select count(*)::int from pg_tables where schemaname = 'public' and tableowner <> current_user) as others,
                exists (select 1 from pg_extension where extname = 'pg_trgm') as trgm`,
      );
      expect(rows[0]).toEqual({ db_owner: APP_ROLE, schema_owner: APP_ROLE, others: 0, trgm: true });
    } finally {
      await db.close();
    }
  }, 120_000);

  it('a cluster made before the role existed (all as the superuser) is handed to the role at the next start', async () => {
    const dataDir = tempDir();
    // as earlier versions did: the database created, migrated and filled by the superuser
    const layout = clusterLayout(dataDir);
    const old = await startEmbeddedPostgres(layout.dir, { layout, password: clusterPassword(dataDir) });
    const oldUrl = old.url.replace(/\/postgres$/, '/vigia');
    await ensureDatabase(oldUrl);
    const su = new pg.Pool({ connectionString: oldUrl, max: 2 });
    // a client still closing when the cluster stops gets "terminating connection" (57P01): not the test's
    su.on('error', () => {});
    await migrate(su);
    await su.query(
      `create table legacy_probe (id serial primary key, v text); insert into legacy_probe (v) values ('antiguo')`,
    );
    await su.end();
    await old.stop();

    const db = await openDatabase({ dataDir });
    try {
      expect(await powers(db.pool)).toEqual({ role: APP_ROLE, ...NONE });
      // the data is there and the role may read, write and change it (it owns every table now)
      await db.pool.query(`insert into legacy_probe (v) values ('nuevo')`); // its sequence too
      const { rows } = await db.pool.query(`select id, v from legacy_probe order by id`);
      expect(rows).toEqual([
        { id: 1, v: 'antiguo' },
        { id: 2, v: 'nuevo' },
      ]);
      const { rows: owners } = await db.pool.query(
        `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S') and c.relowner <> (select oid from pg_roles where rolname = current_user)
            and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')`,
      );
      expect(owners[0].n).toBe(0);
      expect(await migrate(db.pool)).toEqual([]); // nothing pending, and the lock table is its own
      const client = await db.pool.connect();
      try {
        await client.query('begin');
        await client.query('alter table sellers add column probe integer'); // what a next migration does
        await client.query('create index legacy_probe_v on legacy_probe (v)');
        await client.query('rollback');
      } finally {
        client.release();
      }
    } finally {
      await db.close();
    }
  }, 180_000);

  it('the test databases are used as the application role too', async () => {
    if (process.env.TEST_DATABASE_URL) return; // an outside server: its role was chosen by whoever runs the tests
    const db = await createTestDatabase();
    try {
      expect(await powers(db.pool)).toEqual({ role: APP_ROLE, ...NONE });
    } finally {
      await db.close();
    }
  });
});

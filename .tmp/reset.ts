// ad-hoc: undo migration 111 on a bench copy so that the next start applies it again (not committed)
import pg from 'pg';
import { database } from '../bench/src/server.js';
const dir = process.argv[2];
const { clusterLayout, clusterPassword, startEmbeddedPostgres } = database;
const layout = clusterLayout(dir);
const server = await startEmbeddedPostgres(layout.dir, { layout, password: clusterPassword(dir) });
const c = new pg.Client({ connectionString: server.url });
await c.connect();
const sql = process.argv[3];
console.log((await c.query(sql)).rowCount);
await c.end();
await server.stop();

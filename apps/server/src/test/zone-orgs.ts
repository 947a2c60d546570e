import { DEFAULT_TIMEZONE } from '@vigia/domain';
import type pg from 'pg';
import { signToken } from '../lib/jwt.js';
import { insertOrgWithLicense, insertUser } from './fixtures.js';

// Organisations in market zones for the zone tests (issue 25): one organisation per (name, zone), each
// with the same license and one user. A zone other than the deployment's joins rollup_zones ready before
// the market's data comes in, so that ingest keeps it from the first run (its build, had it run then,
// would have found no history).

export type ZoneOrgs = Record<string, { org: number; user: number }>;

export async function insertZoneOrgs(
  pool: pg.Pool,
  orgs: [name: string, zone: string][],
  license: Omit<Parameters<typeof insertOrgWithLicense>[1], 'orgName'>,
): Promise<ZoneOrgs> {
  const out: ZoneOrgs = {};
  for (const [name, zone] of orgs) {
    const { orgId } = await insertOrgWithLicense(pool, { ...license, orgName: name });
    out[name] = { org: orgId, user: await insertUser(pool, orgId, `${name}@example.com`) };
    if (zone === DEFAULT_TIMEZONE) continue;
    await pool.query('update organisations set market_zone = $2 where id = $1', [orgId, zone]);
    await pool.query('insert into rollup_zones (zone, ready) values ($1, true) on conflict do nothing', [
      zone,
    ]);
  }
  return out;
}

/** Each organisation's user's token (an hour). */
export function zoneTokens(ids: ZoneOrgs, secret: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(ids).map(([name, { org, user }]) => [
      name,
      signToken({ sub: user, org, ver: 0 }, secret, 3600),
    ]),
  );
}

import { benchDuckdb, renderDuckdb } from './duckdb.js';
import { login, runningMarketUrl } from './server.js';
const base = 'http://127.0.0.1:8131';
const res = await benchDuckdb({ baseUrl: base, token: await login(base, 'demo@example.com') }, runningMarketUrl('/tmp/vigia-d30'), { requests: Number(process.env.N ?? 5), only: process.env.ONLY ? new RegExp(process.env.ONLY) : undefined });
console.log(renderDuckdb(res).join('\n'));

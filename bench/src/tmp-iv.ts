import { benchImageVerification } from './image-verification.js';
const baseUrl = process.env.BASE ?? 'http://127.0.0.1:8110';
const res = await fetch(`${baseUrl}/v1/auth-token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'demo@example.com', password: 'demo1234' }) });
const { token } = (await res.json()) as { token: string };
for (const r of await benchImageVerification({ baseUrl, token })) console.log(`| ${r.name} | ${r.concurrency} | ${r.requests} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.errors} |`);

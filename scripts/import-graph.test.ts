import { describe, expect, it } from 'vitest';
import {
  cycles,
  type Edge,
  graphOf,
  pathLiteralsOf,
  pathLiteralsUnder,
  ROOT as ROOT_DIR,
  SERVER_KNOWN_EXCEPTIONS,
  serverViolation,
  violations,
  WEB_KNOWN_EXCEPTIONS,
  webViolation,
} from './import-graph.js';

// The architecture's arrows (docs/architecture.md "Market core"), held by the import graph itself.

const server = graphOf('apps/server/src');
const web = graphOf('apps/web/src');

describe('server import graph', () => {
  it('reads the real graph', () => {
    expect(server.length).toBeGreaterThan(100);
    expect(server.some((e) => e.to === 'apps/server/src/market/index.ts')).toBe(true);
  });

  it('features → core, lib, db and other features’ index.ts only; ingest → no feature', () => {
    expect(violations(server, serverViolation, SERVER_KNOWN_EXCEPTIONS)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(server).map((c) => c.join(' → '))).toEqual([]);
  });

  it('the rules catch the wrong arrows', () => {
    const edge = (from: string, to: string, typeOnly = false): Edge => ({
      from: `apps/server/src/${from}`,
      to: `apps/server/src/${to}`,
      typeOnly,
    });
    expect(serverViolation(edge('modules/users/routes.ts', 'modules/auth/queries.ts'))).toMatch(/index\.ts/);
    expect(serverViolation(edge('modules/users/routes.ts', 'modules/auth/index.ts'))).toBeNull();
    expect(serverViolation(edge('modules/ingest/ingest.ts', 'modules/pricing/index.ts'))).toMatch(
      /no feature/,
    );
    expect(serverViolation(edge('modules/dashboard/routes.ts', 'market/fx.ts'))).toMatch(/market\/index/);
    expect(serverViolation(edge('market/scope.ts', 'modules/pricing/index.ts'))).toMatch(/must not/);
    expect(serverViolation(edge('lib/scope.ts', 'market/index.ts'))).toMatch(/must not/);
    expect(serverViolation(edge('modules/pricing/rollup.ts', 'modules/ingest/registry.ts'))).toBeNull();
    expect(serverViolation(edge('platform/jobs/queue.ts', 'modules/reports/index.ts'))).toMatch(
      /platform must not/,
    );
    expect(serverViolation(edge('platform/media/routes.ts', 'modules/demo/generator.ts'))).toMatch(
      /platform must not/,
    );
    expect(serverViolation(edge('platform/mail/email-job.ts', 'platform/jobs/queue.ts'))).toMatch(
      /index\.ts/,
    );
    expect(serverViolation(edge('platform/mail/email-job.ts', 'platform/jobs/index.ts'))).toBeNull();
    expect(serverViolation(edge('modules/reports/tasks.ts', 'platform/jobs/queue.ts'))).toMatch(/index\.ts/);
    expect(serverViolation(edge('modules/reports/jobs.ts', 'platform/jobs/index.ts'))).toBeNull();
    expect(serverViolation(edge('lib/mailer.ts', 'platform/mail/index.ts'))).toMatch(/platform/);
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts')])).toHaveLength(1);
    expect(cycles([edge('a.ts', 'b.ts'), edge('b.ts', 'a.ts', true)])).toHaveLength(0);
  });
});

describe('web import graph', () => {
  it('reads the real graph', () => {
    expect(web.length).toBeGreaterThan(50);
  });

  it('features → other features only through their index; components and lib → no feature, no app/', () => {
    expect(violations(web, webViolation, WEB_KNOWN_EXCEPTIONS)).toEqual([]);
  });

  it('the rules catch the wrong arrows', () => {
    const edge = (from: string, to: string): Edge => ({
      from: `apps/web/src/${from}`,
      to: `apps/web/src/${to}`,
      typeOnly: false,
    });
    expect(webViolation(edge('features/pricing/Page.tsx', 'app/Shell.tsx'))).toMatch(/app\//);
    expect(webViolation(edge('features/pricing/Page.tsx', 'features/reports/List.tsx'))).toMatch(/index/);
    expect(webViolation(edge('features/pricing/Page.tsx', 'features/reports/index.ts'))).toBeNull();
    expect(webViolation(edge('components/Table.tsx', 'features/reports/index.ts'))).toMatch(/feature/);
    expect(webViolation(edge('features/home/home-cards.ts', 'app/routes.ts'))).toMatch(/app\//);
  });

  it('has no import cycle', () => {
    expect(cycles(web).map((c) => c.join(' → '))).toEqual([]);
  });
});

describe('bench', () => {
  it('calls the API through the route table: no path literal under bench/src', () => {
    expect(pathLiteralsUnder('bench/src')).toEqual([]);
  });

  it('the rule catches a path in a string or a template, not in a comment or an import', () => {
    const file = `${ROOT_DIR}/bench/src/x.ts`;
    const found = (text: string) => pathLiteralsOf(file, text);
    expect(found(`fetch(\`\${base}/v1/users/me/\`);`)).toHaveLength(1);
    expect(found(`const p = '/v2/navigation/dpm/kpi';`)).toHaveLength(1);
    expect(found(`post(\`/v1/assortment/\${kind}\`, body);`)).toHaveLength(1);
    expect(found(`const name = 'GET /v1/users/me/ (c16)';`)).toHaveLength(1);
    expect(found(`await fetch(base + '/health');`)).toHaveLength(1);
    expect(found(`// GET /v2/navigation/dpm/kpi\nconst x = 1;`)).toEqual([]);
    expect(found(`import { a } from './v1/x.js';`)).toEqual([]);
    expect(found(`const m = built('platform/media/pictures.js');`)).toEqual([]);
    expect(found(`callRoute(target, routes.users.me);`)).toEqual([]);
  });
});

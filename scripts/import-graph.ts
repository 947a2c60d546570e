import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

// The import graph of the repository and the rules it must keep (docs/architecture.md "Market core").
// Checked by scripts/import-graph.test.ts in `npm test`, so that a wrong import fails without anyone
// having to remember the rules.
//
// Server (apps/server/src), production files only (tests and test helpers are left out):
//   - a feature (modules/<name>/) imports its own files, the market core through market/index.ts, lib/,
//     db/, plugins/, config.ts, and another feature only through that feature's index.ts;
//   - the ingest path (modules/ingest/) imports no feature at all; features reach it only through
//     ingest/index.ts or ingest/registry.ts (roll-ups subscribe there);
//   - the platform (platform/<part>/: jobs, mail, exporter, media, pool, http — infrastructure the
//     features use; a one-file part such as platform/change-signal.ts is its own face) imports no feature
//     and no ingest path; features use a platform part only through its index.ts;
//   - the market core imports no feature; lib/, db/ and plugins/ import neither features, the platform
//     nor the core;
//   - composition roots (app.ts, main.ts, cli/, modules/index.ts, modules/rollups.ts, a thread's entry such
//     as modules/feed-import-thread.ts) wire everything;
//   - no import cycle among runtime (non type-only) imports.
// Web (apps/web/src):
//   - a feature (features/<name>/) imports another feature only through its index.ts(x), and nothing
//     of app/ (the shell composes the features, not the other way round);
//   - shared UI (components/) and lib/ import no feature and nothing of app/; lib/ imports no component.
// Bench (bench/src): it calls the API through the route table (@vigia/domain routes, bench/src/http.ts
// callRoute and rowName), never through a path of its own: no string or template literal holds an API
// path (/v1/…, /v2/…, /health, /media/…, /socket.io).

export const ROOT = resolve(import.meta.dirname, '..');

export interface Edge {
  from: string; // repository-relative path
  to: string;
  typeOnly: boolean;
  /** a dynamic import(): loaded later, so it cannot take part in a load-order cycle */
  lazy?: boolean;
}

const SOURCE = /\.(ts|tsx)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') walk(p, out);
    } else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Test files and test helpers: not part of the build's graph. */
export function isTestFile(rel: string): boolean {
  return (
    /\.test\.tsx?$/.test(rel) ||
    rel.includes('/src/test/') ||
    /\/(testing|test-market|pricing-fixture|fixtures[\w-]*)\.ts$/.test(rel)
  );
}

function resolveImport(fromAbs: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null; // packages (@vigia/domain, node:, npm) are outside the rules
  const base = resolve(dirname(fromAbs), spec);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  for (const c of candidates) if (SOURCE.test(c) && existsSync(c)) return c;
  return null;
}

/** Every relative import of a file: static imports, re-exports and dynamic import(). */
export function importsOf(absPath: string, text = readFileSync(absPath, 'utf8')): Edge[] {
  const sf = ts.createSourceFile(absPath, text, ts.ScriptTarget.Latest, false);
  const edges: Edge[] = [];
  const add = (spec: string, typeOnly: boolean, lazy = false) => {
    const to = resolveImport(absPath, spec);
    if (to) edges.push({ from: relative(ROOT, absPath), to: relative(ROOT, to), typeOnly, lazy });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!named &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      add(node.moduleSpecifier.text, allTypes);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

/** The production import graph of a source directory (repository-relative). */
export function graphOf(srcDir: string): Edge[] {
  return walk(join(ROOT, srcDir))
    .filter((f) => !isTestFile(relative(ROOT, f)))
    .flatMap((f) => importsOf(f))
    .filter((e) => !isTestFile(e.to));
}

// ───────────────────────────── server rules ─────────────────────────────

const SERVER = 'apps/server/src/';

type ServerPart =
  | { kind: 'feature'; name: string; file: string }
  | { kind: 'ingest'; file: string }
  | { kind: 'market'; file: string }
  | { kind: 'platform'; name: string; file: string }
  | { kind: 'base' } // lib/, db/, plugins/, config.ts
  | { kind: 'root' }; // app.ts, main.ts, cli/, modules/index.ts, modules/rollups.ts

export function serverPart(rel: string): ServerPart {
  const p = rel.slice(SERVER.length);
  const m = /^modules\/([^/]+)\/(.+)$/.exec(p);
  if (m)
    return m[1] === 'ingest' ? { kind: 'ingest', file: m[2] } : { kind: 'feature', name: m[1], file: m[2] };
  const pl = /^platform\/([^/]+)\/(.+)$/.exec(p);
  if (pl) return { kind: 'platform', name: pl[1], file: pl[2] };
  // a one-file part (platform/change-signal.ts) is its own face
  const one = /^platform\/([^/]+)\.tsx?$/.exec(p);
  if (one) return { kind: 'platform', name: one[1], file: 'index.ts' };
  if (p.startsWith('market/')) return { kind: 'market', file: p.slice('market/'.length) };
  if (/^(lib|db|plugins|platform)\//.test(p) || p === 'config.ts') return { kind: 'base' };
  return { kind: 'root' };
}

const isFace = (file: string) => file === 'index.ts';

/** Why an edge breaks a server rule; null when it is allowed. */
export function serverViolation(e: Edge): string | null {
  const from = serverPart(e.from);
  const to = serverPart(e.to);
  if (from.kind === 'root') return null;
  // FastifyInstance augmentation (app.ts declares `deps`): a type-only import of the app is fine.
  if (to.kind === 'root')
    return e.typeOnly && e.to === `${SERVER}app.ts` ? null : 'imports a composition root';
  if (from.kind === 'base') {
    return to.kind === 'base'
      ? null
      : `lib/db/plugins must not import ${to.kind === 'market' ? 'the market core' : to.kind === 'platform' ? 'the platform' : 'a feature'}`;
  }
  if (from.kind === 'market') {
    return to.kind === 'feature' || to.kind === 'ingest' ? 'the market core must not import a feature' : null;
  }
  if (to.kind === 'market' && !isFace(to.file)) return 'use the market core through market/index.ts';
  if (from.kind === 'platform') {
    if (to.kind === 'feature' || to.kind === 'ingest') return 'the platform must not import a feature';
    if (to.kind === 'platform' && to.name !== from.name && !isFace(to.file))
      return `another platform part only through its index.ts (platform/${to.name}/index.ts)`;
    return null;
  }
  if (to.kind === 'platform' && !isFace(to.file)) {
    return `the platform only through its index.ts (platform/${to.name}/index.ts)`;
  }
  if (from.kind === 'ingest') {
    return to.kind === 'feature'
      ? 'the ingest path must call no feature (features subscribe with registerRollup)'
      : null;
  }
  // from a feature
  if (to.kind === 'feature' && to.name !== from.name && !isFace(to.file)) {
    return `another feature only through its index.ts (modules/${to.name}/index.ts)`;
  }
  if (to.kind === 'ingest' && !isFace(to.file) && to.file !== 'registry.ts') {
    return 'the ingest path only through ingest/index.ts or ingest/registry.ts';
  }
  return null;
}

/**
 * Known breaks of the rules being removed by another branch right now. Each is allowed only as it is
 * written here.
 * TODO(ingest helper, issue 11 part 2): ingest/matching.ts calls pricing/maintain.ts refreshPricingForListings;
 * the ingest branch makes pricing subscribe instead — remove this entry when it lands.
 */
export const SERVER_KNOWN_EXCEPTIONS: readonly { from: string; to: string }[] = [];

// ───────────────────────────── web rules ─────────────────────────────

const WEB = 'apps/web/src/';

/** Why a web edge breaks a rule; null when allowed. */
export function webViolation(e: Edge): string | null {
  const from = e.from.slice(WEB.length);
  const to = e.to.slice(WEB.length);
  const feature = (p: string) => /^features\/([^/]+)\//.exec(p)?.[1] ?? null;
  const fromFeature = feature(from);
  const toFeature = feature(to);
  if (fromFeature && toFeature && fromFeature !== toFeature && !/^features\/[^/]+\/index\.tsx?$/.test(to)) {
    return `another feature only through its index (features/${toFeature}/index.ts)`;
  }
  if (fromFeature && to.startsWith('app/')) return 'a feature must not import app/';
  if (/^(components|lib)\//.test(from)) {
    if (toFeature) return 'shared UI and lib must not import a feature';
    if (to.startsWith('app/')) return 'shared UI and lib must not import app/';
    if (from.startsWith('lib/') && to.startsWith('components/')) return 'lib must not import components';
  }
  return null;
}

/** Known breaks on the web: none (a feature never imports app/). */
export const WEB_KNOWN_EXCEPTIONS: readonly { from: string; to: string }[] = [];

// ───────────────────────────── bench rule ─────────────────────────────

/** A piece of literal text that names an API path. */
const API_PATH = /(^|[^\w.])\/(v\d+\/|health\b|media\/|socket\.io\b)/;

/**
 * API paths written as literals in a file (strings and the text parts of templates; comments do not
 * count), as `file:line: text`.
 */
export function pathLiteralsOf(absPath: string, text = readFileSync(absPath, 'utf8')): string[] {
  const sf = ts.createSourceFile(absPath, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const literal =
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node);
    // import specifiers are modules, not paths of the API
    const isModule =
      ts.isStringLiteral(node) &&
      (ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent));
    if (literal && !isModule && API_PATH.test((node as ts.LiteralLikeNode).text)) {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      found.push(`${relative(ROOT, absPath)}:${line}: ${(node as ts.LiteralLikeNode).text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** Every API path literal under a directory (the bench: bench/src). */
export function pathLiteralsUnder(dir: string): string[] {
  return walk(join(ROOT, dir)).flatMap((f) => pathLiteralsOf(f));
}

// ───────────────────────────── checks ─────────────────────────────

const known = (list: readonly { from: string; to: string }[], e: Edge) =>
  list.some((k) => k.from === e.from && k.to === e.to);

/** Every edge that breaks a rule, as readable lines. */
export function violations(
  edges: Edge[],
  rule: (e: Edge) => string | null,
  exceptions: readonly { from: string; to: string }[],
): string[] {
  return edges.flatMap((e) => {
    const why = rule(e);
    return why && !known(exceptions, e) ? [`${e.from} → ${e.to}: ${why}`] : [];
  });
}

/**
 * Import cycles among static runtime imports (type-only imports are erased by the compiler; a dynamic
 * import() runs after every module has loaded).
 */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (!e.typeOnly && !e.lazy) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of next.get(n) ?? []) {
      if (state.get(m) === 'open') found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...next.keys()].sort()) if (!state.has(n)) visit(n);
  return found;
}

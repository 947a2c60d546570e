import robotsModule from 'robots-parser';

// robots-parser is CommonJS (module.exports = the function); its types describe an ES default export.
const robotsParser = robotsModule as unknown as typeof robotsModule.default;

// Politeness per host (docs/architecture.md "Crawler: fetching, politely"): robots.txt read with a maintained
// parser and cached per host, its Crawl-delay raising the configured delay; one request at a time per host
// by default, spaced by the delay; a host that keeps failing is backed off, not hammered, and one slow host
// never holds the others (each host has its own clock).

export interface PolitenessOptions {
  userAgent: string; // names Vigía and a contact URL (settings)
  delayMs: number; // between two requests to one host (default 2,000)
  concurrencyPerHost: number; // default 1
  maxCrawlDelayMs?: number; // a robots.txt cannot ask more than this (default 60 s)
}

export interface Robots {
  isAllowed(url: string): boolean;
  crawlDelayMs: number | null;
  sitemaps: string[];
}

/** robots.txt of one host; an unreachable or missing one (4xx) allows everything, a 5xx one nothing. */
export function parseRobots(robotsUrl: string, status: number, body: string, userAgent: string): Robots {
  if (status >= 500) return { isAllowed: () => false, crawlDelayMs: null, sitemaps: [] };
  if (status >= 400 || status === 0) return { isAllowed: () => true, crawlDelayMs: null, sitemaps: [] };
  const robots = robotsParser(robotsUrl, body.slice(0, 500_000));
  const agent = userAgent.split(/[\s/]/)[0];
  const delay = robots.getCrawlDelay(agent);
  return {
    isAllowed: (url) => robots.isAllowed(url, agent) !== false,
    crawlDelayMs: delay != null && Number.isFinite(delay) && delay >= 0 ? delay * 1000 : null,
    sitemaps: robots.getSitemaps().slice(0, 100),
  };
}

interface HostState {
  active: number;
  nextAt: number; // earliest time the next request may start
  failures: number; // consecutive
  robots?: Robots;
}

/**
 * When each host may be asked next. `acquire` waits for a free slot of the host; `release` records the
 * outcome: a failure (5xx, 429, timeout) doubles the wait, up to 10 minutes, and a `Retry-After` is honoured.
 */
export class HostScheduler {
  private readonly hosts = new Map<string, HostState>();
  constructor(
    private readonly opts: PolitenessOptions,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  private state(host: string): HostState {
    let s = this.hosts.get(host);
    if (!s) {
      s = { active: 0, nextAt: 0, failures: 0 };
      this.hosts.set(host, s);
    }
    return s;
  }

  setRobots(host: string, robots: Robots): void {
    this.state(host).robots = robots;
  }

  robotsOf(host: string): Robots | undefined {
    return this.hosts.get(host)?.robots;
  }

  /** Delay between two requests to the host: the setting, raised (never lowered) by its Crawl-delay. */
  delayOf(host: string): number {
    const crawlDelay = Math.min(
      this.hosts.get(host)?.robots?.crawlDelayMs ?? 0,
      this.opts.maxCrawlDelayMs ?? 60_000,
    );
    return Math.max(this.opts.delayMs, crawlDelay);
  }

  async acquire(host: string, signal?: AbortSignal): Promise<void> {
    const s = this.state(host);
    for (;;) {
      signal?.throwIfAborted();
      const wait = s.nextAt - this.now();
      if (s.active < this.opts.concurrencyPerHost && wait <= 0) break;
      await this.sleep(Math.max(wait, 10));
    }
    s.active++;
    s.nextAt = this.now() + this.delayOf(host);
  }

  release(host: string, outcome: { ok: boolean; retryAfterMs?: number | null }): void {
    const s = this.state(host);
    s.active = Math.max(0, s.active - 1);
    if (outcome.ok) s.failures = 0;
    else s.failures++;
    const backoff = s.failures ? Math.min(this.delayOf(host) * 2 ** s.failures, 600_000) : 0;
    const after = Math.max(backoff, outcome.retryAfterMs ?? 0);
    if (after) s.nextAt = Math.max(s.nextAt, this.now() + after);
  }

  /** A host failing this many times in a row is given up for the run. */
  failing(host: string, limit = 5): boolean {
    return (this.hosts.get(host)?.failures ?? 0) >= limit;
  }
}

/** `Retry-After` as seconds or an HTTP date → milliseconds from now (bounded to an hour). */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const s = Number(value);
  const ms = Number.isFinite(s) ? s * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 3_600_000) : null;
}

/** Exponential back-off with full jitter for retries of one page. */
export function backoffWithJitter(
  attempt: number,
  baseMs = 1_000,
  maxMs = 60_000,
  random = Math.random,
): number {
  return Math.round(random() * Math.min(maxMs, baseMs * 2 ** attempt));
}

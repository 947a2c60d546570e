// The crawler's face for the rest of the server (docs/architecture.md "Crawler").
export { CRAWL_QUEUE, crawlHooks, enqueueCrawl } from './jobs.js';
export { clearRobotsCache, crawlSettingsSchema, executeCrawlRun, planPages } from './run.js';

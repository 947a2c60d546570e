// The crawler's face for the rest of the server (docs/architecture.md "Crawler").
export { attachCrawlerApp, CRAWL_QUEUE, enqueueCrawl, registerCrawlJobs } from './jobs.js';
export { clearRobotsCache, crawlSettingsSchema, executeCrawlRun, planPages } from './run.js';

// Crawler extraction speed (issue 28; a part of `npm run bench`, docs/benchmarks.md): typical ~150 KB product
// pages served by a local HTTP server on 127.0.0.1 (a separate process, so that its CPU is not counted)
// and read by the crawler's own page reader (readPage of the built server: safe fetch, decode, extract,
// judge) one page at a time — one worker, politeness off (no delay, no robots.txt: they belong to the
// scheduler, not to reading). Reports pages per second, CPU per page, and resident memory over the run
// (it must stay flat).
//   npx tsx bench/src/extraction.ts [--pages 20000]      (after npm run build)
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A product page shaped like a VTEX/Shopify store's: navigation, scripts, a JSON-LD Product, ~150 KB. */
export function productPage(i: number): string {
  const nav = Array.from(
    { length: 400 },
    (_, k) =>
      `<li class="menu__item menu__item--${k}"><a href="/categoria/${k}?i=${i}" data-track="nav-${k}">Categoría ${k} &amp; más</a></li>`,
  ).join('');
  const reviews = Array.from(
    { length: 220 },
    (_, k) =>
      `<div class="review" data-id="${k}"><p>Muy buen producto, llegó a tiempo. Lo recomiendo ${k}.</p><span class="stars">★★★★☆</span></div>`,
  ).join('');
  const ld = JSON.stringify({
    '@context': 'https://schema.org',
    '@graph': [
      { '@type': 'Organization', name: 'TiendaSol' },
      {
        '@type': 'Product',
        '@id': `https://tiendasol.example/p/${i}`,
        name: `Refrigerador No Frost ${200 + (i % 300)} L Inox ${i}`,
        brand: { '@type': 'Brand', name: 'Frío Andino' },
        gtin13: '7801234567895',
        sku: `RF-${i}`,
        image: [`https://cdn.tiendasol.example/${i}.jpg`],
        offers: {
          '@type': 'Offer',
          price: String(300_000 + (i % 1000) * 10),
          priceCurrency: 'CLP',
          availability: 'https://schema.org/InStock',
          priceSpecification: [
            {
              '@type': 'UnitPriceSpecification',
              priceType: 'https://schema.org/StrikethroughPrice',
              price: 499_990,
            },
          ],
        },
      },
    ],
  });
  const script = `<script>window.__STATE__=${JSON.stringify({ x: 'y'.repeat(30_000) })}</script>`;
  return `<!doctype html><html lang="es"><head><title>Refrigerador ${i}</title><link rel="canonical" href="https://tiendasol.example/p/${i}"><script type="application/ld+json">${ld}</script><style>${'.a{color:red}'.repeat(2_000)}</style></head><body><nav><ul>${nav}</ul></nav><main><h1>Refrigerador ${i}</h1>${reviews}</main>${script}</body></html>`;
}

export interface ExtractionResult {
  pages: number;
  pageKb: number;
  pagesPerSecond: number;
  cpuMsPerPage: number;
  rssStartMb: number;
  rssEndMb: number;
  rssPeakMb: number;
}

/** The page server (child process): /p/<i> → productPage(i); prints its port, ends with its stdin. */
function servePages(): void {
  const server = createServer((req, res) => {
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    if (!m) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(productPage(Number(m[1])));
  });
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    console.log(JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 }));
  });
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}

export async function benchExtraction(pages = 20_000): Promise<ExtractionResult> {
  const { built } = await import('./server.js');
  const { readPage } = (await import(
    built('modules/crawler/read-page.js')
  )) as typeof import('../../apps/server/src/modules/crawler/read-page.js');
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', () => reject(new Error('el servidor de páginas terminó')));
      createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l).port));
    });
    const base = `http://127.0.0.1:${port}`;
    const read = (i: number) =>
      readPage(`${base}/p/${i}`, {
        seller: { country: 'CL', currency: 'CLP' },
        fetch: { allowPrivate: true, userAgent: 'VigiaBench/1.0' },
        lastTrustedPrice: async () => null,
      });
    const mb = () => process.memoryUsage().rss / 2 ** 20;
    // warm-up (JIT, connections) before measuring
    for (let i = 0; i < 200; i++) await read(i);
    const rssStart = mb();
    let rssPeak = rssStart;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let ok = 0;
    for (let i = 0; i < pages; i++) {
      if ((await read(i)).state === 'extracted') ok++;
      if (i % 1_000 === 0) rssPeak = Math.max(rssPeak, mb());
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    if (ok !== pages) throw new Error(`solo ${ok} de ${pages} páginas leídas`);
    return {
      pages,
      pageKb: Math.round(Buffer.byteLength(productPage(0)) / 1024),
      pagesPerSecond: Math.round(pages / seconds),
      cpuMsPerPage: Number(((cpu.user + cpu.system) / 1000 / pages).toFixed(2)),
      rssStartMb: Math.round(rssStart),
      rssEndMb: Math.round(mb()),
      rssPeakMb: Math.round(Math.max(rssPeak, mb())),
    };
  } finally {
    child.stdin?.end();
    child.kill('SIGTERM');
  }
}

if (process.argv.includes('--serve')) servePages();
else if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--pages');
  console.log(await benchExtraction(i > 0 ? Number(process.argv[i + 1]) : 20_000));
}

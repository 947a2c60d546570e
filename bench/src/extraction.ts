// Crawler extraction speed (issue 28): typical ~150 KB product pages read by the crawler's extractor and
// judged, on one thread, with no network (politeness is a matter of the fetcher, not of reading). Reports
// pages per second, CPU per page, and resident memory over the run (it must stay flat).
//   npx tsx bench/src/extraction.ts [--pages 20000]
import { extractProduct } from '../../apps/server/src/modules/crawler/extract.js';
import { judgeReading } from '../../apps/server/src/modules/crawler/reading.js';

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

export function benchExtraction(pages = 20_000): ExtractionResult {
  const sample = productPage(0);
  const mb = () => process.memoryUsage().rss / 2 ** 20;
  // warm-up (JIT) before measuring
  for (let i = 0; i < 200; i++) extractProduct(productPage(i), `https://tiendasol.example/p/${i}`);
  const rssStart = mb();
  let rssPeak = rssStart;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let ok = 0;
  for (let i = 0; i < pages; i++) {
    const r = extractProduct(productPage(i), `https://tiendasol.example/p/${i}`);
    if (r.ok && judgeReading(r.product, { country: 'CL', currency: 'CLP' }).ok) ok++;
    if (i % 1_000 === 0) rssPeak = Math.max(rssPeak, mb());
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (ok !== pages) throw new Error(`solo ${ok} de ${pages} páginas leídas`);
  return {
    pages,
    pageKb: Math.round(Buffer.byteLength(sample) / 1024),
    pagesPerSecond: Math.round(pages / seconds),
    cpuMsPerPage: Number(((cpu.user + cpu.system) / 1000 / pages).toFixed(2)),
    rssStartMb: Math.round(rssStart),
    rssEndMb: Math.round(mb()),
    rssPeakMb: Math.round(Math.max(rssPeak, mb())),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf('--pages');
  console.log(benchExtraction(i > 0 ? Number(process.argv[i + 1]) : 20_000));
}

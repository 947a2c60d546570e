import { Parser } from 'htmlparser2';

// What a product page says about itself, read with a real HTML parser (htmlparser2, one streaming pass):
// schema.org Product/Offer in JSON-LD first, microdata as a fallback, OpenGraph `product:price:*` last.
// Nothing here trusts the page: every string is bounded, JSON is parsed defensively, and a page that is
// not a product (captcha, soft 404, category) is said to be so rather than read.

const MAX_JSON_LD = 1_000_000; // characters of one JSON-LD block
const MAX_TEXT = 2_000; // characters kept of one text value
const MAX_PAGE_TEXT = 20_000; // characters of visible text kept for the page's kind

export interface RawOffer {
  price: unknown; // as the page gives it: number or string
  normalPrice?: unknown; // a StrikethroughPrice / ListPrice specification
  currency: string | null;
  availability: string | null;
  priceValidUntil: string | null;
}

export interface PageProduct {
  source: 'json-ld' | 'microdata' | 'opengraph';
  name: string | null;
  brand: string | null;
  gtin: string | null;
  sku: string | null;
  mpn: string | null;
  category: string | null;
  imageUrl: string | null;
  url: string | null; // the product's canonical URL
  offer: RawOffer | null;
  /** what the reading chose among several candidates, for the run's log */
  note?: string;
}

export type PageRefusal =
  | 'sin datos de producto'
  | 'página de bloqueo'
  | 'página no encontrada'
  | 'página de categoría';

export type Extraction =
  | { ok: true; product: PageProduct }
  | { ok: false; reason: PageRefusal; detail: string };

interface MicroScope {
  types: string[];
  props: Map<string, (string | MicroScope)[]>;
}

interface OpenElement {
  name: string;
  itemprops: string[] | null;
  scope: MicroScope | null;
  attrValue: string | null; // content/href/src/datetime/value of an itemprop element
  text: string[] | null;
}

interface PageFacts {
  jsonLd: string[];
  microdata: MicroScope[]; // top-level scopes
  meta: Map<string, string>;
  canonical: string | null;
  title: string;
  h1: string;
  text: string;
}

const URL_ATTR: Record<string, string> = {
  a: 'href',
  link: 'href',
  img: 'src',
  area: 'href',
  audio: 'src',
  video: 'src',
  source: 'src',
  embed: 'src',
  iframe: 'src',
  object: 'data',
};

function clip(s: string, n = MAX_TEXT): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? t.slice(0, n) : t;
}

/** One pass over the HTML collecting the JSON-LD blocks, microdata scopes, meta tags and the page's text. */
function collectFacts(html: string): PageFacts {
  const facts: PageFacts = {
    jsonLd: [],
    microdata: [],
    meta: new Map(),
    canonical: null,
    title: '',
    h1: '',
    text: '',
  };
  const stack: OpenElement[] = [];
  const scopes: MicroScope[] = [];
  let script: { ld: boolean; chunks: string[]; size: number } | null = null;
  let inStyle = false;
  let inTitle = false;
  let inH1 = false;
  const pageText: string[] = [];
  let pageTextLength = 0;

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'script') {
          const type = (attrs.type ?? '').toLowerCase().split(';')[0].trim();
          script = { ld: type === 'application/ld+json', chunks: [], size: 0 };
        } else if (name === 'style' || name === 'noscript' || name === 'template') inStyle = true;
        else if (name === 'title') inTitle = true;
        else if (name === 'h1') inH1 = true;
        else if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? attrs.itemprop ?? '').toLowerCase();
          if (key && attrs.content != null && !facts.meta.has(key)) facts.meta.set(key, clip(attrs.content));
        } else if (name === 'link' && /(^|\s)canonical(\s|$)/i.test(attrs.rel ?? '') && attrs.href) {
          facts.canonical ??= clip(attrs.href);
        }
        const itemprops = attrs.itemprop ? attrs.itemprop.split(/\s+/).filter(Boolean).slice(0, 8) : null;
        let scope: MicroScope | null = null;
        if ('itemscope' in attrs) {
          scope = {
            types: (attrs.itemtype ?? '').split(/\s+/).filter(Boolean).slice(0, 4),
            props: new Map(),
          };
          if (!itemprops) facts.microdata.push(scope); // a scope that is no property is an item of its own
          scopes.push(scope);
        }
        const urlAttr = URL_ATTR[name];
        const attrValue = itemprops
          ? (attrs.content ?? (urlAttr ? attrs[urlAttr] : undefined) ?? attrs.datetime ?? attrs.value ?? null)
          : null;
        stack.push({
          name,
          itemprops,
          scope,
          attrValue: attrValue == null ? null : clip(attrValue),
          text: itemprops && !scope && attrValue == null ? [] : null,
        });
      },
      ontext(data) {
        if (script) {
          if (script.ld && script.size < MAX_JSON_LD) {
            script.chunks.push(data);
            script.size += data.length;
          }
          return;
        }
        if (inStyle) return;
        if (inTitle && facts.title.length < MAX_TEXT) facts.title += data;
        if (inH1 && facts.h1.length < MAX_TEXT) facts.h1 += data;
        if (pageTextLength < MAX_PAGE_TEXT) {
          pageText.push(data);
          pageTextLength += data.length;
        }
        for (let i = stack.length - 1; i >= 0; i--) {
          const t = stack[i].text;
          if (t && t.length < 64) t.push(data);
          if (stack[i].scope) break; // text belongs to properties of the innermost scope only
        }
      },
      onclosetag(name) {
        if (name === 'script' && script) {
          if (script.ld && script.size <= MAX_JSON_LD) facts.jsonLd.push(script.chunks.join(''));
          script = null;
        } else if (name === 'style' || name === 'noscript' || name === 'template') inStyle = false;
        else if (name === 'title') inTitle = false;
        else if (name === 'h1') inH1 = false;
        // Pop to the matching element (htmlparser2 closes implied elements itself, in order).
        const el = stack.pop();
        if (!el) return;
        if (el.scope) scopes.pop();
        if (el.itemprops) {
          const owner = scopes[scopes.length - 1];
          if (!owner) return;
          const value: string | MicroScope = el.scope ?? el.attrValue ?? clip((el.text ?? []).join(''));
          for (const p of el.itemprops) {
            const list = owner.props.get(p) ?? [];
            if (list.length < 16) list.push(value);
            owner.props.set(p, list);
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  facts.title = clip(facts.title);
  facts.h1 = clip(facts.h1);
  facts.text = clip(pageText.join(' '), MAX_PAGE_TEXT);
  return facts;
}

// ─── JSON-LD ───

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Node = { [k: string]: Json };

function isNode(v: Json | undefined): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function typesOf(n: Node): string[] {
  const t = n['@type'];
  const list = Array.isArray(t) ? t : [t];
  return list
    .filter((x): x is string => typeof x === 'string')
    .map((x) => x.replace(/^https?:\/\/schema\.org\//i, ''));
}

/** Every node of the blocks: top-level arrays, `@graph`, and nodes nested as values (bounded). */
function nodesOf(blocks: string[]): Node[] {
  const out: Node[] = [];
  const visit = (v: Json | undefined, depth: number) => {
    if (out.length > 2_000 || depth > 12 || v == null) return;
    if (Array.isArray(v)) for (const x of v.slice(0, 500)) visit(x, depth + 1);
    else if (isNode(v)) {
      if (v['@type'] !== undefined) out.push(v);
      for (const [k, x] of Object.entries(v))
        if (k === '@graph' || typeof x === 'object') visit(x, depth + 1);
    }
  };
  for (const block of blocks) {
    try {
      // Some stores put raw line breaks or a trailing comment inside strings; JSON.parse refuses those blocks.
      visit(JSON.parse(block.trim().replace(/^<!--|-->$/g, '')) as Json, 0);
    } catch {
      // broken JSON-LD: the block is skipped; microdata or OpenGraph may still describe the product
    }
  }
  return out;
}

function text(v: Json | undefined): string | null {
  if (typeof v === 'string') return clip(v) || null;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return text(v[0]);
  if (isNode(v)) return text(v.name ?? v['@id'] ?? v.url);
  return null;
}

function imageOf(v: Json | undefined): string | null {
  if (typeof v === 'string') return clip(v);
  if (Array.isArray(v)) return imageOf(v[0]);
  if (isNode(v)) return text(v.url ?? v.contentUrl ?? v['@id']);
  return null;
}

const STRIKE = /(StrikethroughPrice|ListPrice|MSRP|SRP)$/i;

function offerOf(offers: Json | undefined): { offer: RawOffer | null; note?: string } {
  const list = (Array.isArray(offers) ? offers : [offers]).filter(isNode).slice(0, 200);
  if (list.length === 0) return { offer: null };
  // Several offers (variants or sellers): one in stock first, then the first with a price.
  const priced = list.filter((o) => o.price != null || o.lowPrice != null || o.priceSpecification != null);
  const inStock = priced.find((o) => !/OutOfStock|SoldOut|Discontinued/i.test(String(o.availability ?? '')));
  const o = inStock ?? priced[0] ?? list[0];
  const note = list.length > 1 ? `${list.length} ofertas; se usó la primera disponible` : undefined;
  let price: unknown = o.price ?? null;
  let normalPrice: unknown;
  let currency = text(o.priceCurrency);
  if (typesOf(o).includes('AggregateOffer') && price == null) price = o.lowPrice ?? null;
  const specs = (Array.isArray(o.priceSpecification) ? o.priceSpecification : [o.priceSpecification]).filter(
    isNode,
  );
  for (const s of specs) {
    const kind = String(s.priceType ?? '');
    if (STRIKE.test(kind)) normalPrice = s.price ?? undefined;
    else if (price == null) price = s.price ?? null;
    currency ??= text(s.priceCurrency);
  }
  return {
    offer: {
      price,
      normalPrice,
      currency,
      availability: text(o.availability),
      priceValidUntil: text(o.priceValidUntil),
    },
    note,
  };
}

const GTIN_KEYS = ['gtin13', 'gtin12', 'gtin14', 'gtin8', 'gtin', 'ean', 'isbn'] as const;

function productFromNode(n: Node): PageProduct {
  const { offer, note } = offerOf(n.offers);
  const gtinKey = GTIN_KEYS.find((k) => n[k] != null);
  return {
    source: 'json-ld',
    name: text(n.name),
    brand: text(n.brand ?? n.manufacturer),
    gtin: gtinKey ? text(n[gtinKey]) : null,
    sku: text(n.sku ?? n.productID),
    mpn: text(n.mpn),
    category: text(n.category),
    imageUrl: imageOf(n.image),
    url: text(n.url ?? n['@id']),
    offer,
    note,
  };
}

function samePage(a: string | null, b: string | null): boolean {
  if (!a || !b) return false;
  try {
    const x = new URL(a);
    const y = new URL(b, a);
    return x.host === y.host && x.pathname.replace(/\/$/, '') === y.pathname.replace(/\/$/, '');
  } catch {
    return false;
  }
}

// ─── microdata ───

function microText(scope: MicroScope, prop: string): string | null {
  const v = scope.props.get(prop)?.[0];
  if (v == null) return null;
  return typeof v === 'string' ? v || null : microText(v, 'name');
}

function microProducts(scopes: MicroScope[]): MicroScope[] {
  const out: MicroScope[] = [];
  const visit = (s: MicroScope, depth: number) => {
    if (depth > 8 || out.length > 200) return;
    if (s.types.some((t) => /schema\.org\/Product$/i.test(t))) out.push(s);
    for (const values of s.props.values())
      for (const v of values) if (typeof v !== 'string') visit(v, depth + 1);
  };
  for (const s of scopes) visit(s, 0);
  return out;
}

function productFromMicro(s: MicroScope): PageProduct {
  const offerScope = s.props.get('offers')?.find((v): v is MicroScope => typeof v !== 'string');
  const gtinKey = GTIN_KEYS.find((k) => s.props.has(k));
  let offer: RawOffer | null = null;
  if (offerScope) {
    offer = {
      price: microText(offerScope, 'price') ?? microText(offerScope, 'lowPrice'),
      currency: microText(offerScope, 'priceCurrency'),
      availability: microText(offerScope, 'availability'),
      priceValidUntil: microText(offerScope, 'priceValidUntil'),
    };
  } else if (s.props.has('price')) {
    offer = {
      price: microText(s, 'price'),
      currency: microText(s, 'priceCurrency'),
      availability: null,
      priceValidUntil: null,
    };
  }
  return {
    source: 'microdata',
    name: microText(s, 'name'),
    brand: microText(s, 'brand'),
    gtin: gtinKey ? microText(s, gtinKey) : null,
    sku: microText(s, 'sku') ?? microText(s, 'productID'),
    mpn: microText(s, 'mpn'),
    category: microText(s, 'category'),
    imageUrl: microText(s, 'image'),
    url: microText(s, 'url'),
    offer,
  };
}

// ─── the page's kind ───

const BLOCKED =
  /captcha|access denied|acceso denegado|attention required|verify you are (a )?human|are you a robot|eres un robot|just a moment\.\.\.|request blocked|solicitud bloqueada/i;
const NOT_FOUND =
  /\b404\b|page not found|p[aá]gina no encontrada|no (hemos )?encontrad|no existe|producto no disponible en este momento y no/i;

/** A block page (captcha, access denied) says so whatever else it carries. */
function blockPage(f: PageFacts): { reason: PageRefusal; detail: string } | null {
  const heading = `${f.title} | ${f.h1}`;
  if (BLOCKED.test(heading) || (f.text.length < 2_000 && BLOCKED.test(f.text))) {
    return { reason: 'página de bloqueo', detail: clip(heading, 120) };
  }
  return null;
}

/**
 * A soft 404 (answered 200 with a "not found" page) is named only when no product was read: a product
 * called "Peugeot 404" is a product.
 */
function notFoundPage(f: PageFacts): { reason: PageRefusal; detail: string } | null {
  const heading = `${f.title} | ${f.h1}`;
  return NOT_FOUND.test(heading) ? { reason: 'página no encontrada', detail: clip(heading, 120) } : null;
}

/**
 * Reads one page. `pageUrl` is where it was fetched from (the canonical Product is the one whose URL is
 * the page's or its canonical link's when a page describes several).
 */
export function extractProduct(html: string, pageUrl: string): Extraction {
  const facts = collectFacts(html);
  const blocked = blockPage(facts);
  if (blocked) return { ok: false, ...blocked };
  const canonical = facts.canonical ? safeResolve(facts.canonical, pageUrl) : null;

  const nodes = nodesOf(facts.jsonLd);
  const listLike = nodes.some((n) =>
    typesOf(n).some((t) => t === 'ItemList' || t === 'CollectionPage' || t === 'SearchResultsPage'),
  );
  const products = nodes.filter((n) =>
    typesOf(n).some((t) => t === 'Product' || t === 'ProductModel' || t === 'IndividualProduct'),
  );
  if (products.length) {
    const chosen = chooseCanonical(products.map(productFromNode), canonical ?? pageUrl, listLike);
    if (chosen) return withPageFacts(chosen, facts, canonical);
    return {
      ok: false,
      reason: 'página de categoría',
      detail: `${products.length} productos sin uno canónico`,
    };
  }
  const micro = microProducts(facts.microdata).map(productFromMicro);
  if (micro.length) {
    const chosen = chooseCanonical(micro, canonical ?? pageUrl, listLike);
    if (chosen) return withPageFacts(chosen, facts, canonical);
    return { ok: false, reason: 'página de categoría', detail: `${micro.length} productos sin uno canónico` };
  }
  const amount = facts.meta.get('product:price:amount') ?? facts.meta.get('og:price:amount');
  if (amount && !listLike) {
    return withPageFacts(
      {
        source: 'opengraph',
        name: facts.meta.get('og:title') ?? null,
        brand: facts.meta.get('product:brand') ?? null,
        gtin: facts.meta.get('product:ean') ?? facts.meta.get('product:upc') ?? null,
        sku: facts.meta.get('product:retailer_item_id') ?? null,
        mpn: facts.meta.get('product:mfr_part_no') ?? null,
        category: facts.meta.get('product:category') ?? null,
        imageUrl: facts.meta.get('og:image') ?? null,
        url: facts.meta.get('og:url') ?? null,
        offer: {
          price: amount,
          currency: facts.meta.get('product:price:currency') ?? facts.meta.get('og:price:currency') ?? null,
          availability: facts.meta.get('product:availability') ?? facts.meta.get('og:availability') ?? null,
          priceValidUntil: null,
        },
      },
      facts,
      canonical,
    );
  }
  const notFound = notFoundPage(facts);
  if (notFound) return { ok: false, ...notFound };
  if (listLike) return { ok: false, reason: 'página de categoría', detail: 'lista de productos' };
  return { ok: false, reason: 'sin datos de producto', detail: clip(facts.title, 120) };
}

function safeResolve(href: string, base: string): string | null {
  try {
    const u = new URL(href, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/**
 * One product of several: the one whose URL is the page's; else, on a page that is not a list, the only
 * one with an offer or the first of two (a product and its accessory); three or more with offers and none
 * the page's own are a listing page.
 */
function chooseCanonical(candidates: PageProduct[], pageUrl: string, listLike: boolean): PageProduct | null {
  if (candidates.length === 1)
    return listLike && !samePage(pageUrl, candidates[0].url) ? null : candidates[0];
  const own = candidates.find((c) => samePage(pageUrl, c.url));
  if (own)
    return {
      ...own,
      note: joinNotes(own.note, `${candidates.length} productos en la página; se usó el de su URL`),
    };
  const offered = candidates.filter((c) => c.offer);
  if (listLike || offered.length >= 3) return null;
  const pick = offered[0] ?? candidates[0];
  return {
    ...pick,
    note: joinNotes(pick.note, `${candidates.length} productos en la página; se usó el primero con oferta`),
  };
}

function joinNotes(a: string | undefined, b: string): string {
  return a ? `${a}; ${b}` : b;
}

function withPageFacts(p: PageProduct, facts: PageFacts, canonical: string | null): Extraction {
  const url = p.url && canonical ? (safeResolve(p.url, canonical) ?? canonical) : (canonical ?? p.url);
  return {
    ok: true,
    product: {
      ...p,
      name: p.name ?? facts.meta.get('og:title') ?? (facts.h1 || null),
      imageUrl: p.imageUrl ?? facts.meta.get('og:image') ?? null,
      url,
    },
  };
}

/** schema.org availability (URL or bare word) → out of stock? null when the page does not say. */
export function isOutOfStock(availability: string | null): boolean | null {
  if (!availability) return null;
  const word = availability
    .replace(/^https?:\/\/schema\.org\//i, '')
    .trim()
    .toLowerCase();
  if (/^(outofstock|soldout|discontinued|out of stock|agotado|sin stock)$/.test(word)) return true;
  if (
    /^(instock|limitedavailability|onlineonly|instoreonly|preorder|presale|backorder|in stock|disponible)$/.test(
      word,
    )
  )
    return false;
  return null;
}

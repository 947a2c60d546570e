import { formatNumber } from '@vigia/domain';
import { expectAccessible } from '../support/axe.js';
import { DEMO, login } from '../support/helpers.js';
import { type APIRequestContext, expect, test } from '../support/test.js';

// Coincidencias (issue 29): reviewing by keyboard on the screen, and a decision changing a DPM figure —
// the expected figure is computed from what the API says before the decision (never a literal).

interface Side {
  productId: number;
  sellerId: number;
}
interface Item {
  groupId: number;
  productId: number;
  status: string;
  candidate: Side;
  pivot: Side;
}

async function token(request: APIRequestContext): Promise<string> {
  const r = await request.post('/v1/auth-token/', { data: DEMO });
  expect(r.status()).toBe(200);
  return (await r.json()).token as string;
}

test.describe('Coincidencias', () => {
  test('review by keyboard: accept, undo, skip and reject, the keys written on screen', async ({ page }) => {
    await login(page);
    await page.goto('/app/matches');
    const main = page.getByRole('main');
    await expect(main.getByTestId('match-keys')).toContainText('A aceptar');
    const pair = main.getByTestId('match-pair');
    await expect(pair).toBeVisible({ timeout: 30_000 });
    const first = await pair.getAttribute('data-product-id');
    await expect(main.getByTestId('match-side-Producto del pivote')).toBeVisible();
    await expect(main.getByText(/Motivo:/)).toBeVisible();

    // A accepts: the pair leaves the queue (the next one is shown)
    await page.keyboard.press('a');
    await expect(page.getByText('Coincidencia aceptada')).toBeVisible();
    await expect(pair).not.toHaveAttribute('data-product-id', first as string);
    // U undoes it: back in the queue, first again (same score order)
    await page.keyboard.press('u');
    await expect(page.getByText('Decisión deshecha')).toBeVisible();
    await expect(pair).toHaveAttribute('data-product-id', first as string);
    // S skips to the next one without deciding, ← comes back
    await page.keyboard.press('s');
    await expect(pair).not.toHaveAttribute('data-product-id', first as string);
    const second = await pair.getAttribute('data-product-id');
    await page.keyboard.press('ArrowLeft');
    await expect(pair).toHaveAttribute('data-product-id', first as string);
    // R rejects: it moves to Rechazadas
    await page.keyboard.press('r');
    await expect(page.getByText('Coincidencia rechazada')).toBeVisible();
    await expect(pair).toHaveAttribute('data-product-id', second as string);
    await main.getByRole('combobox', { name: 'Estado' }).click();
    await page.getByRole('option', { name: 'Rechazadas' }).click();
    // on a market reviewed before (a reused data dir) other rejected pairs are listed too: N walks to it
    await expect(pair).toBeVisible();
    for (let k = 0; k < 30 && (await pair.getAttribute('data-product-id')) !== first; k++) {
      await page.keyboard.press('n');
      await page.waitForTimeout(100);
    }
    await expect(main.locator(`[data-testid="match-pair"][data-product-id="${first}"]`)).toBeVisible();
  });

  test('accepting a suggestion changes the DPM figure «Con match» as the data says', async ({
    page,
    request,
  }) => {
    const t = await token(request);
    const headers = { authorization: `JWT ${t}` };
    const me = await (await request.get('/v1/users/me/', { headers })).json();
    const pivot: number = me.pivot?.id ?? me.pivot_pk;
    expect(pivot).toBeTruthy();
    const kpi = async () =>
      (await (
        await request.get('/v2/navigation/dpm/kpi', { headers: { ...headers, 'x-pivot-id': String(pivot) } })
      ).json()) as {
        match: number;
      };
    // a suggestion whose pivot product has no confirmed competitor yet: accepting it gives the pivot one more
    // product with a match; one that already has one leaves the count as it is
    const q = await request.post('/v1/matches/queue', { headers, data: { pageSize: 100 } });
    const items = ((await q.json()).items as Item[]).filter((i) => i.pivot.sellerId === pivot);
    expect(items.length).toBeGreaterThan(0);
    let chosen: Item | null = null;
    let delta = 0;
    for (const i of items.slice(0, 40)) {
      const h = await (
        await request.post('/v1/matches/history', { headers, data: { listingId: i.pivot.productId } })
      ).json();
      const competitors = (h.matches as Item[]).filter(
        (m) => m.status === 'confirmed' && m.candidate.sellerId !== pivot,
      );
      if (!competitors.length) {
        chosen = i;
        delta = 1;
        break;
      }
      chosen ??= i;
    }
    expect(chosen).not.toBeNull();
    const before = (await kpi()).match;
    console.info(`matches e2e: DPM «Con match» ${before}, expected change ${delta}`);
    const d = await request.post('/v1/matches/decide', {
      headers,
      data: { decisions: [{ listingId: chosen?.productId, groupId: chosen?.groupId, action: 'accept' }] },
    });
    expect(await d.json()).toEqual({ changed: 1 });
    await expect.poll(async () => (await kpi()).match, { timeout: 20_000 }).toBe(before + delta);

    // the screen shows the same figure: DPM por marca's «Con match» card
    await login(page);
    await page.goto('/app/dpm-by-brand');
    await expect(page.getByRole('main').getByText('Con match', { exact: true }).first()).toBeVisible({
      timeout: 30_000,
    });
    // the card (KpiCard) is the section labelled by its «Con match» heading
    await expect(page.getByRole('main').locator('section[aria-labelledby="kpi-con-match"]')).toContainText(
      formatNumber(before + delta),
      { timeout: 30_000 },
    );

    // undo: the figure goes back
    await request.post('/v1/matches/decide', {
      headers,
      data: { decisions: [{ listingId: chosen?.productId, groupId: chosen?.groupId, action: 'undo' }] },
    });
    await expect.poll(async () => (await kpi()).match, { timeout: 20_000 }).toBe(before);
  });
  test('filters: score range said on the field, a brand, a classification and a reason narrow the queue', async ({
    page,
  }) => {
    await login(page);
    await page.goto('/app/matches');
    const main = page.getByRole('main');
    const pair = main.getByTestId('match-pair');
    await expect(pair).toBeVisible({ timeout: 30_000 });
    const position = main.getByTestId('match-position');
    const totalOf = async () =>
      Number(
        ((await position.textContent()) ?? '').replace(/.*· ([\d.]+) en total/, '$1').replace(/\./g, ''),
      );
    const all = await totalOf();

    // an impossible range: said on the field, the queue as it was
    await main.getByLabel('Puntaje mínimo').fill('90');
    await main.getByLabel('Puntaje máximo').fill('80');
    await expect(main.getByText('El mínimo no puede ser mayor que el máximo')).toBeVisible();
    await main.getByLabel('Puntaje máximo').fill('');
    await expect(main.getByText('El mínimo no puede ser mayor que el máximo')).toHaveCount(0);
    await expect.poll(() => totalOf()).toBeLessThanOrEqual(all);
    expect(Number(await main.getByTestId('match-score').textContent())).toBeGreaterThanOrEqual(90);
    await main.getByLabel('Puntaje mínimo').fill('');

    // a brand: the candidate shown is of that brand, and fewer pairs than all
    const brand = ((await main.getByTestId('match-side-Publicación candidata').textContent()) ?? '').match(
      /Marca: ([^·]+?) ·/,
    )?.[1];
    expect(brand).toBeTruthy();
    const brands = main.getByRole('combobox', { name: 'Marcas' });
    await brands.click();
    await brands.fill(brand as string);
    await page.getByRole('option', { name: brand as string, exact: true }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => totalOf(), { timeout: 20_000 }).toBeLessThan(all);
    await expect(main.getByTestId('match-side-Publicación candidata')).toContainText(`Marca: ${brand}`);

    // a reason no suggestion has (EAN igual: decided by the identifier, never suggested): the empty state
    await main.getByRole('combobox', { name: 'Motivo' }).click();
    await page.getByRole('option', { name: 'EAN igual' }).click();
    await expect(main.getByTestId('match-empty')).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, 'Coincidencias con filtros');
  });
});

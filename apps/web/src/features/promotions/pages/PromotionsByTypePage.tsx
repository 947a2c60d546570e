import { Box, Paper, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import {
  formatNumber,
  formatPercent,
  formatPrice,
  PROMOTION_KIND_PRICE_TYPE,
  PROMOTION_KINDS,
  priceTypeLabel,
} from '@vigia/domain';
import { seriesColor } from '../../../components/charts/index.js';
import { InfoTip } from '../../../components/data/InfoTip.js';
import { ScrollTable } from '../../../components/data/ScrollTable.js';
import { singleQueryState, useType } from '../api/queries.js';
import { PctButton } from '../components/PctButton.js';
import { SellerName, usePromotionDrill } from '../components/PromotionParts.js';
import { PromotionsFrame, windowText } from '../components/PromotionsFrame.js';
import { usePromotionSearch } from '../lib/use-promotion-search.js';

/**
 * Promociones por formato (seed 001 §2): per seller and classification, the exclusive (card-holder),
 * by-quantity and sale percentages with their average normal and promotion prices; a percentage opens
 * its products.
 */
const TYPE_FORMULA =
  '% de días-producto = días-producto con ese formato de promoción ÷ días-producto publicados del período × 100 (cada producto cuenta una vez por cada día publicado).';

export default function PromotionsByTypePage() {
  const p = usePromotionSearch();
  const { state, data, retry } = singleQueryState(p, useType(p.scope));
  const currency = data?.currency ?? p.currency;
  const drill = usePromotionDrill(p, currency);
  const empty = !!data && data.items.every((i) => i.classifications.every((c) => !c.published));
  return (
    <PromotionsFrame
      p={p}
      description="Qué tipo de promoción usa cada eCommerce (oferta exclusiva, por cantidad u oferta) y a qué precios."
      download="type"
      state={state}
      isEmpty={empty}
      window={windowText(data)}
      onRetry={retry}
    >
      <Paper variant="outlined">
        <ScrollTable label="Promociones por formato">
          <Table size="small" aria-label="Promociones por formato">
            <TableHead>
              <TableRow>
                <TableCell rowSpan={2}>eCommerce</TableCell>
                <TableCell rowSpan={2}>Clasificación</TableCell>
                {PROMOTION_KINDS.map((k) => (
                  <TableCell key={k} colSpan={2} align="center">
                    {priceTypeLabel(PROMOTION_KIND_PRICE_TYPE[k])}
                  </TableCell>
                ))}
              </TableRow>
              <TableRow>
                {PROMOTION_KINDS.map((k) => [
                  <TableCell key={`${k}-p`} align="right" sx={{ whiteSpace: 'nowrap' }}>
                    % días-producto <InfoTip text={TYPE_FORMULA} size={13} />
                  </TableCell>,
                  <TableCell key={`${k}-v`} align="right" sx={{ whiteSpace: 'nowrap' }}>
                    Precio prom. / normal
                  </TableCell>,
                ])}
              </TableRow>
            </TableHead>
            <TableBody>
              {(data?.items ?? []).flatMap((it, i) => {
                const color = seriesColor(it.seller.color, i);
                return it.classifications.map((c, ci) => (
                  <TableRow key={`${it.seller.id}:${c.id}`} data-testid="promo-type-row">
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {ci === 0 && <SellerName name={it.seller.name} color={color} />}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{c.name}</TableCell>
                    {PROMOTION_KINDS.map((k) => {
                      const f = c[k];
                      const name = priceTypeLabel(PROMOTION_KIND_PRICE_TYPE[k]);
                      return [
                        <TableCell key={`${k}-p`} align="right" sx={{ p: 0.5 }}>
                          <PctButton
                            value={f?.percentage ?? null}
                            color={color}
                            label={`${name}: ${formatNumber(f?.promoted ?? 0)} de ${formatNumber(c.published ?? 0)} días-producto, ${formatNumber(f?.count ?? 0)} promociones`}
                            onClick={() =>
                              drill.open({
                                promotion: 'type',
                                sellerId: it.seller.id,
                                sellerName: it.seller.name,
                                classification: c.id,
                                classificationName: c.name,
                                kind: k,
                                label: `${name}: ${formatPercent(f?.percentage)} de días-producto`,
                                cell: { promoted: f?.promoted ?? 0, published: c.published ?? 0 },
                              })
                            }
                          />
                        </TableCell>,
                        <TableCell
                          key={`${k}-v`}
                          align="right"
                          sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                        >
                          {f?.count ? (
                            <>
                              {formatPrice(f.prices.promotion, currency)}
                              <Box component="span" sx={{ color: 'text.secondary' }}>
                                {' '}
                                / {formatPrice(f.prices.normal, currency)}
                              </Box>
                            </>
                          ) : (
                            '—'
                          )}
                        </TableCell>,
                      ];
                    })}
                  </TableRow>
                ));
              })}
            </TableBody>
          </Table>
        </ScrollTable>
      </Paper>
      {drill.dialog}
    </PromotionsFrame>
  );
}

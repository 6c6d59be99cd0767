import { renderAliases } from '../../../src/skus/api/skus.view';

describe('renderAliases', () => {
  it('shows when an alias was confirmed at +08:00, from a stored Date or computed epoch ms, and null when never', () => {
    const at = Date.UTC(2026, 10, 22, 2, 0, 0);
    expect(
      renderAliases([
        { skuId: 'acme-supply:1', source: 'manual', confirmedAt: new Date(at) },
        { skuId: 'beta-supply:2', source: 'barcode', confirmedAt: at },
        { skuId: 'acme-machine:3', source: 'suggested', confirmedAt: null },
      ]),
    ).toEqual([
      { sku_id: 'acme-supply:1', source: 'manual', confirmed_at: '2026-11-22T10:00:00.000+08:00' },
      { sku_id: 'beta-supply:2', source: 'barcode', confirmed_at: '2026-11-22T10:00:00.000+08:00' },
      { sku_id: 'acme-machine:3', source: 'suggested', confirmed_at: null },
    ]);
  });
});

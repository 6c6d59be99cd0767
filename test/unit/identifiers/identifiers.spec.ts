import { DomainError } from '../../../src/common/errors/errors';
import { parseSkuId, requireLocationId, requireNamespace, requireRole, requireSkuId, slotId, slotVendorSku } from '../../../src/identifiers/identifiers';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as DomainError).code;
  }
  return 'none';
}

describe('identifiers', () => {
  it('parses sku ids; vendor_sku is opaque and compared as an exact string', () => {
    expect(parseSkuId('acme-supply:AB-12.x')).toMatchObject({ namespace: 'acme-supply', vendor: 'acme', role: 'supply', vendorSku: 'AB-12.x' });
    expect(parseSkuId('acme-supply:ab-12.x')!.skuId).not.toBe(parseSkuId('acme-supply:AB-12.x')!.skuId);
    expect(parseSkuId('acme-machine:1')!.skuId).not.toBe(parseSkuId('acme-supply:1')!.skuId);
    for (const bad of ['acme:1', 'acme-store:1', 'acme-supply:', 'acme-supply:a b', 'acme-supply:a:b', ':x', 'ACME-supply:1', 5, null]) {
      expect(parseSkuId(bad)).toBeNull();
    }
  });

  it('answers missing / invalid / namespace_mismatch with the spec codes', () => {
    expect(codeOf(() => requireSkuId(undefined, '$.id'))).toBe('missing');
    expect(codeOf(() => requireSkuId('nope', '$.id'))).toBe('invalid');
    expect(requireSkuId('a-machine:1', '$.id').role).toBe('machine');
    expect(codeOf(() => requireRole(requireSkuId('a-machine:1', '$.id'), 'supply', '$.id'))).toBe('namespace_mismatch');
    expect(codeOf(() => requireRole(requireSkuId('a-supply:1', '$.id'), 'machine', '$.id'))).toBe('namespace_mismatch');
    expect(codeOf(() => requireRole(requireSkuId('a-supply:1', '$.id'), 'supply', '$.id'))).toBe('none');
    expect(codeOf(() => requireNamespace('', '$.ns'))).toBe('missing');
    expect(codeOf(() => requireNamespace('acme', '$.ns'))).toBe('invalid');
    expect(requireNamespace('acme-machine', '$.ns').role).toBe('machine');
    expect(codeOf(() => requireLocationId('bad id', '$.l'))).toBe('invalid');
    expect(codeOf(() => requireLocationId('x'.repeat(65), '$.l'))).toBe('invalid');
    expect(requireLocationId('loc-1.A_b', '$.l')).toBe('loc-1.A_b');
  });

  it('builds slot ids as <location>-<vendor_sku> and splits them given the location', () => {
    const s = slotId('zj-lobby-1', 'SKU-1001');
    expect(s).toBe('zj-lobby-1-SKU-1001');
    expect(slotVendorSku(s, 'zj-lobby-1')).toBe('SKU-1001');
    expect(slotVendorSku(s, 'other')).toBeNull();
  });
});

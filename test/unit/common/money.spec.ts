import { cny, yuanText } from '../../../src/common/money';

describe('money', () => {
  it('shows an amount of fen as a CNY price', () => {
    expect(cny(350)).toEqual({ amount: 350, currency: 'CNY' });
    expect(Object.keys(cny(0))).toEqual(['amount', 'currency']);
  });

  it('writes yuan for people', () => {
    expect(yuanText(165740)).toBe('¥1,657.40');
    expect(yuanText(4)).toBe('¥0.04');
    expect(yuanText(-123456789)).toBe('-¥1,234,567.89');
  });
});

/** Money: amounts are integer fen (1/100 yuan), in one currency, CNY. Pure. */

/** An amount as the interface shows it (UCP's price object). */
export interface Price {
  amount: number;
  currency: 'CNY';
}

export const cny = (amount: number): Price => ({ amount, currency: 'CNY' });

/** Fen as a person reads it (events, approval texts): ¥1,657.40. */
export function yuanText(fen: number): string {
  const abs = Math.abs(Math.round(fen));
  return `${fen < 0 ? '-' : ''}¥${String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${String(abs % 100).padStart(2, '0')}`;
}

import { Errors } from '../common/errors/errors';
import { MachineAdapter, PriceChange } from '../partners/adapter.types';
import { partnerFailure } from '../partners/partner-failure';

/** The machine platform's POST /prices, its failure turned into the domain's (a refusal is `upstream_rejected`). */
export async function setPricesOnPlatform(adapter: MachineAdapter, locationId: string, prices: PriceChange[]) {
  try {
    return await adapter.setPrices(locationId, prices);
  } catch (err) {
    throw partnerFailure(err, {
      who: `the machine platform ${adapter.namespace}`,
      refused: (e) => Errors.upstreamRejected('the machine platform', 'the price change', e.reason),
    });
  }
}

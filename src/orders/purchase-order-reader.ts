import { UcpMessage } from '../common/envelope';

/**
 * Purchase orders (`kind=purchase`) are provided by PurchasesModule under this token.
 * The orders service reads sales itself and asks this reader for everything else.
 */
export abstract class PurchaseOrderReader {
  /** `base`: the absolute public base of `permalink_url` (publicBase). */
  abstract list(q: { cursor?: string; limit: number }, base: string): Promise<{
    orders: object[];
    pagination: { has_next_page: boolean; cursor?: string };
    messages: UcpMessage[];
  }>;
  abstract find(id: string, base: string): Promise<object | null>;
}

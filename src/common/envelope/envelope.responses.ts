/**
 * Response models of the UCP envelope and the shapes every capability shares. They exist for the OpenAPI document
 * (the Swagger plugin reads their types, `npm run openapi:write`); the service builds its answers with `ok()`.
 */
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ALL_ERROR_CODES } from '../errors/error-codes';
import { Fen } from './money-docs';
import { ALL_NOTE_CODES } from '../errors/message-codes';

/** A message to read before the data (spec "Envelope and messages"). */
export class UcpMessageView {
  /** `error` for the blocking severities, `warning` never blocks, `info` is a note. */
  type: 'error' | 'warning' | 'info';
  @ApiProperty({
    description:
      'Machine-readable code from a closed list: an error code (' +
      ALL_ERROR_CODES.map((c) => `\`${c}\``).join(', ') +
      ') or a code of a message that rides along with data (' +
      ALL_NOTE_CODES.map((c) => `\`${c}\``).join(', ') +
      '). A client should show an unknown code by its severity: the list may grow.',
  })
  code: string;
  /** `requires_buyer_review`: stop and show a person; `recoverable`: fix once; `unrecoverable`: report; `warning`: never blocks. */
  severity: 'requires_buyer_review' | 'recoverable' | 'unrecoverable' | 'warning' | 'info';
  /** JSONPath from the response (or request) root, e.g. `$.line_items[0].quantity`. */
  path: string;
  content: string;
  @ApiProperty({ enum: ['plain'] })
  content_type: 'plain';
}

export class CapabilityVersionView {
  version: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  config?: Record<string, unknown>;
}

export class PaymentHandlerView {
  id: string;
  version: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  config?: Record<string, unknown>;
}

/** A map from capability (or handler) name to its versions. */
const mapOf = (model: () => unknown, description: string) =>
  ApiPropertyOptional({
    type: 'object',
    description,
    additionalProperties: { type: 'array', items: { $ref: getSchemaPath(model() as never) } },
  });

export class UcpHeaderView {
  /** UCP version. */
  @ApiProperty({ enum: ['2026-08-25'] })
  version: string;
  status: 'success' | 'error';
  @mapOf(() => CapabilityVersionView, 'Capabilities this answer belongs to, by name.')
  capabilities?: Record<string, CapabilityVersionView[]>;
  @mapOf(() => PaymentHandlerView, 'Checkout sessions only: the payment handlers the session accepts.')
  payment_handlers?: Record<string, PaymentHandlerView[]>;
}

/** Fields of every answer: the envelope and `messages[]` (always present, empty when there is nothing to say). */
export class UcpEnvelope {
  ucp: UcpHeaderView;
  messages: UcpMessageView[];
}

/** What a view renders of a response: its body, without the envelope `ok()` adds (`ucp`, and `messages` unless the view has some). */
export type ResponseBody<R> = Omit<R, keyof UcpEnvelope>;

/**
 * Every failed request: `ucp.status` is `error` and `messages[]` says why (codes per operation below). Some errors also
 * carry the resource as it is (a checkout session refused by the kill switch comes back unchanged beside the message).
 */
export class ErrorEnvelope extends UcpEnvelope {}

/** Integer fen (1/100 yuan) in CNY. */
export class PriceView {
  @Fen()
  amount: number;
  @ApiProperty({ enum: ['CNY'] })
  currency: 'CNY';
}

export class ItemRefView {
  /** A sku_id, `<vendor>-<role>:<vendor_sku>`. */
  id: string;
}

/** One entry of `totals[]` (UCP): exactly one `subtotal` and one `total`; the others add up to `total`. */
export class TotalView {
  type: 'subtotal' | 'items_discount' | 'discount' | 'fulfillment' | 'tax' | 'fee' | 'total';
  @Fen({ description: 'Money back to the buyer is negative.' })
  amount: number;
  display_text?: string;
}

export class PaginationView {
  has_next_page: boolean;
  /** Opaque; pass it back to read the next page. Present only when there is a next page. */
  cursor?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  total_count?: number;
}

export class BarcodeView {
  /** e.g. `ean13`. */
  type: string;
  value: string;
}

/**
 * Helpers for the OpenAPI document: property types the Swagger plugin cannot infer from TypeScript (integers,
 * date-times, single-value enums), operation docs and the error responses of each operation (spec "Errors").
 */
import { applyDecorators, Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptions,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { ErrorEnvelope } from './envelope.responses';

/** An integer (every amount, quantity, count and limit of the interface is one). */
export const Int = (o: ApiPropertyOptions = {}) => ApiProperty({ type: 'integer', ...o } as ApiPropertyOptions);
/** An RFC 3339 time; responses render it with the +08:00 offset and milliseconds. */
export const DateTime = (o: ApiPropertyOptions = {}) => ApiProperty({ type: String, format: 'date-time', ...o } as ApiPropertyOptions);
/** A free JSON object. */
export const FreeObject = (o: ApiPropertyOptions = {}) => ApiProperty({ type: 'object', additionalProperties: true, ...o } as ApiPropertyOptions);
/** A string with one allowed value (the plugin types a single literal as a plain string). */
export const Const = (value: string, o: ApiPropertyOptions = {}) => ApiProperty({ type: String, enum: [value], ...o } as ApiPropertyOptions);

/** Why each status is answered; the codes an operation lists are added to these. */
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad input. Fix the value named by `messages[].path` and send again (`recoverable`).',
  401: '`unauthorized`: missing or wrong operator token (`Authorization: Bearer …` or the auth cookie).',
  403: 'Refused for this caller (`forbidden`): the auth cookie from a page origin that is not allowed, or a change only the approver credential may make.',
  404: '`not_found`: no such resource.',
  409: 'Conflict with the current state of the resource. An attempt still in progress (`idempotency_key_in_use`, `complete_in_progress`, `restock_in_progress`, `already_placed` while the run is being placed) carries `Retry-After` (seconds): the retry with the same Idempotency-Key and body then answers the final outcome.',
  429: '`rate_limited`: too many requests for this credential (or, without one, this client address); wait the `Retry-After` seconds.',
  502: 'A partner (machine platform or supplier) failed; never shown as an empty list.',
  503: 'Refused before anything was written or called: the service cannot check what it must (`auth_not_configured`: no operator token is configured, it fails closed).',
};

export type ErrorCodes = Partial<Record<400 | 401 | 403 | 404 | 409 | 429 | 502 | 503, string[]>>;

/**
 * The error responses of an operation, each with the error envelope. Every authenticated operation also answers
 * 401 `unauthorized` and 503 `auth_not_configured`; `authenticated: false` leaves them out (discovery and health).
 */
export function ApiErrors(codes: ErrorCodes, opts: { authenticated?: boolean } = {}) {
  const all: ErrorCodes = { ...codes };
  // The edge refuses an oversized request line, query or body on every operation, before its own rules run, and a
  // query key the operation does not take (or a repeated one) as `invalid` (issue 17).
  all[400] = [...(all[400] ?? []), 'invalid', 'request_too_large'];
  // Every operation is rate limited (per credential, or per client address without one) when the limit is on.
  all[429] = ['rate_limited'];
  if (opts.authenticated !== false) {
    all[401] = ['unauthorized', ...(all[401] ?? [])];
    all[403] = [...(all[403] ?? []), 'forbidden'];
    all[503] = ['auth_not_configured', ...(all[503] ?? [])];
  }
  const decorators = Object.entries(all).map(([status, list]) => {
    const unique = [...new Set(list)];
    const named = unique.map((c) => `\`${c}\``).join(', ');
    const onlyAuth = Number(status) === 401 || Number(status) === 429 || (Number(status) === 503 && unique.length === 1 && unique[0] === 'auth_not_configured');
    const text = onlyAuth ? STATUS_TEXT[Number(status)] : `${STATUS_TEXT[Number(status)]} Codes: ${named}.`;
    return ApiResponse({
      status: Number(status),
      description: text,
      content: {
        'application/json': {
          schema: { $ref: getSchemaPath(ErrorEnvelope) },
          example: {
            ucp: { version: '2026-08-25', status: 'error' },
            messages: [{ type: 'error', code: unique[0], severity: 'recoverable', path: '$', content: 'why it was refused', content_type: 'plain' }],
          },
        },
      },
    });
  });
  return applyDecorators(ApiExtraModels(ErrorEnvelope), ...decorators);
}

export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  /** Headers the spec names on this operation (always optional). */
  headers?: ('Idempotency-Key' | 'UCP-Agent')[];
}

const HEADER_TEXT: Record<string, string> = {
  'Idempotency-Key':
    'Optional. The same key with the same body replays the first answer (header `Idempotent-Replayed: true`); the same key with another body is 409 `idempotency_key_mismatch`, and while the first request still runs 409 `idempotency_key_in_use`. Keys are kept at least 24 hours.',
  'UCP-Agent': 'Optional. An RFC 8941 dictionary naming the calling platform\'s profile, e.g. `profile="https://agent.example/profile"`. Recorded, not verified; a malformed value only adds a `warning`.',
};

const HEADER_SCHEMA: Record<string, { type: 'string'; minLength?: number; maxLength?: number; pattern?: string }> = {
  'Idempotency-Key': { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
  'UCP-Agent': { type: 'string' },
};

/** operationId, summary, description and the optional headers of one operation. */
export function ApiOp(doc: OperationDoc) {
  return applyDecorators(
    ApiOperation({ operationId: doc.operationId, summary: doc.summary, description: doc.description }),
    ...(doc.headers ?? []).map((name) => ApiHeader({ name, required: false, description: HEADER_TEXT[name], schema: HEADER_SCHEMA[name] })),
  );
}



export interface EndpointDoc extends OperationDoc {
  /** The success status (default 200) and its model. */
  status?: 200 | 201;
  type: Type<unknown>;
  /** What the success answer is, for the response description. */
  returns: string;
  errors: ErrorCodes;
  /** Discovery and health: no token, so no 401/503 `auth_not_configured`. */
  public?: boolean;
}

/** Everything the document says about one operation: ids, texts, headers, the success model and the errors. */
export function ApiEndpoint(doc: EndpointDoc) {
  return applyDecorators(
    ApiOp(doc),
    ApiResponse({ status: doc.status ?? 200, description: doc.returns, type: doc.type }),
    ApiErrors(doc.errors, { authenticated: !doc.public }),
  );
}

/**
 * Documents a request property the Swagger plugin cannot read from the DTO (a bound held in a constant, an integer, a
 * format, an enum), without touching the DTO class: the DTO keeps its class-validator rules, this only describes them.
 */
export function describeProperty(model: Type<unknown>, property: string, options: ApiPropertyOptions): void {
  ApiProperty(options)(model.prototype as object, property);
}

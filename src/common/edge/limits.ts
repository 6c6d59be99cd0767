/**
 * Limits of values accepted at the edge (docs/adr/0003-input-checks-at-the-edge.md). One place, so the DTO decorators, the global
 * edge check and the documentation agree. Every refusal is 400 `invalid` (or `missing`) naming the JSONPath.
 */

/** Longest string anywhere in a JSON body (the longest field, an event's `reasoning`, is this long). */
export const MAX_BODY_STRING_CHARS = 20_000;
/** Longest object key in a JSON body. */
export const MAX_BODY_KEY_CHARS = 200;
/** Deepest nesting of a JSON body (the deepest DTO is 4 levels; free-form objects get some room). */
export const MAX_BODY_DEPTH = 16;
/** Longest path segment (ids: sku ids are at most 300 characters). */
export const MAX_PATH_SEGMENT_CHARS = 300;
/** Longest query value (cursors are at most 1000 characters). */
export const MAX_QUERY_VALUE_CHARS = 1_000;

/** Largest quantity on a checkout line, a restock line or a delivered line (units or boxes). */
export const MAX_QUANTITY = 100_000;
/** Largest price of one item, in fen (100,000 CNY). */
export const MAX_PRICE_FEN = 10_000_000;

/** Dates accepted in requests: 1970-01-01T00:00:00Z to 2999-12-31T23:59:59.999Z. */
export const MIN_DATE_MS = 0;
export const MAX_DATE_MS = Date.UTC(2999, 11, 31, 23, 59, 59, 999);

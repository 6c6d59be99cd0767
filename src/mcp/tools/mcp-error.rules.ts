/**
 * What a JSON-RPC error of the MCP endpoint may say (issue 26): never an internal message (a stack overflow, the
 * schema library's raw issue list, an exception's text). A request the SDK's schema refused becomes -32602 with one
 * clear `invalid` naming the path of the argument; any other internal error becomes a bare -32603. Pure.
 */
import { errorBody, message } from '../../common/envelope/envelope';

interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** A short lead the SDK puts before the issue list (v2: `Invalid tools/call request: [`), up to the list. */
const ISSUE_LIST_LEAD = /^[^[\n]{0,80}?: (?=\[)/;

/** The issue list a schema-library error serialises to (`[{code, path, expected, …}]`, alone or after a lead), or null. */
function schemaIssues(text: string): { code?: unknown; path?: unknown; expected?: unknown }[] | null {
  const list = text.trimStart().replace(ISSUE_LIST_LEAD, '');
  if (!list.startsWith('[')) return null;
  try {
    const parsed: unknown = JSON.parse(list);
    return Array.isArray(parsed) && parsed.every((i) => i !== null && typeof i === 'object') ? (parsed as { code?: unknown; path?: unknown; expected?: unknown }[]) : null;
  } catch {
    return null;
  }
}

function jsonPath(path: unknown): string {
  if (!Array.isArray(path)) return '$';
  return path.reduce<string>((p, k) => (typeof k === 'number' ? `${p}[${k}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(k)) ? `${p}.${String(k)}` : `${p}[${JSON.stringify(String(k))}]`), '$');
}

const EXPECTED_WORDS: Record<string, string> = { record: 'an object', object: 'an object', string: 'a string', number: 'a number', boolean: 'a boolean', array: 'an array' };

/** The error as the client sees it: ours (known codes with our own texts) pass; internal ones are replaced. */
export function publicJsonRpcError(error: JsonRpcError): JsonRpcError {
  const issues = schemaIssues(error.message);
  if (issues && issues.length) {
    const first = issues[0];
    const path = jsonPath(first.path);
    const expected = typeof first.expected === 'string' ? EXPECTED_WORDS[first.expected] : undefined;
    const text = `invalid ${path}${expected ? `: expected ${expected}` : ''}`;
    return { code: INVALID_PARAMS, message: text, data: errorBody([message('invalid', 'recoverable', text, path)]) };
  }
  if (error.code === INTERNAL_ERROR) return { code: INTERNAL_ERROR, message: 'internal error', data: errorBody([message('internal_error', 'unrecoverable', 'the request could not be handled')]) };
  return error;
}

/** Applies `publicJsonRpcError` to an outgoing JSON-RPC message (one, or each of a batch). */
export function publicJsonRpcMessage<T>(msg: T): T {
  if (Array.isArray(msg)) return msg.map((m: unknown) => publicJsonRpcMessage(m)) as T;
  if (msg === null || typeof msg !== 'object' || !('error' in msg)) return msg;
  const e = (msg as { error?: unknown }).error;
  if (e === null || typeof e !== 'object' || typeof (e as JsonRpcError).message !== 'string') return msg;
  return { ...msg, error: publicJsonRpcError(e as JsonRpcError) };
}

import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { markInProcess } from '../../common/in-process';

export interface InProcessRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  remoteAddress: string;
}

export interface InProcessAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Runs one request through an HTTP request handler (the Express app) in process: a real IncomingMessage and
 * ServerResponse on an unconnected socket, the answer collected instead of written. Every middleware, guard, pipe
 * and filter runs as for a request from the network. (light-my-request does the same, but its ESM-only
 * dependency cannot load in the CommonJS test runner.)
 */
export function injectRequest(handler: Handler, r: InProcessRequest): Promise<InProcessAnswer> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    Object.defineProperty(socket, 'remoteAddress', { value: r.remoteAddress });
    const req = new IncomingMessage(socket);
    markInProcess(req);
    req.method = r.method;
    req.url = r.url;
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = '1.1';
    const body = r.payload === undefined ? null : Buffer.from(r.payload, 'utf8');
    req.headers = { ...r.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    req.rawHeaders = Object.entries(req.headers).flatMap(([k, v]) => [k, String(v)]);
    if (body) req.push(body);
    req.push(null);

    const res = new ServerResponse(req);
    const chunks: Buffer[] = [];
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
    };
    res.write = ((chunk: unknown, encoding?: unknown, cb?: () => void) => {
      if (!res.headersSent) res.writeHead(res.statusCode);
      collect(chunk, encoding);
      (typeof encoding === 'function' ? (encoding as () => void) : cb)?.();
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown, encoding?: unknown, cb?: () => void) => {
      if (!res.headersSent) res.writeHead(res.statusCode);
      collect(chunk, encoding);
      const headers = res.getHeaders() as InProcessAnswer['headers'];
      resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') });
      res.emit('finish');
      res.emit('close');
      (typeof chunk === 'function' ? (chunk as () => void) : typeof encoding === 'function' ? (encoding as () => void) : cb)?.();
      return res;
    }) as typeof res.end;
    try {
      handler(req, res);
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}

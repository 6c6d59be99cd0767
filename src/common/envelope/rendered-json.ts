import type { Express, Response } from 'express';
import { UcpHeader, UcpMessage, capabilitiesOf, UCP_VERSION } from './envelope';

/**
 * Pre-rendered JSON for large hot read answers (issue 13): pages are rendered straight to text (no view objects, no
 * second serialisation) and sent in one write without an ETag. `messages` stays a live array until the
 * answer is sent, so middleware that adds a message (UCP-Agent) keeps working.
 */

/**
 * A JSON value already rendered as text; `toJSON` keeps ordinary serialisation correct wherever it is used. `T` names
 * what the text holds (the view that rendered it declares it), for the reader only: nothing checks the text.
 */
export class JsonText<T = unknown> {
  declare readonly of?: T;
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** A success envelope whose body fields may be JsonText; `messages` is rendered last, at send time. */
export class RenderedJson {
  constructor(
    private readonly head: string,
    readonly messages: UcpMessage[],
  ) {}

  text(): string {
    return `${this.head},"messages":${this.messages.length ? JSON.stringify(this.messages) : '[]'}}`;
  }

  toJSON(): unknown {
    return JSON.parse(this.text());
  }
}

const headerCache = new Map<string, string>();

/** The same bytes as `JSON.stringify(ok(body, { capabilities }))`, with JsonText fields inlined as they are. */
export function okRendered(body: object, opts: { capabilities: string[] }): RenderedJson {
  const key = opts.capabilities.join(',');
  let head = headerCache.get(key);
  if (head === undefined) {
    const ucp: UcpHeader = { version: UCP_VERSION, status: 'success', capabilities: capabilitiesOf(opts.capabilities) };
    head = `{"ucp":${JSON.stringify(ucp)}`;
    headerCache.set(key, head);
  }
  let messages: UcpMessage[] = [];
  for (const k in body) {
    const v = (body as Record<string, unknown>)[k];
    if (k === 'messages') {
      messages = [...(v as UcpMessage[])];
      continue;
    }
    if (v === undefined) continue;
    head += `,${JSON.stringify(k)}:${v instanceof JsonText ? v.text : JSON.stringify(v)}`;
  }
  return new RenderedJson(head, messages);
}

/**
 * Teaches this application's responses to send RenderedJson: one `end` with the whole text (header and body in one
 * write). Installed on the app's own response prototype, so other Express apps in the process are untouched.
 */
export function installRenderedJson(app: Express): void {
  const proto = app.response as Response & { json: (body: unknown) => Response };
  const original = proto.json;
  proto.json = function json(this: Response, body: unknown): Response {
    if (!(body instanceof RenderedJson)) return original.call(this, body);
    const text = body.text();
    // No ETag: these are list pages that change with every new record, and hashing 70 KB per request cost more
    // than any revalidation saves. A string `end` lets Node write the header and the body together.
    this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.setHeader('Content-Length', Buffer.byteLength(text));
    if (this.req.method === 'HEAD') this.end();
    else this.end(text);
    return this;
  };
}

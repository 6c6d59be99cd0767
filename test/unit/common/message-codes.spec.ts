import type { OpenAPIObject } from '@nestjs/swagger';
import { ALL_ERROR_CODES } from '../../../src/common/errors/error-codes';
import { ALL_NOTE_CODES, isMessageCode, NOTE_CODES } from '../../../src/common/errors/message-codes';
import { OpenApiValidator } from '../../support/openapi-validator';

/** The closed list of codes of messages that ride along with data, beside the error codes. */
describe('message codes', () => {
  it('a note code is not also an error code, and each says what it means', () => {
    expect(ALL_NOTE_CODES.filter((c) => (ALL_ERROR_CODES as string[]).includes(c))).toEqual([]);
    for (const c of ALL_NOTE_CODES) expect([c, NOTE_CODES[c].length > 20]).toEqual([c, true]);
  });

  it('knows both lists and nothing else', () => {
    expect(isMessageCode('stale_data')).toBe(true);
    expect(isMessageCode('kill_switch_engaged')).toBe(true);
    expect(isMessageCode('constructor')).toBe(false);
    expect(isMessageCode('stale')).toBe(false);
  });

  it('the answer check refuses a message code outside the lists, in a success answer too', () => {
    const doc = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: { '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/X' } } } } } } } },
      components: { schemas: { X: { type: 'object', properties: { messages: { type: 'array', items: { type: 'object' } } } } } },
    } as unknown as OpenAPIObject;
    const v = new OpenApiValidator(doc);
    const msg = (code: string) => ({ type: 'warning', code, severity: 'warning', path: '$', content: 'c', content_type: 'plain' });
    expect(v.problems('GET', '/x', { status: 200, body: { messages: [msg('stale_data')] } })).toEqual([]);
    expect(v.problems('GET', '/x', { status: 200, body: { messages: [msg('stale')] } })).toEqual([
      expect.stringContaining('answered the message code(s) stale'),
    ]);
  });
});

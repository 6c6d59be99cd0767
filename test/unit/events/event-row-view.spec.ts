import fc from 'fast-check';
import { toPlus8 } from '../../../src/common/time';
import { EventEntity } from '../../../src/events/event.entity';
import { renderEventRow, renderEvent } from '../../../src/events/api/event.view';

/** GET /events renders list rows without entities (issue 13): the same bytes as JSON.stringify(renderEvent(entity)). */
describe('renderEventRow', () => {
  it('matches JSON.stringify(renderEvent(...)) for any event', () => {
    const text = fc.string({ unit: 'binary', maxLength: 20 });
    fc.assert(
      fc.property(
        fc.record({
          id: fc.uuid(),
          occurredAt: fc.date({ min: new Date(0), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }),
          kind: text,
          source: fc.constantFrom('service' as const, 'client' as const),
          summary: text,
          reasoning: text,
          location: fc.option(text, { nil: null }),
          data: fc.option(fc.dictionary(text, fc.jsonValue()), { nil: null }),
        }),
        (e) => {
          const entity = Object.assign(new EventEntity(), { ...e, seq: '1' });
          const row = { id: e.id, occurred_at: e.occurredAt, kind: e.kind, source: e.source, summary: e.summary, reasoning: e.reasoning, location: e.location, data: e.data };
          expect(JSON.stringify(renderEventRow(row, toPlus8))).toBe(JSON.stringify(renderEvent(entity)));
        },
      ),
      { numRuns: 500 },
    );
  });
});

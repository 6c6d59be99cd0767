import { ValidationError } from 'class-validator';
import { flattenValidationErrors } from '../../../src/common/edge/validation';
import { validationSentence } from '../../../src/common/edge/validation-sentences.rules';

describe('validation sentences written by the service (issue 29)', () => {
  it('rewrites the library defaults it knows, keeps a DTO\'s own text', () => {
    expect(validationSentence('quantity', { min: 'quantity must not be less than 1' })).toBe('quantity must be at least 1.');
    expect(validationSentence('quantity', { isInt: 'quantity must be an integer number', min: 'quantity must not be less than 0' })).toBe('quantity must be a whole number (a JSON integer) and must be at least 0.');
    expect(validationSentence('prices', { arrayMinSize: 'prices must contain at least 1 elements' })).toBe('prices must hold at least 1 entry.');
    expect(validationSentence('currency', { isIn: 'currency must be one of the following values: CNY' })).toBe('currency must be one of: CNY.');
    expect(validationSentence('id', { matches: 'a location id is 1 to 64 letters' })).toBe('a location id is 1 to 64 letters.');
  });

  it('flattens nested failures with JSONPaths and names the field, never the library', () => {
    const child = Object.assign(new ValidationError(), { property: 'quantity', constraints: { min: 'quantity must not be less than 1' }, children: [] });
    const line = Object.assign(new ValidationError(), { property: '0', children: [child] });
    const lines = Object.assign(new ValidationError(), { property: 'line_items', children: [line] });
    const unknown = Object.assign(new ValidationError(), { property: 'colour', constraints: { whitelistValidation: 'property colour should not exist' }, children: [] });
    const msgs = flattenValidationErrors([lines, unknown]);
    expect(msgs).toEqual([
      expect.objectContaining({ code: 'invalid', path: '$.line_items[0].quantity', content: 'quantity must be at least 1.' }),
      expect.objectContaining({ code: 'invalid', path: '$.colour', content: 'colour is not a field this operation takes.' }),
    ]);
    for (const m of msgs) expect(m.content).not.toMatch(/must not be less than|should not exist/);
  });
});

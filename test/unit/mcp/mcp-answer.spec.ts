import { errorBody, message, warning } from '../../../src/common/envelope/envelope';
import { AWAITING_META } from '../../../src/mcp/tools/mcp-answer.rules';
import { awaitedApprovals, inToolTerms, toolPathOf } from '../../../src/mcp/tools/mcp-answer.rules';

const checkout = { pathParams: ['id'], queryParams: [], payload: 'checkout', bodyFields: ['line_items', 'fulfillment', 'confirm'] };
const orders = { pathParams: [], queryParams: ['kind', 'cursor'], payload: null, bodyFields: [] };
const APR = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('REST answers in the tool\'s terms (issue 29)', () => {
  it('paths name tool arguments: headers are meta, body fields are under the payload argument, parameters keep their names', () => {
    expect(toolPathOf(checkout, '$.headers.Idempotency-Key')).toBe('$.meta["idempotency-key"]');
    expect(toolPathOf(checkout, '$.headers.UCP-Agent')).toBe('$.meta["ucp-agent"]');
    expect(toolPathOf(checkout, '$.line_items[0].quantity')).toBe('$.checkout.line_items[0].quantity');
    expect(toolPathOf(checkout, '$.fulfillment')).toBe('$.checkout.fulfillment');
    expect(toolPathOf(checkout, '$.id')).toBe('$.id');
    expect(toolPathOf(checkout, '$')).toBe('$');
    expect(toolPathOf(orders, '$.cursor')).toBe('$.cursor');
    expect(toolPathOf(orders, '$.unknown')).toBe('$.unknown');
  });

  it('rewrites error paths only (warnings describe the answer), and names the approval an answer waits on', () => {
    const body = {
      ...errorBody([
        message('invalid', 'recoverable', 'quantity must be at least 1.', '$.line_items[0].quantity'),
        message('approval_required', 'requires_buyer_review', `over budget: owner approval ${APR} is pending`, '$'),
        warning('stale_data', 'old', '$.line_items'),
      ]),
      id: 'S-1',
    };
    const { body: out, awaiting } = inToolTerms(checkout, body) as { body: typeof body; awaiting: unknown[] };
    expect(out.id).toBe('S-1');
    expect(out.messages.map((m) => m.path)).toEqual(['$.checkout.line_items[0].quantity', '$', '$.line_items']);
    expect(out.messages[1].content).toContain(`get_approval, id ${APR}`);
    expect(awaiting).toEqual([{ approval_id: APR, tool: 'get_approval', arguments: { id: APR } }]);
    expect(AWAITING_META).toBe('com.example.svc/awaiting');
  });

  it('finds each approval once, only in approval_required messages', () => {
    const m = [message('approval_required', 'requires_buyer_review', `approval ${APR} and approval ${APR}`), message('invalid', 'recoverable', `approval ${APR.replace('0f', '1f')}`)];
    expect(awaitedApprovals(m).map((a) => a.approval_id)).toEqual([APR]);
  });
});

import { withdrawRefusal } from '../../../src/approvals/approval.rules';

describe('who may withdraw a pending request', () => {
  it('the credential that asked, or the approver', () => {
    expect(withdrawRefusal({ credential: 'operator' }, { credential: 'operator' })).toBeNull();
    expect(withdrawRefusal({ credential: 'approver' }, { credential: 'approver' })).toBeNull();
    expect(withdrawRefusal({ credential: 'operator' }, { credential: 'approver' })).toBeNull();
  });

  it('never another credential', () => {
    expect(withdrawRefusal({ credential: 'approver' }, { credential: 'operator' })).toMatch(/only the credential that asked/);
    expect(withdrawRefusal({ credential: 'operator' }, { credential: 'chat' })).toMatch(/only the credential that asked/);
  });

  it('a request recorded before requesters were kept: any token holder', () => {
    expect(withdrawRefusal(null, { credential: 'operator' })).toBeNull();
    expect(withdrawRefusal({}, { credential: 'chat' })).toBeNull();
  });
});

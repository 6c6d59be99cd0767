import { QueryFailedError } from 'typeorm';
import { DomainError } from '../../../src/common/errors/errors';
import { Tx } from '../../../src/database/tx';
import type { MoneyClaims } from '../../../src/claims/money-claims.service';
import type { IdempotencyKeysRepository } from '../../../src/idempotency/idempotency-keys.repository';
import { IdempotencyService } from '../../../src/idempotency/idempotency.service';
import { fingerprint } from '../../../src/idempotency/idempotency.rules';

/** Issue 38: what the idempotency store does when the database connection dies under a keyed request. */
const lost = (query: string) => new QueryFailedError(query, [], Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
const scope = { operation: 'op', resourceId: 'r1', rawBody: '{}' };

function fakeKeys(over: Partial<Record<keyof IdempotencyKeysRepository, jest.Mock>> = {}) {
  const keys = {
    dropIfExpired: jest.fn(async () => undefined),
    claim: jest.fn(async () => true),
    takeOverStale: jest.fn(async () => null),
    find: jest.fn(async () => undefined),
    findLive: jest.fn(async () => undefined),
    storeOutcome: jest.fn(async () => undefined),
    release: jest.fn(async () => undefined),
    leaveResumable: jest.fn(async () => undefined),
    insertAnswer: jest.fn(async () => true),
    answerWrite: jest.fn(),
    ...over,
  };
  return keys;
}
const claims = { leaseMs: 120_000, retryAfter: () => 7 } as unknown as MoneyClaims;

/** A Tx whose transaction fails the way `fail` says (nestjs-cls faked: the real Tx.run decides what it marks). */
function txFailingWith(fail: () => Error): Tx {
  const host = { withTransaction: (fn: () => Promise<unknown>) => fn().then(() => Promise.reject(fail())), isTransactionActive: () => false };
  const cls = { run: (_: unknown, fn: () => unknown) => fn(), set: () => undefined, get: () => undefined, isActive: () => false };
  return new Tx(host as never, cls as never);
}

describe('keyed requests whose database connection died (issue 38)', () => {
  it('a replyOnce operation cut in flight answers 503 not_ready and keeps its key claimed (never released)', async () => {
    const keys = fakeKeys();
    const store = new IdempotencyService(keys as unknown as IdempotencyKeysRepository, claims);
    const err = await store.run('k1', scope, async () => Promise.reject(lost('UPDATE runs SET status = $1'))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('not_ready');
    expect((err as DomainError).retryAfterSeconds).toBe(7);
    expect(keys.release).not.toHaveBeenCalled();
    expect(keys.storeOutcome).not.toHaveBeenCalled();
  });

  it('a claim whose INSERT lost its connection is withdrawn by its claim id: 503 idempotency_unavailable with Retry-After', async () => {
    const keys = fakeKeys({ claim: jest.fn(async () => Promise.reject(lost('INSERT INTO idempotency_keys ...'))) });
    const store = new IdempotencyService(keys as unknown as IdempotencyKeysRepository, claims);
    const err = (await store.run('k2', scope, async () => ({ status: 200, body: {} })).catch((e: unknown) => e)) as DomainError;
    expect(err.code).toBe('idempotency_unavailable');
    expect(err.retryAfterSeconds).toBe(1);
    expect(keys.release).toHaveBeenCalledWith('k2', expect.any(String));
  });

  it('a one-transaction create cut before COMMIT (rolled back) runs once more and answers its outcome', async () => {
    const keys = fakeKeys();
    const store = new IdempotencyService(keys as unknown as IdempotencyKeysRepository, claims);
    const tx = txFailingWith(() => lost('INSERT INTO "checkout_sessions" ...'));
    let runs = 0;
    const out = await store.runInOneTransaction('k3', scope, async (answer) => {
      if (++runs === 1) await tx.run(async () => undefined);
      await answer.store(201, () => ({ id: 's1' }));
      return { status: 201, body: { id: 's1' } };
    });
    expect(runs).toBe(2);
    expect(out).toEqual({ status: 201, body: { id: 's1' }, replayed: false });
    expect(keys.findLive).toHaveBeenCalledTimes(1);
  });

  it('an ambiguous COMMIT is never run again: the key is read, and without a committed answer the loss is answered', async () => {
    const keys = fakeKeys();
    const store = new IdempotencyService(keys as unknown as IdempotencyKeysRepository, claims);
    const tx = txFailingWith(() => lost('COMMIT'));
    let runs = 0;
    const err = await store
      .runInOneTransaction('k4', scope, async () => {
        runs++;
        await tx.run(async () => undefined);
        return { status: 201, body: {} };
      })
      .catch((e: unknown) => e);
    expect(runs).toBe(1);
    expect(err).toBeInstanceOf(QueryFailedError);
    expect(keys.findLive).toHaveBeenCalledTimes(1);
    // A commit that did land answers its stored outcome.
    keys.findLive.mockResolvedValueOnce({ fingerprint: fingerprint('op', 'r1', '{}'), state: 'done', response_status: 201, response_body: { id: 's9' } } as never);
    const replay = await store.runInOneTransaction('k4', scope, async () => {
      await tx.run(async () => undefined);
      return { status: 201, body: {} };
    });
    expect(replay).toEqual({ status: 201, body: { id: 's9' }, replayed: true });
  });
});

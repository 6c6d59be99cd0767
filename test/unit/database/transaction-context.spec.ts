import { DynamicModule, Provider } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ClsModule } from 'nestjs-cls';
import { transactionContextModule } from '../../../src/database/transaction-context.module';

function providersOf(m: DynamicModule): Provider[] {
  return [...(m.providers ?? []), ...(m.imports ?? []).flatMap((i) => providersOf(i as DynamicModule))];
}
const tokenOf = (p: Provider) => (typeof p === 'function' ? p : p.provide);

describe('transaction context module', () => {
  it('mounts no guard or interceptor on requests (contexts are opened by Tx.run only)', () => {
    const tokens = providersOf(transactionContextModule()).map(tokenOf);
    expect(tokens).not.toContain(APP_GUARD);
    expect(tokens).not.toContain(APP_INTERCEPTOR);
  });

  it('keeps everything else nestjs-cls registers (options, plugins); not global itself (the database module exports it)', () => {
    const m = transactionContextModule();
    const plain = ClsModule.forRoot({});
    expect(m.global).toBeFalsy();
    const kept = providersOf(m).map(tokenOf);
    const removed = providersOf(plain).map(tokenOf).filter((t) => t === APP_GUARD || t === APP_INTERCEPTOR);
    expect(removed).toHaveLength(2);
    expect(kept.length).toBeGreaterThan(0);
    for (const t of providersOf(plain).map(tokenOf).filter((x) => x !== APP_GUARD && x !== APP_INTERCEPTOR)) expect(kept).toContain(t);
  });
});

import { DynamicModule, Provider } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken } from '@nestjs/typeorm';
import { ClsPluginTransactional } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { ClsModule } from 'nestjs-cls';

/**
 * The async context that carries transactions (nestjs-cls with its transactional plugin). Contexts are opened by
 * `Tx.run` only, never per request, so nothing is mounted on requests. nestjs-cls still registers a global guard
 * and a global interceptor that do nothing when not mounted; a global interceptor puts every request of the
 * application through Nest's RxJS interceptor chain (issue 13: 4–5% of the CPU of a list read), so they are left out.
 */
export function transactionContextModule(): DynamicModule {
  // Not global itself: the database module, which is, exports it (ClsService for the guards' per-run state).
  const cls = ClsModule.forRoot({
    plugins: [new ClsPluginTransactional({ adapter: new TransactionalAdapterTypeOrm({ dataSourceToken: getDataSourceToken() }) })],
  });
  return { ...cls, imports: (cls.imports ?? []).map((m) => withoutRequestEnhancers(m as DynamicModule)) };
}

function withoutRequestEnhancers(m: DynamicModule): DynamicModule {
  if (!m.providers) return m;
  return { ...m, providers: m.providers.filter((p) => !isRequestEnhancer(p)) };
}

function isRequestEnhancer(p: Provider): boolean {
  return typeof p === 'object' && 'provide' in p && (p.provide === APP_GUARD || p.provide === APP_INTERCEPTOR);
}

import { stagingLoopSuite } from './staging-loop.suite';

jest.setTimeout(180_000);

/**
 * Issue 25 item 5 (staging-loop.suite.ts) on PostgreSQL; the embedded database is staging-loop-embedded.e2e-spec.ts,
 * and the service clock outside a staging replay is staging-loop-clock.e2e-spec.ts.
 */
stagingLoopSuite('postgres');

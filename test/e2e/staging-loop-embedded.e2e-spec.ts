import { stagingLoopSuite } from './staging-loop.suite';

jest.setTimeout(180_000);

/**
 * Issue 25 item 5 (staging-loop.suite.ts) on the embedded database; PostgreSQL is staging-loop.e2e-spec.ts, and the
 * service clock outside a staging replay is staging-loop-clock.e2e-spec.ts.
 */
stagingLoopSuite('embedded');

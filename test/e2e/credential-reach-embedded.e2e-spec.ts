import { credentialReachSuite } from './credential-reach.suite';

/** Issue 37 item 5 (credential-reach.suite.ts) on the embedded database; PostgreSQL is credential-reach.e2e-spec.ts. */
credentialReachSuite('embedded');

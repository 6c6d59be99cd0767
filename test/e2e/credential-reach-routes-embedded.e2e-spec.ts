import { credentialReachRoutes } from './credential-reach.suite';

/** Issue 37 item 5 (credential-reach.suite.ts), every route on the embedded database; PostgreSQL is credential-reach-routes.e2e-spec.ts. */
credentialReachRoutes('embedded');

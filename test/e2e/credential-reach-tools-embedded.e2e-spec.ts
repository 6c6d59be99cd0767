import { credentialReachTools } from './credential-reach.suite';

/** Issue 37 item 5 (credential-reach.suite.ts), every MCP tool on the embedded database; PostgreSQL is credential-reach-tools.e2e-spec.ts. */
credentialReachTools('embedded');

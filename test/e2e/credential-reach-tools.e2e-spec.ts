import { credentialReachTools } from './credential-reach.suite';

/** Issue 37 item 5 (credential-reach.suite.ts), every MCP tool on PostgreSQL; the embedded database is credential-reach-tools-embedded.e2e-spec.ts. */
credentialReachTools('postgres');

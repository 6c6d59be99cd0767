// The V8 flags the service runs with in production (Dockerfile CMD, `npm run start:prod`), staging (`npm start`) and
// the benchmarks. A larger young generation (32 MB semi-spaces instead of V8's default 16 MB maximum) keeps the rows
// of in-flight list pages from being promoted and collected by full mark-compacts of the framework's large heap:
// under 32 connections on GET /orders garbage collection fell from 26% of the service's CPU to under 6% (issue 13).
// test/unit/config/node-flags.spec.ts checks that the Dockerfile and package.json carry the same flags.
module.exports = { SERVICE_NODE_FLAGS: ['--max-semi-space-size=32'] };

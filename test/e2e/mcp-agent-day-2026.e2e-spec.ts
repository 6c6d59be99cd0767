import { agentDay } from './mcp-agent-day.suite';

/** Issue 29 (mcp-agent-day.suite.ts): the day with the v2 SDK client over protocol 2026-07-28, on PostgreSQL. */
agentDay('2026', 'postgres');

import { agentDay } from './mcp-agent-day.suite';

/** Issue 29 (mcp-agent-day.suite.ts): the day with the last 1.x SDK client (2025-11-25), on PostgreSQL. */
agentDay('current', 'postgres');

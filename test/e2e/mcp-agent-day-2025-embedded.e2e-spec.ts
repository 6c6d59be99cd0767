import { agentDay } from './mcp-agent-day.suite';

/** Issue 29 (mcp-agent-day.suite.ts): the day with the SDK client of May 2025 (2025-03-26), on the embedded database. */
agentDay('2025', 'embedded');

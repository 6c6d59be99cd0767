import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import { callTool, mcpClient } from '../support/mcp-client';
import { countQueries } from '../support/query-counter';
import { seedDemandCases } from '../support/replenishment-demand';
import { startTestApp, TestApp } from '../support/test-app';

/** A statement that writes (an INSERT, UPDATE or DELETE, alone or in a CTE); a row lock (`FOR UPDATE`) is a read. */
const WRITES = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?/gi;
/**
 * Derived caches a read may fill (the demand estimate of a window, recomputed from sales and snapshots when stale):
 * nothing a caller can observe changes, so filling them keeps a read read-only (docs/adr/0047-mcp-tool-list-and-agent-texts.md).
 */
const CACHES = new Set(['demand_cache', 'demand_cache_runs']);
const writesOf = (statements: string[]) =>
  statements.flatMap((q) => [...q.replace(/\bFOR\s+(NO\s+KEY\s+)?UPDATE\b/gi, '').matchAll(WRITES)].map((m) => m[2].toLowerCase()).filter((table) => !CACHES.has(table)));

/** The MCP hints are true to the SQL a call sends (issue 31): a read-only tool writes nothing; a recording read writes. */
describe('MCP read-only hints against the SQL each call sends', () => {
  let t: TestApp;
  let mcp: Client;
  beforeAll(async () => {
    t = await startTestApp();
    await seedDemandCases(t);
    mcp = await mcpClient(t);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  const run = async (tool: string) => {
    const counter = countQueries();
    try {
      const answer = await callTool(mcp, tool, {});
      return { answer, writes: writesOf(counter.statements()) };
    } finally {
      counter.stop();
    }
  };

  it('every read-only tool that needs no argument writes nothing', async () => {
    const { tools } = await mcp.listTools();
    const readOnly = tools.filter((x) => x.annotations?.readOnlyHint === true && (x.inputSchema.required ?? []).length === 0).map((x) => x.name);
    expect(readOnly).toEqual(expect.arrayContaining(['get_replenishment_score', 'list_runs', 'get_guards']));
    for (const tool of readOnly) {
      const { answer, writes } = await run(tool);
      expect({ tool, status: answer.status, writes }).toEqual({ tool, status: 200, writes: [] });
    }
  });

  it('get_replenishment_plan records a plan snapshot, so it is not marked read-only; a second call records nothing new', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.find((x) => x.name === 'get_replenishment_plan')?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
    const ds = t.app.get(DataSource);
    const recorded = async () => (await ds.query(`SELECT (SELECT count(*) FROM replenishment_forecasts)::int AS forecasts, (SELECT count(*) FROM slot_stock_days)::int AS days`)) as { forecasts: number; days: number }[];
    const before = (await recorded())[0];
    const first = await run('get_replenishment_plan');
    expect(first.answer.status).toBe(200);
    expect(first.writes).toEqual(expect.arrayContaining(['slot_stock_days', 'replenishment_forecasts']));
    const after = (await recorded())[0];
    expect(after.forecasts).toBeGreaterThan(before.forecasts);
    expect(after.days).toBeGreaterThan(before.days);
    await run('get_replenishment_plan');
    expect((await recorded())[0]).toEqual(after);
  });
});

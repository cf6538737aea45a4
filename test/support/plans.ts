import { jest } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { PreparedReads } from '#app/persistence';

/** A node of `EXPLAIN (FORMAT JSON)`'s plan; the actual figures only under `ANALYZE`. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Heap Fetches'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The plan's nodes, the root first. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

/** A statement as a read sent it. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * The last statement `read` sent through the app's data source, whether as a named prepared
 * statement (`PreparedReads`) or a plain query.
 */
export async function lastStatement(
  appDb: DataSource,
  read: () => Promise<unknown>,
): Promise<SentStatement> {
  const prepared = jest.spyOn(PreparedReads.prototype, 'rows');
  const plain = jest.spyOn(appDb, 'query');
  const sent: { order: number; statement: SentStatement }[] = [];
  try {
    await read();
    // Read before restoring: restoring a spy forgets its calls.
    prepared.mock.calls.forEach(([, text, values], i) =>
      sent.push({ order: prepared.mock.invocationCallOrder[i], statement: { text, values } }),
    );
    plain.mock.calls.forEach(([text, values], i) =>
      sent.push({
        order: plain.mock.invocationCallOrder[i],
        statement: { text, values: (values ?? []) as unknown[] },
      }),
    );
  } finally {
    prepared.mockRestore();
    plain.mockRestore();
  }
  sent.sort((a, b) => a.order - b.order);
  const last = sent.at(-1);
  if (!last) {
    throw new Error('the read sent no statement');
  }
  return last.statement;
}

/** The plan of `statement`, run again under `EXPLAIN (ANALYZE, BUFFERS)` on `db`. */
export async function analyzedPlan(db: DataSource, statement: SentStatement): Promise<PlanNode> {
  const [{ 'QUERY PLAN': plan }] = await db.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`,
    statement.values,
  );
  return plan[0].Plan;
}

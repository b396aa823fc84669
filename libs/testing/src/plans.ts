import type { Sequelize } from 'sequelize';

/** A node of PostgreSQL's `EXPLAIN (FORMAT JSON)` plan, as far as the plan specs read it. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** The tables the plan reads by a sequential scan. */
export function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

/** The index names under a node (a bitmap heap scan reads its table through the bitmap index scans below it). */
function indexNames(node: PlanNode): string[] {
  return [...(node['Index Name'] ? [node['Index Name']] : []), ...(node.Plans ?? []).flatMap(indexNames)];
}

/** Every scan of the plan as "table index", or "table Seq Scan" for a scan without an index. */
function scans(node: PlanNode): string[] {
  const table = node['Relation Name'];
  if (table && node['Node Type'] === 'Bitmap Heap Scan')
    return (node.Plans ?? []).flatMap(indexNames).map((index) => `${table} ${index}`);
  const own = table ? [`${table} ${node['Index Name'] ?? node['Node Type']}`] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scans)];
}

/** The indexes the plan reads on the named table, each once. */
export function indexesOn(table: string, node: PlanNode): string[] {
  return [
    ...new Set(
      scans(node)
        .filter((scan) => scan.startsWith(`${table} `))
        .map((scan) => scan.slice(table.length + 1)),
    ),
  ];
}

/**
 * From now on, every SELECT the services run on `sequelize` is explained first, with the same values, then run
 * as it was; the plans are pushed to the array answered (empty it before the call under test). `reads` picks
 * the statements explained: a read that starts with a CTE asks for `/^\s*(SELECT|WITH)/i`.
 */
export function explainEverySelect(sequelize: Sequelize, reads = /^\s*SELECT/i): PlanNode[] {
  const plans: PlanNode[] = [];
  const original = sequelize.query.bind(sequelize) as (sql: unknown, options?: unknown) => Promise<unknown>;
  (sequelize as unknown as { query: typeof original }).query = async (sql, options) => {
    const text = typeof sql === 'string' ? sql : (sql as { query: string }).query;
    if (reads.test(text)) {
      const { replacements, bind } = (options ?? {}) as { replacements?: unknown; bind?: unknown };
      const [rows] = (await original(`EXPLAIN (FORMAT JSON) ${text}`, { replacements, bind })) as [
        Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>,
      ];
      plans.push(rows[0]!['QUERY PLAN'][0]!.Plan);
    }
    return original(sql, options);
  };
  return plans;
}

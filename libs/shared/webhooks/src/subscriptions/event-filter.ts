import { createRequire } from 'node:module';
import type * as Sift from 'sift';

// sift ships CommonJS whose operations Node's ESM loader does not see as named exports; required, they are typed.
const sift = createRequire(import.meta.url)('sift') as typeof Sift;

/**
 * A subscription's filter: a MongoDB-style query over an event's `data`, evaluated by sift with only the
 * operators below. Nothing in it runs code or can be made slow: no `$where`, `$regex`, `$elemMatch`, `$type`,
 * `$mod`, and the query's depth, size and lists are bounded when it is saved.
 */
export type EventFilter = Record<string, unknown>;

export const FILTER_FIELD_OPERATORS = ['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$not'];
export const FILTER_LOGICAL_OPERATORS = ['$and', '$or', '$nor'];

/** Bounds of a saved filter. */
export const FILTER_LIMITS = {
  /** Nesting of objects and arrays. */
  depth: 6,
  /** Field conditions and operators, counted over the whole query. */
  nodes: 100,
  /** Values of one $in / $nin, and branches of one $and / $or / $nor. */
  list: 100,
  /** Length of a field path and of a string value. */
  text: 200,
  /** The query as JSON. */
  bytes: 8_192,
} as const;

const operations = {
  $eq: sift.$eq,
  $ne: sift.$ne,
  $in: sift.$in,
  $nin: sift.$nin,
  $gt: sift.$gt,
  $gte: sift.$gte,
  $lt: sift.$lt,
  $lte: sift.$lte,
  $exists: sift.$exists,
  $not: sift.$not,
  $and: sift.$and,
  $or: sift.$or,
  $nor: sift.$nor,
};

export interface FilterProblem {
  /** Where in the filter, e.g. `filter.qtyDelta.$regex`. */
  path: string;
  message: string;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isScalar = (value: unknown) =>
  value === null ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  (typeof value === 'string' && value.length <= FILTER_LIMITS.text);

/**
 * What is wrong with a filter, or null when it may be saved. The first problem found is named with its path,
 * so a 400 tells the author exactly what to change.
 */
export function filterProblem(filter: unknown): FilterProblem | null {
  if (!isPlainObject(filter)) return { path: 'filter', message: 'must be an object (a query over the event data)' };
  if (JSON.stringify(filter).length > FILTER_LIMITS.bytes)
    return { path: 'filter', message: `must be at most ${FILTER_LIMITS.bytes} characters as JSON` };
  const budget = { nodes: 0 };
  return checkQuery(filter, 'filter', 1, budget);
}

function checkQuery(
  query: Record<string, unknown>,
  path: string,
  depth: number,
  budget: { nodes: number },
): FilterProblem | null {
  if (depth > FILTER_LIMITS.depth) return { path, message: `is nested deeper than ${FILTER_LIMITS.depth} levels` };
  for (const [key, value] of Object.entries(query)) {
    const at = `${path}.${key}`;
    if (++budget.nodes > FILTER_LIMITS.nodes)
      return { path: at, message: `the filter has more than ${FILTER_LIMITS.nodes} conditions` };
    if (key.startsWith('$')) {
      if (!FILTER_LOGICAL_OPERATORS.includes(key)) return unknownOperator(at, key, FILTER_LOGICAL_OPERATORS);
      if (!Array.isArray(value) || value.length === 0 || value.length > FILTER_LIMITS.list)
        return { path: at, message: `must be a list of 1 to ${FILTER_LIMITS.list} queries` };
      for (const [index, branch] of value.entries()) {
        if (!isPlainObject(branch)) return { path: `${at}.${index}`, message: 'must be a query object' };
        const problem = checkQuery(branch, `${at}.${index}`, depth + 2, budget);
        if (problem) return problem;
      }
      continue;
    }
    const fieldProblem = checkField(key, at);
    if (fieldProblem) return fieldProblem;
    const problem = checkCondition(value, at, depth + 1, budget);
    if (problem) return problem;
  }
  return null;
}

function checkField(key: string, path: string): FilterProblem | null {
  if (key.length === 0 || key.length > FILTER_LIMITS.text)
    return { path, message: `field names are 1 to ${FILTER_LIMITS.text} characters` };
  if (key.split('.').some((part) => part.length === 0 || part.startsWith('$')))
    return { path, message: 'is not a field path (parts separated by dots, none starting with $)' };
  return null;
}

/** A field's condition: a scalar (equality) or an object of field operators. */
function checkCondition(value: unknown, path: string, depth: number, budget: { nodes: number }): FilterProblem | null {
  if (depth > FILTER_LIMITS.depth) return { path, message: `is nested deeper than ${FILTER_LIMITS.depth} levels` };
  if (isScalar(value)) return null;
  if (!isPlainObject(value))
    return {
      path,
      message: `must be a string (at most ${FILTER_LIMITS.text} characters), number, boolean, null or an object of operators`,
    };
  const keys = Object.keys(value);
  if (keys.length === 0) return { path, message: 'must name at least one operator' };
  for (const key of keys) {
    const at = `${path}.${key}`;
    if (++budget.nodes > FILTER_LIMITS.nodes)
      return { path: at, message: `the filter has more than ${FILTER_LIMITS.nodes} conditions` };
    if (!key.startsWith('$'))
      return { path: at, message: 'nested documents are not compared whole; name the field with a dotted path' };
    if (!FILTER_FIELD_OPERATORS.includes(key)) return unknownOperator(at, key, FILTER_FIELD_OPERATORS);
    const operand = value[key];
    switch (key) {
      case '$in':
      case '$nin':
        if (!Array.isArray(operand) || operand.length > FILTER_LIMITS.list || !operand.every(isScalar))
          return {
            path: at,
            message: `must be a list of at most ${FILTER_LIMITS.list} strings, numbers, booleans or nulls`,
          };
        break;
      case '$exists':
        if (typeof operand !== 'boolean') return { path: at, message: 'must be true or false' };
        break;
      case '$not': {
        if (!isPlainObject(operand)) return { path: at, message: 'must be an object of operators' };
        const problem = checkCondition(operand, at, depth + 1, budget);
        if (problem) return problem;
        break;
      }
      default:
        if (!isScalar(operand)) return { path: at, message: 'must be a string, number, boolean or null' };
    }
  }
  return null;
}

function unknownOperator(path: string, key: string, allowed: string[]): FilterProblem {
  const all = [...FILTER_FIELD_OPERATORS, ...FILTER_LOGICAL_OPERATORS];
  return {
    path,
    message: all.includes(key)
      ? `operator ${key} is not allowed here; use one of ${allowed.join(' ')}`
      : `operator ${key} is not allowed; filters use ${all.join(' ')}`,
  };
}

/** A tester for a filter already checked by `filterProblem` (a filter read back from the database). */
export function compileFilter(filter: EventFilter): (data: unknown) => boolean {
  const tester = sift.createQueryTester(filter as Sift.Query<unknown>, { operations });
  return (data) => tester(data);
}

/**
 * Compiled filters by subscription, rebuilt when the stored filter changes. The fan-out tests many events
 * against the same few filters; compiling once per change keeps a filtered subscription's cost per event to
 * the test itself.
 */
export class FilterCache {
  private readonly compiled = new Map<string, { text: string; test: (data: unknown) => boolean }>();

  testerFor(subscriptionId: string, filter: EventFilter): (data: unknown) => boolean {
    const text = JSON.stringify(filter);
    const known = this.compiled.get(subscriptionId);
    if (known?.text === text) return known.test;
    if (this.compiled.size >= 10_000) this.compiled.clear();
    const test = compileFilter(filter);
    this.compiled.set(subscriptionId, { text, test });
    return test;
  }
}

/** One field of an audit entry's `changes`: what it was and what it became. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

/** Equal as stored: dates by instant, everything else by its JSON. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return (a ? new Date(a as Date).getTime() : null) === (b ? new Date(b as Date).getTime() : null);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The `{ field: { from, to } }` of an audit entry: only the fields whose value actually differs. */
export function changedFields<T extends object>(
  before: T,
  after: Partial<T>,
  fields: readonly (keyof T & string)[],
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const field of fields) {
    if (!sameValue(before[field], after[field])) changes[field] = { from: before[field], to: after[field] };
  }
  return changes;
}

/** A PostgreSQL array literal, so an empty list binds as '{}' rather than an invalid ARRAY[]; null stays NULL. */
export function toArrayLiteral(values: Array<string | null>): string {
  return `{${values.map((value) => (value === null ? 'NULL' : `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

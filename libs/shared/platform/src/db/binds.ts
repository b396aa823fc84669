/**
 * Positional bind parameters of a partial update's SET list (only the fields a PATCH names): each value
 * added answers its placeholder (`$1`, `$2`, …). An optional filter is not built this way: it is
 * `($n::type IS NULL OR …)` in one fixed text (ADR 0130).
 */
export class Binds {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

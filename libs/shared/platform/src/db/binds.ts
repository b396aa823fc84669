/**
 * Positional bind parameters of a statement built from optional parts (a list's filters): each value added
 * answers its placeholder (`$1`, `$2`, …), so only the values the statement names are bound.
 */
export class Binds {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

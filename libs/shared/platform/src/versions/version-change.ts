/**
 * One named change of the wire, shipped in a dated version. The code speaks the newest shape; an answer or
 * event body for an older version is the newest one run backward through each newer version's changes.
 */
export interface VersionChange {
  /** Stable name, as the changelog lists it. */
  name: string;
  description: string;
  /** The change in one line, for the portal's version field. */
  summary: string;
  /**
   * Brings a body the code built to this change's shape (a body read from a source that predates the change,
   * e.g. an event stored before it, or a number computed in JavaScript).
   */
  current(body: unknown): unknown;
  /** Turns a body of this change's version into the previous version's shape. */
  down(body: unknown): unknown;
}

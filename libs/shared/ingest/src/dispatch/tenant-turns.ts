/**
 * Tenant turns: how bulk jobs and import chunks share the workers between tenants (ADR 0190). Each unit of
 * work is queued at its tenant's next turn in its lane: one past the tenant's last queued turn, but never
 * before the lane's head (its lowest queued turn); 1 in an empty lane. The turn orders the unit's BullMQ
 * job through its priority. So a tenant coming to a busy lane is served right after the unit at the head
 * and then in rotation with the tenants already there, however many units they queued; a tenant's own
 * units keep their order; and a lone tenant has every worker (nothing waits for a turn no one takes).
 */

/** Where a kind of unit keeps its turns: SQL fragments over its table (or join). */
export interface TurnUnits {
  /** The FROM clause: the units' table, or a join that reaches their tenant. */
  from: string;
  /** The condition of a unit still queued in the lane (waiting or running). */
  queued: string;
  /** The expression of a unit's tenant. */
  tenant: string;
  /** The column holding a unit's turn. */
  turn: string;
}

/** SQL: the turn of a new unit of the tenant in `tenantParam` (a bind, `$3`), from the queued units. */
export function nextTurnSql(units: TurnUnits, tenantParam: string): string {
  return `GREATEST(
     (SELECT min(${units.turn}) FROM ${units.from} WHERE ${units.queued}),
     (SELECT max(${units.turn}) + 1 FROM ${units.from} WHERE ${units.queued} AND ${units.tenant} = ${tenantParam}),
     1)`;
}

/**
 * A lane is a band of BullMQ priorities, the first band before the second, so one lane never waits behind
 * the other's queued units (bulk jobs: synchronous calls before asynchronous ones).
 */
export type TurnBand = 'first' | 'second';

/** Turns a band holds; a turn past it takes the band's last priority (the lane is then first in, first out). */
const BAND = 2 ** 20;

/**
 * The BullMQ priority of a unit at `turn` in `band`. In the first band, turn 1 is a job without a
 * priority (BullMQ takes those first, first in, first out) and later turns take 1 … 2^20 − 1; the second
 * band's turns take 2^20 … 2^21 − 1 (BullMQ's highest). Lower runs first; equal ones in arrival order.
 */
export function turnPriority(turn: number, band: TurnBand = 'first'): number {
  const capped = Math.min(Math.max(turn, 1), BAND);
  return band === 'first' ? capped - 1 : BAND - 1 + capped;
}

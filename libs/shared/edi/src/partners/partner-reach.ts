import { hasModulePermission, type AdminModule, type Principal } from '@wms/identity';
import { AppError } from '@wms/platform';

/**
 * The module whose data each set carries: what a partner sending or receiving it reaches. A user makes a partner
 * that reaches only what its own modules read, as with API keys and subscriptions; the 997 carries no data.
 */
export const SET_REACH: Readonly<Record<string, AdminModule | null>> = {
  '940': 'orders',
  '943': 'inbound',
  '856': 'inbound',
  '944': 'inbound',
  '945': 'orders',
  '947': 'inventory',
  '846': 'inventory',
  '997': null,
};

/** 403 SETS_BEYOND_MODULES naming what the actor lacks, when a partner with these sets would reach beyond it. */
export function assertSetsWithinReach(actor: Principal, sets: readonly string[]): void {
  const missing = new Set<string>();
  for (const set of sets) {
    const module = SET_REACH[set];
    if (module && !hasModulePermission(actor, module, 'read')) missing.add(`read on ${module} (${set})`);
  }
  if (missing.size) {
    throw AppError.forbidden(
      `A trading partner with these sets would reach beyond your modules; missing: ${[...missing].join(', ')}`,
      'SETS_BEYOND_MODULES',
    );
  }
}

import type { Database } from '@wms/platform';
import { SealedSecretsRepository } from './sealed-secrets.repository.js';
import { DERIVED_KEY_ID, type SecretBox } from './secret-box.js';

export interface ResealReport {
  /** Sealed values written again under the current key. */
  resealed: number;
  /** Already under the current key. */
  current: number;
  /** Subscriptions with a value no key of the ring (nor JWT_SECRET, for the former format) opens; left as they are. */
  unreadable: string[];
}

/**
 * Re-seals every stored secret that is not under the ring's current key (`onlyLegacy`: only values
 * sealed under a key derived from JWT_SECRET, the former format or the development key, which start-up
 * does). Each row is written only if it did not
 * change meanwhile (a rotation at the same moment wins), so it is safe beside running apps and when run
 * twice at once. After it reports nothing unreadable, keys other than the first may leave the ring.
 */
export async function resealSecrets(
  db: Database,
  box: SecretBox,
  options: { onlyLegacy?: boolean } = {},
): Promise<ResealReport> {
  const repository = new SealedSecretsRepository(db);
  const rows = await repository.list();
  const report: ResealReport = { resealed: 0, current: 0, unreadable: [] };
  const legacy = (sealed: string) => sealed.startsWith('v1:') || sealed.startsWith(`v2:${DERIVED_KEY_ID}:`);
  const wanted = (sealed: string) => !box.isCurrent(sealed) && (!options.onlyLegacy || legacy(sealed));
  const again = <T extends string | null>(sealed: T): T =>
    sealed && wanted(sealed) ? (box.seal(box.open(sealed)) as T) : sealed;
  for (const row of rows) {
    const values = [row.secretSealed, row.previousSecretSealed, row.destinationSecretSealed];
    if (!values.some((sealed) => sealed && wanted(sealed))) {
      report.current++;
      continue;
    }
    let sealed: { secret: string; previous: string | null; destination: string | null };
    try {
      sealed = {
        secret: again(row.secretSealed),
        previous: again(row.previousSecretSealed),
        destination: again(row.destinationSecretSealed),
      };
    } catch {
      report.unreadable.push(row.id);
      continue;
    }
    if (await repository.replace(row, sealed)) report.resealed++;
  }
  return report;
}

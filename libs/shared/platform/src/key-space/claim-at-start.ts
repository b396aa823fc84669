import type { Logger } from '../logging/index.js';
import { within } from '../lifecycle/index.js';
import { KeySpaceTaken, type KeySpaceClaim } from './key-space-claim.js';

/**
 * A process's start: a key space another database holds ends the process with the refusal on stderr (exit
 * 1), before it takes a job or a request; a PostgreSQL or Redis that does not answer within `timeoutMs`
 * leaves the comparison to readiness, which makes it on every probe.
 */
export async function claimKeySpaceAtStart(claim: KeySpaceClaim, logger: Logger, timeoutMs = 5_000): Promise<void> {
  try {
    await within(claim.claim(AbortSignal.timeout(timeoutMs)), timeoutMs);
  } catch (error) {
    if (!(error instanceof KeySpaceTaken)) {
      logger.warn({ err: error }, 'the Redis key space could not be claimed yet; readiness compares it');
      return;
    }
    // The check logged the refusal; stderr carries it too, since the exit may come before the log is written.
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

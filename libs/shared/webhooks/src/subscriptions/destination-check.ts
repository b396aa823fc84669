import { brokerHostUrl, storedDestination, type DestinationInput } from '../destinations/index.js';
import type { SecretBox } from './secret-box.js';
import type { StoredDestination } from './subscriptions.repository.js';
import { assertDeliverableUrl, type UrlPolicy } from './url-guard.js';

/**
 * A destination as it is stored: an HTTP URL checked as always; a broker's host checked by the same rule
 * (private addresses refused unless WEBHOOK_ALLOW_PRIVATE_URLS), its URL and credentials sealed.
 */
export async function checkedDestination(
  input: DestinationInput,
  policy: UrlPolicy,
  secrets: SecretBox,
): Promise<StoredDestination> {
  if (input.kind === 'http') {
    return { kind: 'http', url: await assertDeliverableUrl(input.url, policy), settings: null, sealed: null };
  }
  await assertDeliverableUrl(brokerHostUrl(input.url), { ...policy, requireHttps: false });
  const stored = storedDestination(input);
  return { ...stored, sealed: secrets.seal(JSON.stringify(stored.sealed)) };
}

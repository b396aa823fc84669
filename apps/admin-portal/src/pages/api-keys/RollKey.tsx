import { apiKeysApi, type ApiKey, type CreatedApiKey } from '../../api';
import { ConfirmButton, GracePeriodButton, formatDateTime, type GraceChoice } from '../../components';

/** How long the old raw key keeps working after a roll: none by default, at most 7 days (the API's bounds). */
const GRACE_CHOICES: GraceChoice[] = [
  { value: '0', label: 'None: the old key stops now', hint: 'For a key that leaked' },
  { value: '3600', label: '1 hour', hint: 'Time to put the new key in place' },
  { value: '86400', label: '24 hours', hint: 'For a deploy that takes a day' },
  { value: '604800', label: '7 days', hint: 'The longest: for clients run by another team' },
];

/** Rolls the key after a dialog that asks how long the old raw key keeps working. */
export function RollKeyButton(props: { apiKey: ApiKey; onRolled: (rolled: CreatedApiKey) => void }) {
  const previous = props.apiKey.previousKey;
  return (
    <GracePeriodButton
      label="Roll key"
      title="Roll this key?"
      intro={`"${props.apiKey.name}" gets a new raw key, shown once. Its settings, statistics and rate limit stay.`}
      description="How long the current raw key keeps working beside the new one"
      choices={GRACE_CHOICES}
      defaultValue="0"
      note={
        previous &&
        `The raw key before the last roll (${previous.keyPrefix}…) still works until ${formatDateTime(previous.expiresAt)}; it stops at once.`
      }
      onConfirm={async (graceSeconds) => props.onRolled(await apiKeysApi.roll(props.apiKey.id, graceSeconds))}
    />
  );
}

/** Ends the previous raw key's grace period now, after a confirmation. */
export function RevokePreviousButton(props: { apiKey: ApiKey; onDone: () => void; size?: 'xs' | 'sm' }) {
  const previous = props.apiKey.previousKey;
  if (!previous) return null;
  return (
    <ConfirmButton
      label="Revoke previous key now"
      title="Revoke the previous key now?"
      message={`Calls with the old raw key (${previous.keyPrefix}…) are refused with 401 within a second, on every gateway, instead of at ${formatDateTime(previous.expiresAt)}. The new key is not affected.`}
      confirmLabel="Revoke previous key"
      color="red"
      variant="outline"
      size={props.size}
      onConfirm={() => apiKeysApi.revokePrevious(props.apiKey.id)}
      onDone={props.onDone}
    />
  );
}

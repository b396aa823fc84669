import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { apiKeysApi, type ApiKey, type CreatedApiKey } from '../../api';
import { ConfirmButton, ErrorNotice, formatDateTime } from '../../components';

/** How long the old raw key keeps working after a roll: none by default, at most 7 days (the API's bounds). */
const GRACE_CHOICES = [
  { value: '0', label: 'None: the old key stops now', hint: 'For a key that leaked' },
  { value: '3600', label: '1 hour', hint: 'Time to put the new key in place' },
  { value: '86400', label: '24 hours', hint: 'For a deploy that takes a day' },
  { value: '604800', label: '7 days', hint: 'The longest: for clients run by another team' },
];

/** Rolls the key after a dialog that asks how long the old raw key keeps working. */
export function RollKeyButton(props: { apiKey: ApiKey; onRolled: (rolled: CreatedApiKey) => void }) {
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState('0');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const roll = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const rolled = await apiKeysApi.roll(props.apiKey.id, Number(grace));
      setOpen(false);
      props.onRolled(rolled);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Roll key
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title="Roll this key?"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
        // Its scroll lock injects a style element, which the page's Content-Security-Policy refuses.
        lockScroll={false}
      >
        <Stack>
          <Text size="sm">
            &quot;{props.apiKey.name}&quot; gets a new raw key, shown once. Its settings, statistics and rate limit
            stay.
          </Text>
          <Radio.Group
            label="Grace period"
            description="How long the current raw key keeps working beside the new one"
            value={grace}
            onChange={setGrace}
          >
            <Stack gap="xs" mt="xs">
              {GRACE_CHOICES.map((choice) => (
                <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.hint} />
              ))}
            </Stack>
          </Radio.Group>
          {props.apiKey.previousKey && (
            <Text size="sm">
              The raw key before the last roll ({props.apiKey.previousKey.keyPrefix}…) still works until{' '}
              {formatDateTime(props.apiKey.previousKey.expiresAt)}; it stops at once.
            </Text>
          )}
          <ErrorNotice error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button loading={busy} onClick={roll}>
              Roll key
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
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

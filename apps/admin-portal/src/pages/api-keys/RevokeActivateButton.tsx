import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { apiKeysApi, type ApiKey } from '../../api';
import { ErrorNotice } from '../../components';

/** Revoke (or activate) after a confirmation that says what happens to the key's callers. */
export function RevokeActivateButton({ apiKey, onChanged }: { apiKey: ApiKey; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const revoking = apiKey.active;

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await (revoking ? apiKeysApi.revoke(apiKey.id) : apiKeysApi.activate(apiKey.id));
      setOpen(false);
      onChanged();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        color={revoking ? 'red' : 'green'}
        variant={revoking ? 'outline' : 'filled'}
        onClick={() => setOpen(true)}
      >
        {revoking ? 'Revoke' : 'Activate'}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={revoking ? 'Revoke this key?' : 'Activate this key?'}
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
        // Its scroll lock injects a style element, which the page's Content-Security-Policy refuses.
        lockScroll={false}
      >
        <Stack>
          <Text size="sm">
            {revoking
              ? `Every call with "${apiKey.name}" will be refused with 401 within a second, on every gateway. You can activate it again later.`
              : `Calls with "${apiKey.name}" will be accepted again.`}
          </Text>
          <ErrorNotice error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button color={revoking ? 'red' : 'green'} loading={busy} onClick={confirm}>
              {revoking ? 'Revoke key' : 'Activate key'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

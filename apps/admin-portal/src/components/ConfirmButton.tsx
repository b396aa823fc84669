import { Button, Group, Modal, Stack, Text, type ButtonProps } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice';

/**
 * A button whose action runs only after a confirmation dialog that says what will happen; an error of
 * the action is shown in the dialog, which stays open.
 */
export function ConfirmButton(props: {
  label: string;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  color?: string;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  onConfirm: () => Promise<unknown>;
  onDone?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm();
      setOpen(false);
      props.onDone?.();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button color={props.color} variant={props.variant ?? 'default'} size={props.size} onClick={() => setOpen(true)}>
        {props.label}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={props.title}
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
        lockScroll={false}
      >
        <Stack>
          <Text size="sm">{props.message}</Text>
          <ErrorNotice error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button color={props.color} loading={busy} onClick={confirm}>
              {props.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

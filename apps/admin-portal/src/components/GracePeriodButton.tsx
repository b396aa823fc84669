import { Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ErrorNotice } from './ErrorNotice';

export interface GraceChoice {
  /** Seconds, as the radio value. */
  value: string;
  label: string;
  hint: string;
}

/**
 * A button that opens a dialog asking how long the old credential keeps working (a key roll, a secret
 * rotation), then runs `onConfirm` with the chosen seconds; a failure is shown in the dialog.
 */
export function GracePeriodButton(props: {
  label: string;
  title: string;
  intro: ReactNode;
  description?: string;
  choices: GraceChoice[];
  defaultValue: string;
  /** What the action also ends at once, if anything (an earlier grace period still running). */
  note?: ReactNode;
  onConfirm: (graceSeconds: number) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState(props.defaultValue);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await props.onConfirm(Number(grace));
      setOpen(false);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        {props.label}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={props.title}
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
        // Its scroll lock injects a style element, which the page's Content-Security-Policy refuses.
        lockScroll={false}
      >
        <Stack>
          <Text size="sm">{props.intro}</Text>
          <Radio.Group label="Grace period" description={props.description} value={grace} onChange={setGrace}>
            <Stack gap="xs" mt="xs">
              {props.choices.map((choice) => (
                <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.hint} />
              ))}
            </Stack>
          </Radio.Group>
          {props.note && <Text size="sm">{props.note}</Text>}
          <ErrorNotice error={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button loading={busy} onClick={confirm}>
              {props.label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

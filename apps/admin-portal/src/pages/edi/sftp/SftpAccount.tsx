import { Alert, Button, Group, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ediApi, type SftpPassword, type TradingPartner } from '../../../api';
import { ConfirmButton, CopyableValue, ErrorNotice } from '../../../components';

/**
 * The partner's SFTP account: its user name, a password generated and shown here once (held in this page's
 * memory only), and the public keys that may log in, by fingerprint.
 */
export function SftpAccount(props: { partner: TradingPartner; canWrite: boolean; onChanged: () => void }) {
  const { partner } = props;
  const [password, setPassword] = useState<SftpPassword>();
  const [publicKey, setPublicKey] = useState('');
  const [error, setError] = useState<unknown>();

  const addKey = async () => {
    setError(undefined);
    try {
      await ediApi.addKey(partner.id, publicKey);
      setPublicKey('');
      props.onChanged();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <Title order={2} size="h4">
          SFTP account
        </Title>
        <Text size="sm">
          User name <span className="mono">{partner.sftpUsername}</span> · folders <span className="mono">in/</span>,{' '}
          <span className="mono">out/</span>, <span className="mono">archive/</span> · password{' '}
          {partner.sftpPasswordSet ? 'set' : 'not set'}
        </Text>
        {password && (
          <Stack gap="sm">
            <Alert color="orange" title="Copy the password now" role="alert">
              This is the only time the password is shown; it cannot be shown again. Give it to the partner over a
              channel of its own.
            </Alert>
            <CopyableValue
              id="sftp-password-label"
              label="SFTP password"
              value={password.password}
              copyLabel="Copy password"
              testId="sftp-password"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPassword(undefined)}>
                I have copied the password
              </Button>
            </Group>
          </Stack>
        )}
        {props.canWrite && !password && (
          <Group>
            <ConfirmButton
              label={partner.sftpPasswordSet ? 'Replace password' : 'Generate password'}
              title="New SFTP password"
              message={
                partner.sftpPasswordSet
                  ? 'The current password stops working at once; the new one is shown once.'
                  : 'The password is shown once, on this page.'
              }
              confirmLabel="Generate"
              onConfirm={async () => setPassword(await ediApi.newPassword(partner.id))}
              onDone={props.onChanged}
            />
          </Group>
        )}
        <Table verticalSpacing="xs" aria-label="Public keys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Public key</Table.Th>
              <Table.Th>Fingerprint</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {partner.sftpPublicKeys.map((key) => (
              <Table.Tr key={key.fingerprint}>
                <Table.Td>
                  {key.type} {key.comment}
                </Table.Td>
                <Table.Td className="mono">{key.fingerprint}</Table.Td>
                <Table.Td>
                  {props.canWrite && (
                    <ConfirmButton
                      label="Remove"
                      size="xs"
                      color="red"
                      title="Remove public key"
                      message={`Logins with ${key.fingerprint} stop working.`}
                      confirmLabel="Remove key"
                      onConfirm={() => ediApi.removeKey(partner.id, key.fingerprint)}
                      onDone={props.onChanged}
                    />
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {partner.sftpPublicKeys.length === 0 && (
          <Text size="sm" c="dimmed">
            No public keys.
          </Text>
        )}
        {props.canWrite && (
          <Stack gap="xs">
            <Textarea
              label="Add a public key"
              description="The partner's OpenSSH public key (the .pub file's line), never its private key"
              autosize
              minRows={2}
              value={publicKey}
              onChange={(event) => setPublicKey(event.currentTarget.value)}
            />
            <ErrorNotice error={error} title="The key was not added" />
            <Group justify="flex-end">
              <Button onClick={addKey} disabled={!publicKey.trim()}>
                Add key
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

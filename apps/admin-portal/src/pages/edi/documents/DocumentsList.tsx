import { Anchor, Button, Group, Paper, Select, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ediApi, type EdiDocumentState } from '../../../api';
import { ErrorNotice, Loading, formatDateTime, useApi } from '../../../components';
import { DocumentStateBadge } from './DocumentStateBadge';

const STATES: EdiDocumentState[] = [
  'received',
  'processing',
  'accepted',
  'partially_accepted',
  'rejected',
  'unreadable',
  'duplicate',
  'sent',
  'acknowledged',
  'acknowledged_with_errors',
  'acknowledgment_rejected',
];
const SETS = ['940', '943', '856', '944', '945', '947', '846', '997', 'TA1'];
const PAGE = 50;

/** The partner's documents both ways, newest first, by direction, state and set, a page at a time. */
export function DocumentsList({ partnerId }: { partnerId: string }) {
  const [direction, setDirection] = useState<'in' | 'out' | ''>('');
  const [state, setState] = useState<EdiDocumentState | ''>('');
  const [setCode, setSetCode] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const query = {
    direction: direction || undefined,
    state: state || undefined,
    setCode: setCode || undefined,
    limit: PAGE,
    cursor,
  };
  const page = useApi(['edi-documents', partnerId, query], () => ediApi.documents(partnerId, query));
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: string | null) => {
      setCursors([]);
      set((value ?? '') as T);
    };

  return (
    <Paper withBorder radius="md" p="lg">
      <Group gap="sm" mb="md" align="flex-end">
        <Select
          label="Direction"
          data={[
            { value: '', label: 'Both' },
            { value: 'in', label: 'Received' },
            { value: 'out', label: 'Sent' },
          ]}
          value={direction}
          onChange={filter(setDirection)}
          allowDeselect={false}
          w={150}
        />
        <Select
          label="State"
          data={[{ value: '', label: 'Any' }, ...STATES.map((value) => ({ value, label: value.replaceAll('_', ' ') }))]}
          value={state}
          onChange={filter(setState)}
          allowDeselect={false}
          w={220}
        />
        <Select
          label="Set"
          data={[{ value: '', label: 'Any' }, ...SETS]}
          value={setCode}
          onChange={filter(setSetCode)}
          allowDeselect={false}
          w={120}
        />
      </Group>
      <ErrorNotice error={page.error} />
      {!page.data ? (
        <Loading />
      ) : (
        <>
          <Table striped highlightOnHover verticalSpacing="xs" aria-label="Documents">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Direction</Table.Th>
                <Table.Th>Sets</Table.Th>
                <Table.Th>ISA13</Table.Th>
                <Table.Th>Our documents</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.data.items.map((document) => (
                <Table.Tr key={document.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/edi/partners/${partnerId}/documents/${document.id}`}>
                      {formatDateTime(document.createdAt)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{document.direction === 'in' ? 'received' : 'sent'}</Table.Td>
                  <Table.Td className="mono">
                    {document.setCodes.join(', ')} {document.setCount > 1 && `(${document.setCount})`}
                  </Table.Td>
                  <Table.Td className="mono">{document.interchangeControl ?? '—'}</Table.Td>
                  <Table.Td className="mono">
                    {document.documents.map(({ kind, ref }) => `${kind ?? ''} ${ref}`.trim()).join(', ') || '—'}
                  </Table.Td>
                  <Table.Td>
                    <DocumentStateBadge state={document.state} overdue={document.overdue} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {page.data.items.length === 0 && (
            <Text c="dimmed" ta="center" py="md">
              No documents.
            </Text>
          )}
          <Group justify="flex-end" mt="sm">
            <Button
              variant="default"
              size="xs"
              disabled={!cursors.length}
              onClick={() => setCursors(cursors.slice(0, -1))}
            >
              Newer
            </Button>
            <Button
              variant="default"
              size="xs"
              disabled={!page.data.nextCursor}
              onClick={() => setCursors([...cursors, page.data!.nextCursor!])}
            >
              Older
            </Button>
          </Group>
        </>
      )}
    </Paper>
  );
}

import { Badge, Button, FileInput, Group, Paper, Progress, Select, Stack, Table, Text } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { canWrite, usePrincipal } from '../../auth';
import {
  ConfirmButton,
  ErrorNotice,
  Loading,
  PageHeader,
  TenantField,
  formatDateTime,
  formatNumber,
  useApi,
  useTenants,
} from '../../components';
import { importsApi, type ImportEntity, type ImportJob, type ImportState } from './imports-api';

/** The module whose permissions cover each entity (as the API checks them). */
const ENTITIES: Array<{ value: ImportEntity; label: string; module: 'warehouses' | 'inbound' | 'orders' }> = [
  { value: 'items', label: 'Items', module: 'warehouses' },
  { value: 'partners', label: 'Partners', module: 'warehouses' },
  { value: 'locations', label: 'Locations', module: 'warehouses' },
  { value: 'asn', label: 'ASNs (NDJSON)', module: 'inbound' },
  { value: 'orders', label: 'Orders (NDJSON)', module: 'orders' },
];

const STATE_COLORS: Record<ImportState, string> = {
  queued: 'gray',
  running: 'blue',
  completed: 'green',
  failed: 'red',
  cancelled: 'orange',
};

const unfinished = (job: ImportJob) => job.state === 'queued' || job.state === 'running';

/** Saves a Blob as a file through a temporary link (the API needs the bearer, so a plain link cannot). */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * File imports of a tenant: upload a CSV or NDJSON file, watch each import's progress, download the rows
 * that failed, cancel one that runs. The list refreshes while an import is unfinished.
 */
export default function ImportsPage() {
  const principal = usePrincipal();
  const tenants = useTenants();
  const [tenantId, setTenantId] = useState(principal.tenantId ?? '');
  const list = useApi(['imports', tenantId], () => importsApi.list(tenantId || undefined));
  const writable = ENTITIES.filter((entity) => canWrite(principal, entity.module));
  const [entity, setEntity] = useState<ImportEntity | null>(writable[0]?.value ?? null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const running = list.data?.some(unfinished) ?? false;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(list.reload, 2_000);
    return () => clearInterval(timer);
  }, [running, list.reload]);

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!entity || !file) return;
    setBusy(true);
    setFailure(undefined);
    try {
      await importsApi.upload(entity, file, tenantId || undefined);
      setFile(null);
      list.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  const act = async (work: () => Promise<unknown>) => {
    setFailure(undefined);
    try {
      await work();
      list.reload();
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <Stack>
      <PageHeader
        title="Imports"
        description="Files of items, partners, locations (CSV or NDJSON), ASNs and orders (NDJSON), written in chunks by the ingest workers."
      />
      {writable.length > 0 && (
        <Paper withBorder p="md" component="form" onSubmit={upload}>
          <Group align="flex-end">
            <TenantField value={tenantId} onChange={setTenantId} tenants={tenants} noneLabel="Choose a tenant" />
            <Select
              label="Entity"
              data={writable.map(({ value, label }) => ({ value, label }))}
              value={entity}
              onChange={(value) => setEntity(value as ImportEntity | null)}
              allowDeselect={false}
            />
            <FileInput
              label="File"
              description="CSV (items, partners, locations) or NDJSON"
              accept=".csv,.ndjson,.jsonl,text/csv,application/x-ndjson"
              value={file}
              onChange={setFile}
              clearable
              miw={260}
            />
            <Button type="submit" loading={busy} disabled={!file || !entity || (!principal.tenantId && !tenantId)}>
              Upload
            </Button>
          </Group>
        </Paper>
      )}
      {failure !== undefined && <ErrorNotice error={failure} />}
      {list.error && <ErrorNotice error={list.error} />}
      {!list.data && list.loading && <Loading />}
      {list.data && list.data.length === 0 && <Text c="dimmed">No imports yet.</Text>}
      {list.data && list.data.length > 0 && <ImportsTable jobs={list.data} act={act} reload={list.reload} />}
    </Stack>
  );
}

function ImportsTable(props: {
  jobs: ImportJob[];
  act: (work: () => Promise<unknown>) => Promise<void>;
  reload: () => void;
}) {
  const { jobs, act, reload } = props;
  return (
    <Table striped withTableBorder verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Started</Table.Th>
          <Table.Th>Entity</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th miw={200}>Progress</Table.Th>
          <Table.Th>Created</Table.Th>
          <Table.Th>Updated</Table.Th>
          <Table.Th>Failed</Table.Th>
          <Table.Th>Actions</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {jobs.map((job) => {
          const percent = job.total ? Math.round((100 * job.processed) / job.total) : 0;
          return (
            <Table.Tr key={job.jobId} data-testid={`import-${job.jobId}`}>
              <Table.Td>{formatDateTime(job.createdAt)}</Table.Td>
              <Table.Td>
                {job.entity}{' '}
                <Text span c="dimmed" size="xs">
                  ({job.format})
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge color={STATE_COLORS[job.state]} variant="light">
                  {job.state}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Progress value={percent} aria-label={`${job.entity} import progress`} />
                <Text size="xs" c="dimmed">
                  {formatNumber(job.processed)} of {formatNumber(job.total)} rows ({percent}%)
                </Text>
              </Table.Td>
              <Table.Td>{formatNumber(job.created)}</Table.Td>
              <Table.Td>{formatNumber(job.updated)}</Table.Td>
              <Table.Td>{formatNumber(job.failed)}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {job.failed > 0 && (
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() =>
                        act(async () =>
                          save(
                            await importsApi.errors(job),
                            `${job.jobId}-errors.${job.format === 'csv' ? 'csv' : 'ndjson'}`,
                          ),
                        )
                      }
                    >
                      Download errors
                    </Button>
                  )}
                  {unfinished(job) && (
                    <ConfirmButton
                      size="xs"
                      color="red"
                      variant="light"
                      label="Cancel"
                      title="Cancel this import?"
                      confirmLabel="Cancel import"
                      message="Rows written so far stay written; the rest of the file is not imported."
                      onConfirm={() => importsApi.cancel(job.jobId)}
                      onDone={reload}
                    />
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

import { Group, Stack, Table, Text, Title, Paper } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router';
import { usePermission } from '../../auth';
import {
  ConfirmButton,
  ErrorNotice,
  Fact,
  Facts,
  Loading,
  PageHeader,
  formatDateTime,
  formatNumber,
  useApi,
} from '../../components';
import { ReceiveForm } from './ReceiveForm';
import { ReturnStatusBadge } from './ReturnStatusBadge';
import { returnsApi, type ReturnDocument } from './returns-api';

/**
 * One return: its lines (announced and received), its receipts with each line's disposition, and for staff
 * with write on inbound the receive form while it is open or partially received, cancel while open and close
 * once anything was received.
 */
export default function ReturnDetailPage() {
  const rmaNo = useParams().rmaNo!;
  const tenantId = useSearchParams()[0].get('tenantId') ?? undefined;
  const { write } = usePermission('inbound');
  const loaded = useApi(['returns', rmaNo, tenantId], () => returnsApi.get(rmaNo, tenantId));
  const document = loaded.data;

  return (
    <Stack>
      <PageHeader title={`Return ${rmaNo}`} description="Received by staff, line by line, with a disposition each." />
      {loaded.error && <ErrorNotice error={loaded.error} />}
      {!document && loaded.loading && <Loading />}
      {document && (
        <>
          <Facts title="Return">
            <Fact term="Status">
              <ReturnStatusBadge status={document.status} />
            </Fact>
            <Fact term="Order">
              <span className="mono">{document.orderNo}</span>
            </Fact>
            <Fact term="Warehouse">{document.warehouseCode}</Fact>
            <Fact term="Announced">{formatDateTime(document.createdAt)}</Fact>
            <Fact term="Changed">{formatDateTime(document.updatedAt)}</Fact>
          </Facts>
          <Lines document={document} />
          {write && (document.status === 'open' || document.status === 'partially_received') && (
            <ReceiveForm key={document.updatedAt} document={document} tenantId={tenantId} onDone={loaded.reload} />
          )}
          {write && <Actions document={document} tenantId={tenantId} onDone={loaded.reload} />}
          <Receipts document={document} />
        </>
      )}
    </Stack>
  );
}

function Lines({ document }: { document: ReturnDocument }) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="md">
        Lines
      </Title>
      <Table verticalSpacing="xs" data-testid="return-lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>SKU</Table.Th>
            <Table.Th>Lot</Table.Th>
            <Table.Th ta="right">Announced</Table.Th>
            <Table.Th ta="right">Received</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {document.lines.map((line) => (
            <Table.Tr key={line.lineNo}>
              <Table.Td>{line.lineNo}</Table.Td>
              <Table.Td className="mono">{line.sku}</Table.Td>
              <Table.Td>{line.lotNo ?? '—'}</Table.Td>
              <Table.Td ta="right">{formatNumber(line.qty)}</Table.Td>
              <Table.Td ta="right">{formatNumber(line.receivedQty)}</Table.Td>
              <Table.Td>{line.reason ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function Actions(props: { document: ReturnDocument; tenantId: string | undefined; onDone: () => void }) {
  const { document, tenantId, onDone } = props;
  const canClose = document.status === 'partially_received' || document.status === 'received';
  if (document.status !== 'open' && !canClose) return null;
  return (
    <Group>
      {document.status === 'open' && (
        <ConfirmButton
          label="Cancel return"
          title={`Cancel return ${document.rmaNo}?`}
          message="Nothing of it was received; its quantities no longer count against the order."
          confirmLabel="Cancel return"
          color="red"
          onConfirm={() => returnsApi.cancel(document.rmaNo, tenantId)}
          onDone={onDone}
        />
      )}
      {canClose && (
        <ConfirmButton
          label="Close return"
          title={`Close return ${document.rmaNo}?`}
          message={
            document.status === 'received'
              ? 'Every line was received; closing files it.'
              : 'What was not received will not come: return.completed is sent now.'
          }
          confirmLabel="Close return"
          onConfirm={() => returnsApi.close(document.rmaNo, tenantId)}
          onDone={onDone}
        />
      )}
    </Group>
  );
}

function Receipts({ document }: { document: ReturnDocument }) {
  if (!document.receipts.length) return <Text c="dimmed">Nothing received yet.</Text>;
  return (
    <Paper withBorder radius="md" p="lg">
      <Title order={2} size="h4" mb="md">
        Receipts
      </Title>
      <Table verticalSpacing="xs" data-testid="return-receipts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Received</Table.Th>
            <Table.Th>SKU</Table.Th>
            <Table.Th>Lot</Table.Th>
            <Table.Th ta="right">Quantity</Table.Th>
            <Table.Th>Disposition</Table.Th>
            <Table.Th>Location</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {document.receipts.flatMap((receipt) =>
            receipt.lines.map((line) => (
              <Table.Tr key={`${receipt.id}-${line.lineNo}`}>
                <Table.Td>{formatDateTime(receipt.createdAt)}</Table.Td>
                <Table.Td className="mono">{line.sku}</Table.Td>
                <Table.Td>{line.lotNo ?? '—'}</Table.Td>
                <Table.Td ta="right">{formatNumber(line.qty)}</Table.Td>
                <Table.Td>{line.disposition}</Table.Td>
                <Table.Td>{line.locationCode ?? '—'}</Table.Td>
              </Table.Tr>
            )),
          )}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

import { Anchor, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePrincipal } from '../../auth';
import {
  ErrorNotice,
  Loading,
  PageHeader,
  TenantField,
  formatDateTime,
  formatNumber,
  useApi,
  useTenants,
} from '../../components';
import { ReturnStatusBadge } from './ReturnStatusBadge';
import { STATUS_LABELS, returnsApi, type ReturnStatus, type ReturnSummary } from './returns-api';

/** The path of a return's page; a cross-tenant user's carries the tenant. */
export function returnPath(rmaNo: string, tenantId: string | undefined): string {
  const path = `/returns/${encodeURIComponent(rmaNo)}`;
  return tenantId ? `${path}?tenantId=${tenantId}` : path;
}

/** Pages after the first that "Load more" added, for the list they belong to. */
interface MorePages {
  list: string;
  rows: ReturnSummary[];
  nextCursor: string | null;
}

/**
 * A tenant's customer returns (RMAs), oldest change first, filtered by status and by the shop's reference of
 * the returned order (what a customer quotes), a page at a time ("Load more"
 * reads the next); each opens its page, where staff receive it. A cross-tenant user picks the tenant first.
 */
export default function ReturnsPage() {
  const principal = usePrincipal();
  const tenants = useTenants();
  const [tenantId, setTenantId] = useState(principal.tenantId ?? '');
  const [status, setStatus] = useState<ReturnStatus | ''>('');
  const [reference, setReference] = useState('');
  const [referenceNo] = useDebouncedValue(reference.trim(), 250);
  const filter = { status: status || undefined, referenceNo: referenceNo || undefined };
  const chosen = Boolean(principal.tenantId || tenantId);
  const list = useApi(['returns', tenantId, status, referenceNo], () =>
    chosen ? returnsApi.list(tenantId || undefined, filter) : Promise.resolve(null),
  );
  const listKey = `${tenantId}/${status}/${referenceNo}`;
  const [more, setMore] = useState<MorePages | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailure, setMoreFailure] = useState<unknown>();
  const added = more?.list === listKey ? more : null;
  const rows = list.data ? [...list.data.items, ...(added?.rows ?? [])] : null;
  const nextCursor = added ? added.nextCursor : (list.data?.nextCursor ?? null);

  const loadMore = async (cursor: string) => {
    setLoadingMore(true);
    setMoreFailure(undefined);
    try {
      const page = await returnsApi.list(tenantId || undefined, filter, cursor);
      setMore({ list: listKey, rows: [...(added?.rows ?? []), ...page.items], nextCursor: page.nextCursor });
    } catch (error) {
      setMoreFailure(error);
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <Stack>
      <PageHeader
        title="Returns"
        description="Customer returns (RMAs) announced by the shop or ERP for shipped orders; open one to receive it."
      />
      <Group align="flex-end">
        <TenantField value={tenantId} onChange={setTenantId} tenants={tenants} noneLabel="Choose a tenant" />
        <Select
          label="Status"
          data={[
            { value: '', label: 'Any status' },
            ...(Object.keys(STATUS_LABELS) as ReturnStatus[]).map((value) => ({ value, label: STATUS_LABELS[value] })),
          ]}
          value={status}
          onChange={(value) => setStatus((value ?? '') as ReturnStatus | '')}
          allowDeselect={false}
        />
        <TextInput
          label="Order reference"
          description="The shop's own order number"
          placeholder="e.g. SHOP-1001"
          value={reference}
          onChange={(event) => setReference(event.currentTarget.value)}
        />
      </Group>
      {!chosen && <Text c="dimmed">Choose a tenant to see its returns.</Text>}
      {list.error && <ErrorNotice error={list.error} />}
      {chosen && !list.data && list.loading && <Loading />}
      {rows && rows.length === 0 && <Text c="dimmed">No returns.</Text>}
      {rows && rows.length > 0 && <ReturnsTable returns={rows} tenantId={principal.tenantId ? undefined : tenantId} />}
      {moreFailure !== undefined && <ErrorNotice error={moreFailure} />}
      {nextCursor && (
        <Group>
          <Button variant="light" loading={loadingMore} onClick={() => void loadMore(nextCursor)}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function ReturnsTable({ returns, tenantId }: { returns: ReturnSummary[]; tenantId: string | undefined }) {
  return (
    <Table striped withTableBorder verticalSpacing="sm" data-testid="returns-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>RMA</Table.Th>
          <Table.Th>Order</Table.Th>
          <Table.Th>Warehouse</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th ta="right">Received / announced</Table.Th>
          <Table.Th>Changed</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {returns.map((row) => (
          <Table.Tr key={row.id}>
            <Table.Td>
              <Anchor component={Link} to={returnPath(row.rmaNo, tenantId)} className="mono">
                {row.rmaNo}
              </Anchor>
            </Table.Td>
            <Table.Td className="mono">{row.orderNo}</Table.Td>
            <Table.Td>{row.warehouseCode}</Table.Td>
            <Table.Td>
              <ReturnStatusBadge status={row.status} />
            </Table.Td>
            <Table.Td ta="right">
              {formatNumber(row.receivedQty)} / {formatNumber(row.qty)}
            </Table.Td>
            <Table.Td>{formatDateTime(row.updatedAt)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

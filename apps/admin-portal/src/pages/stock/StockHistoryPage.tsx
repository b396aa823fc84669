import { Anchor, Badge, Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { usePrincipal } from '../../auth';
import {
  ErrorNotice,
  Loading,
  PageHeader,
  TenantField,
  formatDateTime,
  formatNumber,
  useTenants,
} from '../../components';
import { OrderPanel } from './OrderPanel';
import { ORDER_CAUSES, stockApi, type Movement, type MovementCause } from './stock-api';

const CAUSE_COLORS: Record<MovementCause, string> = {
  grn: 'green',
  allocation: 'blue',
  release: 'gray',
  pick: 'indigo',
  shipment: 'violet',
  adjustment: 'orange',
  cycle_count: 'yellow',
  return: 'teal',
  simulation: 'pink',
};

const signed = (qty: number) => (qty > 0 ? `+${formatNumber(qty)}` : formatNumber(qty));

/**
 * A stock item's history: every movement of the inventory ledger for one sku, oldest first, with its cause,
 * its document (an order's opens the order) and the balance after it; more pages on demand. The sku and
 * tenant are in the address, so a history can be linked to.
 */
export default function StockHistoryPage() {
  const principal = usePrincipal();
  const tenants = useTenants();
  const [params, setParams] = useSearchParams();
  const sku = params.get('sku') ?? '';
  const tenantId = principal.tenantId ?? params.get('tenantId') ?? '';
  const [draft, setDraft] = useState({ sku, tenantId });
  const [movements, setMovements] = useState<Movement[] | null>(null);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [order, setOrder] = useState<string | null>(null);
  const [loaded, setLoaded] = useState('');

  const load = async (cursor?: string) => {
    setLoading(true);
    setFailure(undefined);
    try {
      const page = await stockApi.movements({ sku, tenantId: tenantId || undefined, cursor, limit: 100 });
      setMovements((shown) => [...(cursor && shown ? shown : []), ...page.data]);
      setNextCursor(page.nextCursor);
    } catch (error) {
      setFailure(error);
      setMovements(null);
    } finally {
      setLoading(false);
    }
  };
  const key = `${tenantId}/${sku}`;
  if (sku && loaded !== key) {
    setLoaded(key);
    void load();
  }

  const show = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams({ sku: draft.sku.trim() });
    if (!principal.tenantId && draft.tenantId) next.set('tenantId', draft.tenantId);
    setParams(next);
  };

  return (
    <Stack>
      <PageHeader
        title="Stock history"
        description="Every change of an item's stock from the inventory ledger: what changed on hand and allocated, why, by which document and who asked."
      />
      <Paper withBorder p="md" component="form" onSubmit={show}>
        <Group align="flex-end">
          <TenantField
            value={draft.tenantId}
            onChange={(value) => setDraft({ ...draft, tenantId: value })}
            tenants={tenants}
            noneLabel="Choose a tenant"
          />
          <TextInput
            label="SKU"
            value={draft.sku}
            onChange={(event) => setDraft({ ...draft, sku: event.currentTarget.value })}
            required
          />
          <Button type="submit" disabled={!draft.sku.trim()}>
            Show history
          </Button>
        </Group>
      </Paper>
      {failure !== undefined && <ErrorNotice error={failure} />}
      {!movements && loading && <Loading />}
      {movements && movements.length === 0 && <Text c="dimmed">No movements of {sku}.</Text>}
      {movements && movements.length > 0 && <MovementsTable movements={movements} onOrder={setOrder} />}
      {nextCursor && (
        <Group>
          <Button variant="light" loading={loading} onClick={() => void load(nextCursor)}>
            Load more
          </Button>
        </Group>
      )}
      <OrderPanel orderNo={order} tenantId={tenantId || undefined} onClose={() => setOrder(null)} />
    </Stack>
  );
}

function MovementsTable({ movements, onOrder }: { movements: Movement[]; onOrder: (orderNo: string) => void }) {
  return (
    <Table striped withTableBorder verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>At</Table.Th>
          <Table.Th>Warehouse / location</Table.Th>
          <Table.Th>Lot</Table.Th>
          <Table.Th>Cause</Table.Th>
          <Table.Th>Document</Table.Th>
          <Table.Th ta="right">On hand</Table.Th>
          <Table.Th ta="right">Allocated</Table.Th>
          <Table.Th ta="right">On hand after</Table.Th>
          <Table.Th>By</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {movements.map((movement) => (
          <Table.Tr key={movement.id} data-testid={`movement-${movement.id}`}>
            <Table.Td>{formatDateTime(movement.at)}</Table.Td>
            <Table.Td>
              {movement.warehouseCode} / {movement.locationCode}
            </Table.Td>
            <Table.Td>{movement.lotNo ?? '—'}</Table.Td>
            <Table.Td>
              <Badge color={CAUSE_COLORS[movement.cause]} variant="light">
                {movement.cause.replace('_', ' ')}
              </Badge>
            </Table.Td>
            <Table.Td>
              <DocumentCell movement={movement} onOrder={onOrder} />
            </Table.Td>
            <Table.Td ta="right">{movement.qtyOnHandDelta ? signed(movement.qtyOnHandDelta) : ''}</Table.Td>
            <Table.Td ta="right">{movement.qtyAllocatedDelta ? signed(movement.qtyAllocatedDelta) : ''}</Table.Td>
            <Table.Td ta="right">{formatNumber(movement.qtyOnHandAfter)}</Table.Td>
            <Table.Td>
              {movement.caller ? (movement.caller.type === 'api_key' ? 'API key' : 'user') : 'system'}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function DocumentCell({ movement, onOrder }: { movement: Movement; onOrder: (orderNo: string) => void }) {
  const documentNo = movement.documentNo;
  if (!documentNo)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  if (ORDER_CAUSES.includes(movement.cause)) {
    return (
      <Anchor component="button" type="button" size="sm" onClick={() => onOrder(documentNo)}>
        {documentNo}
      </Anchor>
    );
  }
  // An adjustment's or count's id is long: its start is enough to tell it apart.
  const short = /^[0-9a-f-]{36}$/.test(documentNo) ? `${documentNo.slice(0, 8)}…` : documentNo;
  return (
    <Text size="sm" title={documentNo}>
      {short}
    </Text>
  );
}

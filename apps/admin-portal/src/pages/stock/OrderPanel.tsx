import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { ErrorNotice, Loading, formatNumber, useApi } from '../../components';
import { stockApi } from './stock-api';

interface OrderLine {
  lineNo: number;
  sku: string;
  qtyOrdered: number;
  qtyAllocated: number;
  qtyPicked: number;
}

/**
 * The order a movement names: its state and lines, in a panel below the history (a region of the page, not a
 * dialog: no scroll lock, whose injected style the portal's Content-Security-Policy refuses).
 */
export function OrderPanel(props: { orderNo: string | null; tenantId?: string; onClose: () => void }) {
  if (!props.orderNo) return null;
  const title = `Order ${props.orderNo}`;
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Button variant="subtle" size="xs" onClick={props.onClose}>
          Close
        </Button>
      </Group>
      <OrderDetails orderNo={props.orderNo} tenantId={props.tenantId} />
    </Paper>
  );
}

function OrderDetails({ orderNo, tenantId }: { orderNo: string; tenantId?: string }) {
  const order = useApi(['stock-order', orderNo, tenantId], () => stockApi.order(orderNo, tenantId));
  if (order.error) return <ErrorNotice error={order.error} />;
  if (!order.data) return <Loading />;
  const data = order.data as { status: string; referenceNo: string; lines: OrderLine[] };
  return (
    <Stack>
      <Text>
        Status <Badge variant="light">{data.status}</Badge> · reference {data.referenceNo}
      </Text>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Line</Table.Th>
            <Table.Th>SKU</Table.Th>
            <Table.Th ta="right">Ordered</Table.Th>
            <Table.Th ta="right">Allocated</Table.Th>
            <Table.Th ta="right">Picked</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.lines.map((line) => (
            <Table.Tr key={line.lineNo}>
              <Table.Td>{line.lineNo}</Table.Td>
              <Table.Td>{line.sku}</Table.Td>
              <Table.Td ta="right">{formatNumber(line.qtyOrdered)}</Table.Td>
              <Table.Td ta="right">{formatNumber(line.qtyAllocated)}</Table.Td>
              <Table.Td ta="right">{formatNumber(line.qtyPicked)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

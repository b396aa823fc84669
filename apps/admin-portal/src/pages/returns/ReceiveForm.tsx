import { ActionIcon, Button, Group, NumberInput, Paper, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ErrorNotice, formatNumber } from '../../components';
import { returnsApi, type Disposition, type ReturnDocument } from './returns-api';

interface Row {
  key: number;
  sku: string;
  lotNo: string | null;
  open: number;
  qty: number | string;
  disposition: Disposition;
  locationCode: string;
}

const DISPOSITIONS: Array<{ value: Disposition; label: string; placeholder: string }> = [
  { value: 'restock', label: 'Restock', placeholder: 'RECEIVING' },
  { value: 'quarantine', label: 'Quarantine', placeholder: 'QUARANTINE' },
  { value: 'scrap', label: 'Scrap', placeholder: 'no stock' },
];

let nextKey = 0;

/** One row per line still open, all of it restocked at the default location until staff say otherwise. */
function rowsOf(document: ReturnDocument): Row[] {
  return document.lines
    .filter((line) => line.receivedQty < line.qty)
    .map((line) => {
      const open = Number((line.qty - line.receivedQty).toFixed(4));
      return {
        key: nextKey++,
        sku: line.sku,
        lotNo: line.lotNo,
        open,
        qty: open,
        disposition: 'restock',
        locationCode: '',
      };
    });
}

/**
 * Staff receive returned goods: per line the quantity that came back and what becomes of it (restock into a
 * location, quarantine, scrap). A line can be split over dispositions (+); a row left at 0 is not sent.
 */
export function ReceiveForm(props: { document: ReturnDocument; tenantId: string | undefined; onDone: () => void }) {
  const [rows, setRows] = useState<Row[]>(() => rowsOf(props.document));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const change = (key: number, patch: Partial<Row>) =>
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  const split = (row: Row) =>
    setRows((current) =>
      current.flatMap((each) => (each === row ? [each, { ...row, key: nextKey++, qty: 0 }] : [each])),
    );
  const sent = rows.filter((row) => Number(row.qty) > 0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      await returnsApi.receive(props.document.rmaNo, props.tenantId, {
        lines: sent.map((row) => ({
          sku: row.sku,
          qty: Number(row.qty),
          ...(row.lotNo ? { lotNo: row.lotNo } : {}),
          disposition: row.disposition,
          ...(row.disposition !== 'scrap' && row.locationCode.trim() ? { locationCode: row.locationCode.trim() } : {}),
        })),
      });
      props.onDone();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="lg" component="form" onSubmit={submit} data-testid="receive-form">
      <Title order={2} size="h4" mb="md">
        Receive
      </Title>
      <Table verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>SKU</Table.Th>
            <Table.Th>Lot</Table.Th>
            <Table.Th ta="right">Open</Table.Th>
            <Table.Th>Quantity</Table.Th>
            <Table.Th>Disposition</Table.Th>
            <Table.Th>Location</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const disposition = DISPOSITIONS.find((each) => each.value === row.disposition)!;
            return (
              <Table.Tr key={row.key}>
                <Table.Td className="mono">{row.sku}</Table.Td>
                <Table.Td>{row.lotNo ?? '—'}</Table.Td>
                <Table.Td ta="right">{formatNumber(row.open)}</Table.Td>
                <Table.Td>
                  <NumberInput
                    aria-label={`Quantity of ${row.sku}`}
                    value={row.qty}
                    onChange={(qty) => change(row.key, { qty })}
                    min={0}
                    max={row.open}
                    decimalScale={4}
                    w={110}
                  />
                </Table.Td>
                <Table.Td>
                  <Select
                    aria-label={`Disposition of ${row.sku}`}
                    data={DISPOSITIONS.map(({ value, label }) => ({ value, label }))}
                    value={row.disposition}
                    onChange={(value) => change(row.key, { disposition: (value ?? 'restock') as Disposition })}
                    allowDeselect={false}
                    w={140}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={`Location of ${row.sku}`}
                    value={row.disposition === 'scrap' ? '' : row.locationCode}
                    placeholder={disposition.placeholder}
                    disabled={row.disposition === 'scrap'}
                    onChange={(event) => change(row.key, { locationCode: event.currentTarget.value })}
                    w={140}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon variant="subtle" aria-label={`Split ${row.sku}`} onClick={() => split(row)}>
                    +
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed" mt="xs">
        Restock goes on hand where it can be allocated (default RECEIVING); quarantine to a location of type quarantine
        (default QUARANTINE, made on first use); scrap is recorded without stock.
      </Text>
      {failure !== undefined && <ErrorNotice error={failure} />}
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={busy} disabled={!sent.length}>
          Receive
        </Button>
      </Group>
    </Paper>
  );
}

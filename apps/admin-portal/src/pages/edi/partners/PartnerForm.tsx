import { Button, Checkbox, Fieldset, Group, NumberInput, Paper, Select, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { apiKeysApi, type Tenant, type TradingPartner, type TradingPartnerPatch } from '../../../api';
import { usePermission } from '../../../auth';
import { TenantField, useApi } from '../../../components';
import classes from './PartnerForm.module.css';

const INBOUND = [
  ['940', '940 Warehouse Shipping Order (an order)'],
  ['943', '943 Stock Transfer Shipment Advice (an ASN)'],
  ['856', '856 Ship Notice (an ASN)'],
  ['997', '997 Functional Acknowledgment of what we send'],
] as const;
const OUTBOUND = [
  ['944', '944 Stock Transfer Receipt Advice (a receipt)'],
  ['945', '945 Warehouse Shipping Advice (a shipment)'],
  ['947', '947 Inventory Adjustment Advice (an adjustment or count)'],
  ['846', '846 Inventory Inquiry/Advice (stock, scheduled or on demand)'],
  ['997', '997 Functional Acknowledgment of what we receive'],
] as const;

type Party = { qualifier: string; interchangeId: string; groupCode: string };

export interface PartnerFormValues {
  tenantId: string;
  name: string;
  partner: Party;
  us: Party;
  usageIndicator: 'P' | 'T';
  separators: { element: string; component: string; segment: string };
  inboundSets: string[];
  outboundSets: string[];
  warehouseCode: string;
  shipFromName: string;
  inventoryAdviceMinutes: number | '';
  ackOverdueHours: number | '';
  apiKeyId: string;
  sftpUsername: string;
}

export function initialPartnerValues(partner?: TradingPartner, tenantId = ''): PartnerFormValues {
  return {
    tenantId: partner?.tenantId ?? tenantId,
    name: partner?.name ?? '',
    partner: partner?.partner ?? { qualifier: 'ZZ', interchangeId: '', groupCode: '' },
    us: partner?.us ?? { qualifier: 'ZZ', interchangeId: '', groupCode: '' },
    usageIndicator: partner?.usageIndicator ?? 'P',
    separators: partner?.separators ?? { element: '*', component: '>', segment: '~' },
    inboundSets: partner?.inboundSets ?? INBOUND.map(([code]) => code),
    outboundSets: partner?.outboundSets ?? OUTBOUND.map(([code]) => code),
    warehouseCode: partner?.warehouseCode ?? '',
    shipFromName: partner?.shipFrom?.name ?? '',
    inventoryAdviceMinutes: partner?.inventoryAdviceMinutes ?? '',
    ackOverdueHours: partner?.ackOverdueHours ?? 24,
    apiKeyId: partner?.apiKeyId ?? '',
    sftpUsername: partner?.sftpUsername ?? '',
  };
}

/** The settings as the API takes them (a create adds tenantId); empty optional fields are null. */
export function partnerRequest(values: PartnerFormValues) {
  return {
    name: values.name,
    partner: values.partner,
    us: values.us,
    usageIndicator: values.usageIndicator,
    separators: values.separators,
    inboundSets: values.inboundSets,
    outboundSets: values.outboundSets,
    warehouseCode: values.warehouseCode || null,
    shipFrom: values.shipFromName ? { name: values.shipFromName } : null,
    inventoryAdviceMinutes: values.inventoryAdviceMinutes === '' ? null : values.inventoryAdviceMinutes,
    ackOverdueHours: values.ackOverdueHours === '' ? 24 : values.ackOverdueHours,
    apiKeyId: values.apiKeyId || null,
    ...(values.sftpUsername ? { sftpUsername: values.sftpUsername } : {}),
  } as TradingPartnerPatch;
}

function PartyFields(props: { legend: string; side: string; value: Party; onChange: (party: Party) => void }) {
  const set = (field: keyof Party) => (event: { currentTarget: { value: string } }) =>
    props.onChange({ ...props.value, [field]: event.currentTarget.value });
  return (
    <Fieldset legend={props.legend}>
      <div className={classes.grid}>
        <TextInput
          label={`${props.side} ISA qualifier`}
          description="Two characters, e.g. ZZ (mutually defined), 01 (DUNS), 12 (phone)"
          value={props.value.qualifier}
          onChange={set('qualifier')}
          required
        />
        <TextInput
          label={`${props.side} ISA ID`}
          description="Up to 15 characters; the envelope pads it"
          value={props.value.interchangeId}
          onChange={set('interchangeId')}
          required
        />
        <TextInput
          label={`${props.side} GS code`}
          description="2 to 15 characters (GS02/GS03)"
          value={props.value.groupCode}
          onChange={set('groupCode')}
          required
        />
      </div>
    </Fieldset>
  );
}

/** A trading partner's settings, each field with what it means in the X12 envelopes. */
export function PartnerForm(props: {
  mode: 'create' | 'edit';
  initial: PartnerFormValues;
  tenants: Tenant[] | null;
  submitLabel: string;
  error: ReactNode;
  onSubmit: (values: PartnerFormValues) => Promise<void>;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const keysReadable = usePermission('api-keys').read;
  const keys = useApi(['api-keys', 'edi-form', keysReadable], () =>
    keysReadable ? apiKeysApi.list() : Promise.resolve([]),
  );
  const change = <K extends keyof PartnerFormValues>(field: K, value: PartnerFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const text =
    (field: 'name' | 'warehouseCode' | 'shipFromName' | 'sftpUsername') =>
    (event: { currentTarget: { value: string } }) =>
      change(field, event.currentTarget.value);
  const separator = (field: 'element' | 'component' | 'segment') => (event: { currentTarget: { value: string } }) =>
    change('separators', { ...values.separators, [field]: event.currentTarget.value });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await props.onSubmit(values);
    } finally {
      setBusy(false);
    }
  };
  const tenantKeys = (keys.data ?? []).filter((key) => key.active && key.tenantId === (values.tenantId || null));

  return (
    <Paper withBorder radius="md" p="lg" component="form" onSubmit={submit} maw={960}>
      <Stack gap="md">
        {props.mode === 'create' && (
          <TenantField
            value={values.tenantId}
            onChange={(tenantId) => change('tenantId', tenantId)}
            tenants={props.tenants}
            noneLabel="Choose a tenant"
          />
        )}
        <TextInput
          label="Name"
          description="How people here call the partner"
          value={values.name}
          onChange={text('name')}
          required
        />
        <PartyFields
          legend="The partner"
          side="Partner"
          value={values.partner}
          onChange={(party) => change('partner', party)}
        />
        <PartyFields
          legend="Us, as the partner knows us"
          side="Our"
          value={values.us}
          onChange={(party) => change('us', party)}
        />
        <Fieldset legend="Envelopes we write">
          <div className={classes.grid}>
            <Select
              label="Usage"
              description="ISA15"
              data={[
                { value: 'P', label: 'P — production' },
                { value: 'T', label: 'T — test' },
              ]}
              value={values.usageIndicator}
              onChange={(value) => change('usageIndicator', (value ?? 'P') as 'P' | 'T')}
              allowDeselect={false}
            />
            <TextInput
              label="Element separator"
              description="One character, e.g. *"
              maxLength={1}
              value={values.separators.element}
              onChange={separator('element')}
            />
            <TextInput
              label="Component separator"
              description="ISA16, e.g. >"
              maxLength={1}
              value={values.separators.component}
              onChange={separator('component')}
            />
            <TextInput
              label="Segment terminator"
              description="One character, e.g. ~"
              maxLength={1}
              value={values.separators.segment}
              onChange={separator('segment')}
            />
          </div>
        </Fieldset>
        <div className={classes.grid}>
          <Checkbox.Group
            label="Sets the partner sends"
            description="Version 004010"
            value={values.inboundSets}
            onChange={(sets) => change('inboundSets', sets)}
          >
            <Stack gap={6} mt="xs">
              {INBOUND.map(([code, label]) => (
                <Checkbox key={code} value={code} label={label} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Checkbox.Group
            label="Sets we send"
            description="From the events of the partner's tenant"
            value={values.outboundSets}
            onChange={(sets) => change('outboundSets', sets)}
          >
            <Stack gap={6} mt="xs">
              {OUTBOUND.map(([code, label]) => (
                <Checkbox key={code} value={code} label={label} />
              ))}
            </Stack>
          </Checkbox.Group>
        </div>
        <div className={classes.grid}>
          <TextInput
            label="Default warehouse"
            description="Code of the warehouse a document naming none is mapped to"
            value={values.warehouseCode}
            onChange={text('warehouseCode')}
          />
          <TextInput
            label="Ship-from name"
            description="N1*SF of our advices; empty: none"
            value={values.shipFromName}
            onChange={text('shipFromName')}
          />
          <NumberInput
            label="846 every (minutes)"
            description="15 to 10080; empty: only on demand"
            min={15}
            max={10080}
            value={values.inventoryAdviceMinutes}
            onChange={(value) => change('inventoryAdviceMinutes', value === '' ? '' : Number(value))}
          />
          <NumberInput
            label="Acknowledgment overdue after (hours)"
            description="An advice without the partner's 997 for this long is marked overdue"
            min={1}
            max={720}
            value={values.ackOverdueHours}
            onChange={(value) => change('ackOverdueHours', value === '' ? '' : Number(value))}
          />
          <Select
            label="API key for POST /edi"
            description={
              keysReadable
                ? "An active key of the partner's tenant; its calls speak for this partner"
                : 'Needs read on API keys'
            }
            data={[
              { value: '', label: 'None' },
              ...tenantKeys.map((key) => ({ value: key.id, label: `${key.name} (${key.keyPrefix}…)` })),
            ]}
            value={values.apiKeyId}
            onChange={(value) => change('apiKeyId', value ?? '')}
            disabled={!keysReadable}
            allowDeselect={false}
          />
          <TextInput
            label="SFTP user name"
            description="3 to 32 lower-case letters, digits, . _ -; empty: made from the name"
            value={values.sftpUsername}
            onChange={text('sftpUsername')}
          />
        </div>
        {props.error}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

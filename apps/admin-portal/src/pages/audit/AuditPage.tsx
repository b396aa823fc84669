import { Autocomplete, Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { auditApi, type AuditEntry, type AuditFilter } from '../../api';
import { ErrorNotice, Loading, PageHeader } from '../../components';
import { AuditTable } from './AuditTable';

const ENTITY_TYPES = ['api_key', 'user', 'webhook_subscription'];
const PAGE_SIZE = 50;

/** The filter as the form holds it: times in the browser's local time (`datetime-local`). */
interface FilterForm {
  entityType: string;
  entityId: string;
  actorEmail: string;
  action: string;
  from: string;
  to: string;
}

const FIELDS: Array<keyof FilterForm> = ['entityType', 'entityId', 'actorEmail', 'action', 'from', 'to'];

function formOf(params: URLSearchParams): FilterForm {
  return Object.fromEntries(FIELDS.map((field) => [field, params.get(field) ?? ''])) as unknown as FilterForm;
}

function toQuery(form: FilterForm): AuditFilter {
  const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);
  return {
    entityType: form.entityType.trim() || undefined,
    entityId: form.entityId.trim() || undefined,
    actorEmail: form.actorEmail.trim() || undefined,
    action: form.action.trim() || undefined,
    from: instant(form.from),
    to: instant(form.to),
  };
}

/**
 * Who changed what (module `audit`), newest first, filtered by entity, actor, action and time. The filter
 * lives in the address, so a filtered view can be linked to; a tenant-bound user sees its tenant's only.
 */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const applied = formOf(params);
  const [form, setForm] = useState<FilterForm>(applied);
  const [entries, setEntries] = useState<AuditEntry[]>();
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const key = params.toString();

  useEffect(() => {
    let current = true;
    setForm(formOf(new URLSearchParams(key)));
    setBusy(true);
    auditApi.list({ ...toQuery(formOf(new URLSearchParams(key))), limit: PAGE_SIZE }).then(
      (page) => {
        if (!current) return;
        setEntries(page.items);
        setNextCursor(page.nextCursor);
        setError(undefined);
        setBusy(false);
      },
      (failure: unknown) => {
        if (!current) return;
        setError(failure);
        setBusy(false);
      },
    );
    return () => {
      current = false;
    };
  }, [key]);

  const loadMore = async () => {
    if (!nextCursor) return;
    setBusy(true);
    try {
      const page = await auditApi.list({ ...toQuery(applied), limit: PAGE_SIZE, cursor: nextCursor });
      setEntries((shown) => [...(shown ?? []), ...page.items]);
      setNextCursor(page.nextCursor);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const field of FIELDS) if (form[field].trim()) next.set(field, form[field].trim());
    setParams(next);
  };
  const set = (field: keyof FilterForm) => (value: string) => setForm((current) => ({ ...current, [field]: value }));
  const filtered = FIELDS.some((field) => applied[field]);

  return (
    <>
      <PageHeader title="Audit log" description="Who changed what, newest first." />
      <form onSubmit={apply} aria-label="Filter the audit log">
        <Paper withBorder radius="md" p="md" mb="md">
          <Group align="flex-end" gap="sm">
            <Autocomplete
              label="Entity type"
              placeholder="user, api_key…"
              data={ENTITY_TYPES}
              value={form.entityType}
              onChange={set('entityType')}
              w={190}
            />
            <TextInput
              label="Entity id"
              value={form.entityId}
              onChange={(event) => set('entityId')(event.currentTarget.value)}
              w={300}
            />
            <TextInput
              label="Actor e-mail"
              placeholder="part of the e-mail"
              value={form.actorEmail}
              onChange={(event) => set('actorEmail')(event.currentTarget.value)}
              w={220}
            />
            <TextInput
              label="Action"
              placeholder="user.disabled"
              value={form.action}
              onChange={(event) => set('action')(event.currentTarget.value)}
              w={170}
            />
            <TextInput
              label="From"
              type="datetime-local"
              value={form.from}
              onChange={(event) => set('from')(event.currentTarget.value)}
              w={200}
            />
            <TextInput
              label="Until"
              type="datetime-local"
              value={form.to}
              onChange={(event) => set('to')(event.currentTarget.value)}
              w={200}
            />
            <Group gap="xs">
              <Button type="submit">Apply filters</Button>
              {filtered && (
                <Button variant="default" onClick={() => setParams(new URLSearchParams())}>
                  Clear
                </Button>
              )}
            </Group>
          </Group>
        </Paper>
      </form>
      <ErrorNotice error={error} title="The audit log could not be loaded" />
      {!entries ? (
        <Loading />
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" role="status" data-testid="audit-count">
            {entries.length === 0
              ? 'No entries.'
              : `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}${nextCursor ? ' shown; more below' : ''}`}
          </Text>
          <AuditTable entries={entries} empty={filtered ? 'No entry matches the filter.' : 'No entries yet.'} />
          {nextCursor && (
            <Group justify="center">
              <Button variant="default" onClick={loadMore} loading={busy}>
                Load older entries
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </>
  );
}

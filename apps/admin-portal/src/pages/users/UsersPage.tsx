import { Anchor, Button, Group, Paper, Select, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { usersApi, type Role, type UserStatus } from '../../api';
import { usePermission } from '../../auth';
import {
  ConfirmButton,
  ErrorNotice,
  Loading,
  PageHeader,
  formatRelative,
  tenantLabel,
  useApi,
  useTenants,
} from '../../components';
import { ROLES } from './modules';
import { ModuleBadges, UserStatusBadge } from './UserBadges';

/**
 * The users the signed-in user may see (a tenant-bound user: its tenant's), searched and filtered by the API;
 * a locked user it may manage has an Unlock action.
 */
export default function UsersPage() {
  const { write } = usePermission('users');
  const tenants = useTenants();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [q] = useDebouncedValue(search.trim(), 250);
  const { data, error, loading, reload } = useApi(['users', 'list', q, role, status], () =>
    usersApi.list({
      q: q || undefined,
      role: (role as Role) ?? undefined,
      status: (status as UserStatus) ?? undefined,
    }),
  );
  const filtered = Boolean(q || role || status);

  return (
    <>
      <PageHeader
        title="Users"
        description="People who sign in to the API and this portal, their roles and module permissions."
        actions={
          write && (
            <Button component={Link} to="/users/new">
              Create user
            </Button>
          )
        }
      />
      <Group mb="md" align="flex-end">
        <TextInput
          label="Search users"
          placeholder="E-mail or name"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={300}
        />
        <Select label="Role" placeholder="Any role" data={ROLES} value={role} onChange={setRole} clearable w={170} />
        <Select
          label="Status"
          placeholder="Any status"
          data={[
            { value: 'active', label: 'active' },
            { value: 'inactive', label: 'disabled' },
            { value: 'locked', label: 'locked' },
          ]}
          value={status}
          onChange={setStatus}
          clearable
          w={170}
        />
      </Group>
      <ErrorNotice error={error} />
      {loading && !data ? (
        <Loading />
      ) : (
        <Paper withBorder radius="md">
          <Table striped highlightOnHover verticalSpacing="sm" data-testid="users-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>User</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Modules</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                {write && (
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                )}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>
                    <Stack gap={0}>
                      <Anchor component={Link} to={`/users/${user.id}`} fw={500}>
                        {user.email}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}
                      </Text>
                    </Stack>
                  </Table.Td>
                  <Table.Td>{user.role}</Table.Td>
                  <Table.Td>{tenantLabel(user.tenantId, tenants, 'cross-tenant')}</Table.Td>
                  <Table.Td>
                    <ModuleBadges user={user} />
                  </Table.Td>
                  <Table.Td>
                    <UserStatusBadge status={user.status} />
                  </Table.Td>
                  <Table.Td>{user.lastLoginAt ? formatRelative(user.lastLoginAt) : 'never'}</Table.Td>
                  {write && (
                    <Table.Td>
                      {user.status === 'locked' && user.canManage && (
                        <ConfirmButton
                          label="Unlock"
                          size="xs"
                          title={`Unlock ${user.email}?`}
                          message="The failed sign-in count is reset and the user can sign in again."
                          confirmLabel="Unlock user"
                          color="green"
                          onConfirm={() => usersApi.unlock(user.id)}
                          onDone={reload}
                        />
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {data?.length === 0 && (
            <Text c="dimmed" ta="center" py="lg">
              {filtered ? 'No user matches.' : 'No users yet.'}
            </Text>
          )}
        </Paper>
      )}
    </>
  );
}

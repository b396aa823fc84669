import { Alert, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { auditApi, usersApi, type UserRecord } from '../../api';
import { usePermission, usePrincipal } from '../../auth';
import {
  ConfirmButton,
  ErrorNotice,
  Fact,
  Facts,
  Loading,
  PageHeader,
  formatDateTime,
  formatRelative,
  tenantLabel,
  useApi,
  useTenants,
} from '../../components';
import { AuditTable } from '../audit';
import { ModuleBadges, UserStatusBadge } from './UserBadges';
import { UserEditForm } from './UserEditForm';

function Account({ user }: { user: UserRecord }) {
  const tenants = useTenants();
  return (
    <Facts title="Account">
      <Fact term="Name">{[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}</Fact>
      <Fact term="Role">{user.role}</Fact>
      <Fact term="Modules">
        <ModuleBadges user={user} />
      </Fact>
      <Fact term="Tenant">{tenantLabel(user.tenantId, tenants, 'cross-tenant')}</Fact>
      <Fact term="Status">
        <UserStatusBadge status={user.status} />
      </Fact>
      <Fact term="Failed sign-ins">{user.failedLoginCount}</Fact>
      <Fact term="Last sign-in">{user.lastLoginAt ? formatRelative(user.lastLoginAt) : 'never'}</Fact>
      <Fact term="Created">{formatDateTime(user.createdAt)}</Fact>
    </Facts>
  );
}

/** A user's account, the changes the signed-in user may make to it, and its audit trail. */
export default function UserDetailPage() {
  const id = useParams().id!;
  const actor = usePrincipal();
  const { write } = usePermission('users');
  const audit = usePermission('audit');
  const user = useApi(['users', id], () => usersApi.get(id));
  const [saved, setSaved] = useState(false);
  const trail = useApi(['audit', 'user', id, audit.read], () =>
    audit.read ? auditApi.list({ entityType: 'user', entityId: id, limit: 50 }) : Promise.resolve(null),
  );

  if (user.error) return <ErrorNotice error={user.error} title="The user could not be loaded" />;
  if (!user.data) return <Loading />;
  const current = user.data;
  // The API decides whom the signed-in user may manage (rank, modules, tenant) and says so on each user.
  const manageable = write && current.canManage;
  const refresh = () => {
    setSaved(false);
    user.reload();
    trail.reload();
  };

  return (
    <Stack gap="lg">
      <PageHeader
        title={current.email}
        description={<UserStatusBadge status={current.status} />}
        actions={
          manageable && (
            <>
              {current.status === 'locked' && (
                <ConfirmButton
                  key="unlock"
                  label="Unlock"
                  title="Unlock this user?"
                  message="The failed sign-in count is reset and the user can sign in again."
                  confirmLabel="Unlock user"
                  color="green"
                  onConfirm={() => usersApi.unlock(id)}
                  onDone={refresh}
                />
              )}
              {current.status === 'inactive' ? (
                <ConfirmButton
                  key="enable"
                  label="Enable"
                  title="Enable this user?"
                  message="The user can sign in again."
                  confirmLabel="Enable user"
                  color="green"
                  variant="filled"
                  onConfirm={() => usersApi.enable(id)}
                  onDone={refresh}
                />
              ) : (
                <ConfirmButton
                  key="disable"
                  label="Disable"
                  title="Disable this user?"
                  message="The user cannot sign in or renew a session from now on; a token already issued lasts until it expires."
                  confirmLabel="Disable user"
                  color="red"
                  variant="outline"
                  onConfirm={() => usersApi.disable(id)}
                  onDone={refresh}
                />
              )}
            </>
          )
        }
      />
      {current.status === 'locked' && (
        <Alert color="red" variant="light" title="Locked">
          Too many wrong passwords in a row. Unlock the user to let it sign in.
        </Alert>
      )}
      {current.status === 'inactive' && (
        <Alert color="gray" variant="light" title="Disabled">
          The user cannot sign in until it is enabled.
        </Alert>
      )}
      {write && !current.canManage && current.id !== actor.sub && (
        <Alert color="gray" variant="light" title="Not yours to change">
          You change only users ranked below you who hold no module you lack; an admin changes this one.
        </Alert>
      )}
      {current.id === actor.sub && (
        <Alert color="blue" variant="light" title="This is you">
          Another user with the users module changes your role, modules and status.
        </Alert>
      )}
      <Account user={current} />
      {saved && (
        <Alert
          color="green"
          variant="light"
          role="status"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setSaved(false)}
        >
          Saved. The user’s next sign-in or session renewal carries the new role and permissions.
        </Alert>
      )}
      {manageable && (
        <UserEditForm
          key={current.updatedAt}
          user={current}
          actor={actor}
          onSaved={() => {
            refresh();
            setSaved(true);
          }}
        />
      )}
      {audit.read && (
        <section aria-labelledby="trail-title">
          <Title order={2} size="h4" id="trail-title" mb="sm">
            Audit trail
          </Title>
          <ErrorNotice error={trail.error} />
          {trail.data ? <AuditTable entries={trail.data.items} /> : <Text c="dimmed">Loading…</Text>}
        </section>
      )}
    </Stack>
  );
}

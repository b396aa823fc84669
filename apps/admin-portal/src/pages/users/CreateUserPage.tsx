import { Button, Group, Paper, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { usersApi, type Role } from '../../api';
import { usePrincipal } from '../../auth';
import { ErrorNotice, PageHeader, TenantField, useTenants } from '../../components';
import { ModuleAccessField } from './ModuleAccessField';
import classes from './UserForms.module.css';
import { accessOf, assignableRoles, modulesOf, type ModuleAccess } from './modules';

const NO_MODULES: ModuleAccess = accessOf({ adminModules: [], adminModulesWrite: [] });

/** A new user with its first password, role, tenant and module permissions. */
export default function CreateUserPage() {
  const actor = usePrincipal();
  const navigate = useNavigate();
  const tenants = useTenants();
  const roles = assignableRoles(actor);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [role, setRole] = useState<Role>(roles.includes('viewer') ? 'viewer' : roles[roles.length - 1]!);
  const [tenantId, setTenantId] = useState(actor.tenantId ?? '');
  const [modules, setModules] = useState<ModuleAccess>(NO_MODULES);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const created = await usersApi.create({
        email: email.trim(),
        password,
        firstName: firstName.trim(),
        lastName: lastName.trim(),
        role,
        tenantId: tenantId || null,
        ...modulesOf(modules),
      });
      navigate(`/users/${created.id}`, { replace: true });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title="Create user" description="The user signs in with this e-mail and password." />
      <form onSubmit={submit} noValidate>
        <Paper withBorder radius="md" p="lg" maw={820}>
          <Stack gap="md">
            <ErrorNotice error={error} title="The user was not created" />
            <div className={classes.two}>
              <TextInput
                label="E-mail"
                type="email"
                required
                autoComplete="off"
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
              />
              <PasswordInput
                label="Password"
                description="At least 8 characters; the user can change it later"
                required
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
              />
              <TextInput
                label="First name"
                value={firstName}
                onChange={(event) => setFirstName(event.currentTarget.value)}
              />
              <TextInput
                label="Last name"
                value={lastName}
                onChange={(event) => setLastName(event.currentTarget.value)}
              />
              <Select
                label="Role"
                required
                data={roles}
                value={role}
                onChange={(value) => value && setRole(value as Role)}
                allowDeselect={false}
              />
              <TenantField
                value={tenantId}
                onChange={setTenantId}
                tenants={tenants}
                noneLabel="Cross-tenant"
                description="A tenant-bound user sees and changes that tenant only"
              />
            </div>
            <ModuleAccessField value={modules} initial={NO_MODULES} actor={actor} onChange={setModules} role={role} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => navigate('/users')}>
                Cancel
              </Button>
              <Button type="submit" loading={busy}>
                Create user
              </Button>
            </Group>
          </Stack>
        </Paper>
      </form>
    </>
  );
}

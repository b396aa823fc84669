import { Button, Group, Paper, PasswordInput, Select, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { usersApi, type Principal, type Role, type UserPatch, type UserRecord } from '../../api';
import { ErrorNotice } from '../../components';
import { ModuleAccessField } from './ModuleAccessField';
import classes from './UserForms.module.css';
import { accessOf, assignableRoles, modulesOf } from './modules';

/**
 * Name, role and module permissions of a user the actor may manage; only what changed is sent. The e-mail
 * and a new password appear only when the API says the actor may set them (admins), never otherwise.
 */
export function UserEditForm({ user, actor, onSaved }: { user: UserRecord; actor: Principal; onSaved: () => void }) {
  const initialAccess = accessOf(user);
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [role, setRole] = useState<Role>(user.role);
  const [email, setEmail] = useState(user.email);
  const [password, setPassword] = useState('');
  const [modules, setModules] = useState(initialAccess);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const roles = [...new Set([...assignableRoles(actor), user.role])];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const before = modulesOf(initialAccess);
    const after = modulesOf(modules);
    const patch: UserPatch = {};
    if (firstName.trim() !== user.firstName) patch.firstName = firstName.trim();
    if (lastName.trim() !== user.lastName) patch.lastName = lastName.trim();
    if (role !== user.role) patch.role = role;
    if (user.canSetCredentials && email.trim().toLowerCase() !== user.email) patch.email = email.trim();
    if (user.canSetCredentials && password) patch.password = password;
    if (JSON.stringify(after.adminModules) !== JSON.stringify(before.adminModules))
      patch.adminModules = after.adminModules;
    if (JSON.stringify(after.adminModulesWrite) !== JSON.stringify(before.adminModulesWrite)) {
      patch.adminModulesWrite = after.adminModulesWrite;
    }
    if (Object.keys(patch).length === 0) return onSaved();
    setBusy(true);
    try {
      await usersApi.update(user.id, patch);
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="edit-title">
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md">
          <Title order={2} size="h4" id="edit-title">
            Role and permissions
          </Title>
          <ErrorNotice error={error} title="The changes were not saved" />
          <div className={classes.three}>
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
              data={roles}
              value={role}
              onChange={(value) => value && setRole(value as Role)}
              allowDeselect={false}
            />
          </div>
          {user.canSetCredentials && (
            <div className={classes.three}>
              <TextInput
                label="E-mail"
                type="email"
                autoComplete="off"
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
              />
              <PasswordInput
                label="New password"
                placeholder="Unchanged when empty"
                autoComplete="new-password"
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
              />
            </div>
          )}
          <ModuleAccessField value={modules} initial={initialAccess} actor={actor} onChange={setModules} role={role} />
          <Group justify="flex-end">
            <Button type="submit" loading={busy}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}

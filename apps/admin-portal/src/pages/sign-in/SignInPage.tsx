import { Alert, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { signIn, useSessionState } from '../../auth';
import { Loading } from '../../components';
import classes from './SignInPage.module.css';

/** E-mail and password; a refused sign-in shows the API's own message (wrong password, inactive or locked). */
export function SignInPage() {
  const state = useSessionState();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? '/';
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  if (state.status === 'loading') return <Loading label="Restoring your session" />;
  if (state.status === 'signed-in') return <Navigate to={from} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(email, password);
      navigate(from, { replace: true });
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  };

  return (
    <main className={classes.page}>
      <Paper className={classes.card} withBorder shadow="sm" p="xl" radius="md">
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <div>
              <Title order={1} size="h2">
                Sign in
              </Title>
              <Text c="dimmed" size="sm">
                WMS Integration Service administration
              </Text>
            </div>
            {error && (
              <Alert color="red" role="alert" title="Sign-in refused" data-testid="sign-in-error">
                {error}
              </Alert>
            )}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              data-autofocus
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Button type="submit" loading={busy} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </main>
  );
}

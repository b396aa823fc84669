import { Alert, Container } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import type { AdminModule } from '../api';
import { usePermission, useSessionState } from '../auth';
import { Loading } from '../components';

/** Pages behind sign-in: while the session is restored a loader shows; signed out goes to the sign-in page. */
export function RequireSession() {
  const state = useSessionState();
  const location = useLocation();
  if (state.status === 'loading') return <Loading label="Restoring your session" />;
  if (state.status === 'signed-out') {
    return <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />;
  }
  return <Outlet />;
}

/** A module's pages; the API enforces the same rule, this only spares a page of errors. */
export function RequireModule({ module }: { module: AdminModule }) {
  const { read } = usePermission(module);
  if (!read) {
    return (
      <Container size="sm" py="xl">
        <Alert color="yellow" title="No access" role="alert">
          Your account may not view {module}. Ask an administrator for the module.
        </Alert>
      </Container>
    );
  }
  return <Outlet />;
}

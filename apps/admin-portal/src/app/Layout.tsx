import { Badge, Button, Group, NavLink, Text } from '@mantine/core';
import { Suspense } from 'react';
import { NavLink as RouterLink, Outlet, useNavigate, useNavigation } from 'react-router';
import { openQueueConsole, signOut, usePrincipal } from '../auth';
import { Loading } from '../components';
import { navFor } from './nav';
import classes from './Layout.module.css';

/** The frame of every signed-in page: a skip link, the header with the user and sign-out, the navigation. */
export function Layout() {
  const principal = usePrincipal();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const items = navFor(principal);

  const onSignOut = async () => {
    await signOut();
    navigate('/sign-in', { replace: true });
  };

  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skip}>
        Skip to content
      </a>
      <header className={classes.header}>
        <Group gap="xs">
          <span className={classes.logo} aria-hidden="true">
            W
          </span>
          <Text fw={700}>WMS Integration</Text>
          <Text c="dimmed" size="sm">
            Admin portal
          </Text>
        </Group>
        <Group gap="sm">
          <Text size="sm" data-testid="signed-in-as">
            {principal.email}
          </Text>
          <Badge variant="light" color={principal.role === 'admin' ? 'grape' : 'gray'}>
            {principal.role}
          </Badge>
          <Button variant="default" size="xs" onClick={onSignOut}>
            Sign out
          </Button>
        </Group>
      </header>
      <nav className={classes.nav} aria-label="Main">
        {items.map((item) =>
          item.queueConsole ? (
            <NavLink key={item.to} component="button" label={item.label} onClick={openQueueConsole} />
          ) : (
            <NavLink key={item.to} component={RouterLink} to={item.to} end={item.to === '/'} label={item.label} />
          ),
        )}
      </nav>
      <main id="main" className={classes.main} tabIndex={-1}>
        {navigation.state === 'loading' ? (
          <Loading />
        ) : (
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        )}
      </main>
    </div>
  );
}

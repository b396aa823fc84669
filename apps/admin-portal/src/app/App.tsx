import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../api/query-client';
import { RouterProvider } from 'react-router';
import { router } from './routes';
import { theme } from './theme';

/**
 * No runtime style element: CSS variables and global classes come from the static stylesheet, and the colour
 * scheme is fixed to light (so nothing is kept in localStorage).
 */
export function App() {
  return (
    <MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false} forceColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireModule, RequireSession } from './guards';
import { Layout } from './Layout';
import { SignInPage } from '../pages/sign-in';
import { NotFoundPage } from './NotFoundPage';

/** Each capability is its own chunk, loaded when first opened; sign-in and the layout are in the first load. */
const page = (load: () => Promise<React.ComponentType>) => async () => ({ Component: await load() });
const apiKeys = () => import('../pages/api-keys');
const webhooks = () => import('../pages/webhooks');
const users = () => import('../pages/users');
const returns = () => import('../pages/returns');
const edi = () => import('../pages/edi');

const routes: RouteObject[] = [
  { path: '/sign-in', element: <SignInPage /> },
  {
    element: <RequireSession />,
    children: [
      {
        element: <Layout />,
        children: [
          { index: true, lazy: page(async () => (await import('../pages/overview')).default) },
          {
            path: 'api-keys',
            element: <RequireModule module="api-keys" />,
            children: [
              { index: true, lazy: page(async () => (await apiKeys()).ApiKeysPage) },
              { path: 'new', lazy: page(async () => (await apiKeys()).CreateApiKeyPage) },
              { path: ':id', lazy: page(async () => (await apiKeys()).ApiKeyDetailPage) },
              { path: ':id/edit', lazy: page(async () => (await apiKeys()).EditApiKeyPage) },
            ],
          },
          {
            path: 'webhooks',
            element: <RequireModule module="webhooks" />,
            children: [
              { index: true, lazy: page(async () => (await webhooks()).WebhooksPage) },
              { path: 'new', lazy: page(async () => (await webhooks()).CreateWebhookPage) },
              { path: ':id', lazy: page(async () => (await webhooks()).WebhookDetailPage) },
              { path: ':id/edit', lazy: page(async () => (await webhooks()).EditWebhookPage) },
            ],
          },
          {
            path: 'users',
            element: <RequireModule module="users" />,
            children: [
              { index: true, lazy: page(async () => (await users()).UsersPage) },
              { path: 'new', lazy: page(async () => (await users()).CreateUserPage) },
              { path: ':id', lazy: page(async () => (await users()).UserDetailPage) },
            ],
          },
          {
            path: 'edi/partners',
            element: <RequireModule module="edi" />,
            children: [
              { index: true, lazy: page(async () => (await edi()).PartnersPage) },
              { path: 'new', lazy: page(async () => (await edi()).CreatePartnerPage) },
              { path: ':id', lazy: page(async () => (await edi()).PartnerDetailPage) },
              { path: ':id/edit', lazy: page(async () => (await edi()).EditPartnerPage) },
              { path: ':id/documents/:documentId', lazy: page(async () => (await edi()).DocumentPage) },
            ],
          },
          {
            path: 'returns',
            element: <RequireModule module="inbound" />,
            children: [
              { index: true, lazy: page(async () => (await returns()).ReturnsPage) },
              { path: ':rmaNo', lazy: page(async () => (await returns()).ReturnDetailPage) },
            ],
          },
          {
            path: 'stock',
            element: <RequireModule module="inventory" />,
            children: [{ index: true, lazy: page(async () => (await import('../pages/stock')).default) }],
          },
          { path: 'imports', lazy: page(async () => (await import('../pages/imports')).default) },
          { path: 'tenants', lazy: page(async () => (await import('../pages/tenants')).default) },
          {
            path: 'audit',
            element: <RequireModule module="audit" />,
            children: [{ index: true, lazy: page(async () => (await import('../pages/audit')).default) }],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes, { basename: '/admin' });

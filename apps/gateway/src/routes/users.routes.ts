import { type Router } from 'express';
import type { TokenService } from '@wms/identity';
import type { Services } from '../services.js';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { personRoutes } from '../http/caller.js';
import { setNextPage } from '../http/next-page.js';
import { caseSensitiveRouter } from '../http/router.js';

/**
 * Users admin (module `users`); the privilege and tenant rules live in UsersService. The list is in e-mail
 * order, a page at a time (`limit`, `cursor`; see next-page.ts).
 */
export function usersRoutes(services: Services, tokens: TokenService): Router {
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens), requireModule('users'));
  const routes = personRoutes(router);

  routes.post('/', async (req, res) => {
    res.status(201).json(await services.users.create(req.principal, req.body));
  });

  routes.get('/', async (req, res) => {
    const page = await services.users.page(req.principal, req.query);
    setNextPage(req, res, page.nextCursor);
    res.json(page.data);
  });

  routes.get('/:id', async (req, res) => {
    res.json(await services.users.get(req.principal, req.params.id));
  });

  routes.patch('/:id', async (req, res) => {
    res.json(await services.users.update(req.principal, req.params.id, req.body));
  });

  routes.post('/:id/disable', async (req, res) => {
    res.json(await services.users.disable(req.principal, req.params.id));
  });

  routes.post('/:id/enable', async (req, res) => {
    res.json(await services.users.enable(req.principal, req.params.id));
  });

  routes.post('/:id/unlock', async (req, res) => {
    res.json(await services.users.unlock(req.principal, req.params.id));
  });

  return router;
}

import { Joi } from '@wms/platform';

export interface TenantInput {
  code: string;
  name: string;
  sandbox?: boolean;
}

export const createTenantSchema = Joi.object<TenantInput>({
  code: Joi.string()
    .trim()
    .pattern(/^[A-Za-z0-9_-]{1,64}$/)
    .required(),
  name: Joi.string().trim().min(1).max(200).required(),
  sandbox: Joi.boolean()
    .default(false)
    .description(
      'a sandbox tenant: its API keys may run simulations and its events carry "sandbox": true; fixed at creation',
    ),
});

import { Joi } from '@wms/platform';

export const createTenantSchema = Joi.object<{ code: string; name: string }>({
  code: Joi.string()
    .trim()
    .pattern(/^[A-Za-z0-9_-]{1,64}$/)
    .required(),
  name: Joi.string().trim().min(1).max(200).required(),
});

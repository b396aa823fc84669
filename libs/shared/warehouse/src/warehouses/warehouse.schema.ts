import { Joi } from '@wms/platform';

export const createWarehouseSchema = Joi.object<{ tenantId?: string; code: string; name: string }>({
  tenantId: Joi.string().uuid(),
  code: Joi.string()
    .trim()
    .pattern(/^[A-Za-z0-9_.-]{1,64}$/)
    .required(),
  name: Joi.string().trim().min(1).max(200).required(),
});

export const listWarehousesQuerySchema = Joi.object<{ tenantId?: string }>({ tenantId: Joi.string().uuid() });

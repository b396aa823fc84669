import { Joi, cursorSchema, isStorableText } from '@wms/platform';
import { LIST_LIMIT_MAX } from '@wms/platform';
import { adminModules, roles, type AdminModule, type Role } from '../access/index.js';
import type { UserStatus } from './user.model.js';
import { hasInvisibleCharacters, normalizeEmail } from './email.js';

export const PASSWORD_MIN_LENGTH = 8;
/** bcrypt reads only the first 72 bytes; a longer password would be silently cut, so it is refused. */
export const PASSWORD_MAX_BYTES = 72;

/** An e-mail as it is compared and stored (`normalizeEmail`); invisible characters are refused. */
const normalizedEmail = (value: string, helpers: Joi.CustomHelpers) =>
  hasInvisibleCharacters(value) ? helpers.error('email.invisible') : normalizeEmail(value);

/**
 * Syntax only: private domains such as `.local` or `.test` are accepted (the seeded admin is `admin@wms.local`).
 * Normalised first, so the length and syntax checked are those of the form stored.
 */
export const emailSchema = Joi.string()
  .custom(normalizedEmail)
  .max(254)
  .email({ tlds: { allow: false } })
  .messages({ 'email.invisible': '{{#label}} must not contain invisible characters' });

export const passwordSchema = Joi.string()
  .min(PASSWORD_MIN_LENGTH)
  .custom((value: string, helpers) =>
    Buffer.byteLength(value, 'utf8') > PASSWORD_MAX_BYTES ? helpers.error('string.maxBytes') : value,
  )
  .messages({ 'string.maxBytes': `{{#label}} must be at most ${PASSWORD_MAX_BYTES} bytes long` });

const nameSchema = Joi.string().trim().max(100).allow('');
const languageSchema = Joi.string()
  .pattern(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/)
  .max(35)
  .messages({
    'string.pattern.base': '{{#label}} must be a language code such as en or pt-BR',
  });
const modulesSchema = Joi.array()
  .items(Joi.string().valid(...adminModules))
  .unique();
const roleSchema = Joi.string().valid(...roles);

export interface CreateUserInput {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  role: Role;
  language?: string;
  tenantId?: string | null;
  adminModules?: AdminModule[];
  adminModulesWrite?: AdminModule[];
}

export const createUserSchema = Joi.object<CreateUserInput>({
  email: emailSchema.required(),
  password: passwordSchema.required(),
  firstName: nameSchema,
  lastName: nameSchema,
  role: roleSchema.required(),
  language: languageSchema,
  tenantId: Joi.string().uuid().allow(null),
  adminModules: modulesSchema,
  adminModulesWrite: modulesSchema,
});

export type UpdateUserInput = Partial<Omit<CreateUserInput, 'role'>> & { role?: Role };

export const updateUserSchema = Joi.object<UpdateUserInput>({
  email: emailSchema,
  password: passwordSchema,
  firstName: nameSchema,
  lastName: nameSchema,
  role: roleSchema,
  language: languageSchema,
  tenantId: Joi.string().uuid().allow(null),
  adminModules: modulesSchema,
  adminModulesWrite: modulesSchema,
})
  .min(1)
  .messages({ 'object.min': 'at least one field must be given' });

export interface ListUsersQuery {
  tenantId?: string;
  status?: UserStatus;
  role?: Role;
  /** Part of the e-mail, first or last name, any case. */
  q?: string;
  limit: number;
  /** The e-mail the previous page ended with (decoded from its cursor). */
  cursor?: string;
}

/** The users list is in e-mail order; its cursor is the last e-mail of a page, opaque to clients. */
export function encodeUserCursor(email: string): string {
  return Buffer.from(JSON.stringify([email])).toString('base64url');
}

export function decodeUserCursor(cursor: string): string | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 1) return null;
    const [email] = value;
    return typeof email === 'string' && isStorableText(email) ? email : null;
  } catch {
    return null;
  }
}

export const listUsersQuerySchema = Joi.object<ListUsersQuery>({
  tenantId: Joi.string().uuid(),
  status: Joi.string().valid('active', 'inactive', 'locked'),
  role: roleSchema,
  q: Joi.string().trim().min(1).max(254),
  limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(100),
  cursor: cursorSchema(decodeUserCursor, 400),
});

export interface RegisterInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export const registerSchema = Joi.object<RegisterInput>({
  email: emailSchema.required(),
  password: passwordSchema.required(),
  firstName: Joi.string().trim().min(1).max(100).required(),
  lastName: Joi.string().trim().min(1).max(100).required(),
});

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
}

/**
 * The longest password a sign-in or a password change may present: far above what any stored password can be
 * (PASSWORD_MAX_BYTES), so only absurd input is refused, with a 400 before any hashing or database look-up.
 */
export const PRESENTED_PASSWORD_MAX_LENGTH = 1_024;
const presentedPassword = Joi.string().max(PRESENTED_PASSWORD_MAX_LENGTH);

export const changePasswordSchema = Joi.object<ChangePasswordInput>({
  currentPassword: presentedPassword.required(),
  newPassword: passwordSchema.required(),
});

/**
 * Login checks presence and a length no real e-mail (254, RFC 5321) or password exceeds: a wrong e-mail or
 * password is a 401, never a hint about the format; absurd input is a 400 before bcrypt or the database. A
 * browser session asks for `refreshCookie: true`.
 */
export const loginSchema = Joi.object<{ email: string; password: string; refreshCookie: boolean }>({
  email: Joi.string()
    .max(254)
    .custom(normalizedEmail)
    .messages({ 'email.invisible': '{{#label}} must not contain invisible characters' })
    .required(),
  password: presentedPassword.required(),
  refreshCookie: Joi.boolean().default(false),
});

/** The token in the body; without one, the browser session's cookie is read. */
export const refreshSchema = Joi.object<{ refreshToken?: string }>({ refreshToken: Joi.string().max(4_096) });

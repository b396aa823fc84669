export {
  toPublicUser,
  toUserRecord,
  type PublicUser,
  type UserRecord,
  type ManagedUserRecord,
  type UserAttributes,
  type UserStatus,
  userModel,
} from './user.model.js';
export { UsersRepository, type UserChanges, type UserFilter } from './users.repository.js';
export { UsersService } from './users.service.js';
export {
  PASSWORD_MIN_LENGTH,
  PASSWORD_MAX_BYTES,
  emailSchema,
  passwordSchema,
  createUserSchema,
  updateUserSchema,
  listUsersQuerySchema,
  registerSchema,
  changePasswordSchema,
  loginSchema,
  refreshSchema,
  type CreateUserInput,
  type UpdateUserInput,
  type ListUsersQuery,
  type RegisterInput,
  type ChangePasswordInput,
} from './users.schema.js';
export { hashPassword, verifyPassword, createDecoyHash } from './passwords.js';
export { emailForLookup, hasInvisibleCharacters, normalizeEmail } from './email.js';

export { toPublicUser, type PublicUser, type UserAttributes, type UserStatus } from './user.model.js';

export { default, default as UsersPage } from './UsersPage';
export { default as CreateUserPage } from './CreateUserPage';
export { default as UserDetailPage } from './UserDetailPage';

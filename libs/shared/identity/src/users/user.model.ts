import { DataTypes, type Model, type ModelStatic, type Sequelize, type Optional } from 'sequelize';
import { registerModel } from '@wms/platform';
import type { Role } from '../access/index.js';

export type UserStatus = 'active' | 'inactive' | 'locked';

export interface UserAttributes {
  id: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  role: Role;
  language: string;
  tenantId: string | null;
  adminModules: string[];
  adminModulesWrite: string[];
  status: UserStatus;
  failedLoginCount: number;
  lastLoginAt: Date | null;
  passwordChangedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type UserCreation = Optional<
  UserAttributes,
  | 'id'
  | 'firstName'
  | 'lastName'
  | 'language'
  | 'tenantId'
  | 'adminModules'
  | 'adminModulesWrite'
  | 'status'
  | 'failedLoginCount'
  | 'lastLoginAt'
  | 'passwordChangedAt'
  | 'createdAt'
  | 'updatedAt'
>;

export type UserModel = ModelStatic<Model<UserAttributes, UserCreation>>;

function defineUserModel(sequelize: Sequelize): UserModel {
  return sequelize.define(
    'User',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      email: { type: DataTypes.TEXT, allowNull: false },
      passwordHash: { type: DataTypes.TEXT, allowNull: false },
      firstName: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      lastName: { type: DataTypes.TEXT, allowNull: false, defaultValue: '' },
      role: { type: DataTypes.TEXT, allowNull: false },
      language: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'en' },
      tenantId: { type: DataTypes.UUID, allowNull: true },
      adminModules: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false, defaultValue: [] },
      adminModulesWrite: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false, defaultValue: [] },
      status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'active' },
      failedLoginCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      lastLoginAt: { type: DataTypes.DATE, allowNull: true },
      passwordChangedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { tableName: 'users' },
  );
}

/** The model of a database, defined on first use. */
export const userModel = registerModel(defineUserModel);

/** The user as the API returns it: never the hash, the status counters or anything internal. */
export interface PublicUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  language: string;
  tenantId: string | null;
  adminModules: string[];
  adminModulesWrite: string[];
}

export function toPublicUser(user: UserAttributes): PublicUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    language: user.language,
    tenantId: user.tenantId,
    adminModules: user.adminModules,
    adminModulesWrite: user.adminModulesWrite,
  };
}

/** The user as the users admin endpoints return it: the public fields plus status and login facts. */
export interface UserRecord extends PublicUser {
  status: UserStatus;
  failedLoginCount: number;
  lastLoginAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toUserRecord(user: UserAttributes): UserRecord {
  return {
    ...toPublicUser(user),
    status: user.status,
    failedLoginCount: user.failedLoginCount,
    lastLoginAt: user.lastLoginAt,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

/** A user as the users endpoints answer it to one actor: may the actor manage it, and set its password and e-mail. */
export interface ManagedUserRecord extends UserRecord {
  canManage: boolean;
  canSetCredentials: boolean;
}

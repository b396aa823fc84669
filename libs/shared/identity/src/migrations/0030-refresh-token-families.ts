import type { Migration } from '@wms/platform';

/**
 * Sessions that can be ended. A sign-in starts a family; each refresh marks its token used and adds the
 * successor to the same family; a used token presented again, or a logout, revokes the family. Tokens are
 * kept as SHA-256 digests only, so a copy of the table opens no session. `users.locked_at` lets a lock
 * expire after LOGIN_LOCK_SECONDS.
 */
export const refreshTokenFamilies: Migration = {
  name: '0030-refresh-token-families',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE refresh_token_families (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        revoked_reason text
      );
      CREATE INDEX refresh_token_families_user_id_idx ON refresh_token_families (user_id);
      CREATE TABLE refresh_tokens (
        token_hash bytea PRIMARY KEY,
        family_id uuid NOT NULL REFERENCES refresh_token_families (id) ON DELETE CASCADE,
        issued_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX refresh_tokens_family_id_idx ON refresh_tokens (family_id);
      ALTER TABLE users ADD COLUMN locked_at timestamptz;
    `);
  },
};

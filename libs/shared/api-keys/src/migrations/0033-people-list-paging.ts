import type { Migration } from '@wms/platform';

/**
 * The API keys list (newest first) and the subscriptions list (oldest first) are paged by creation time
 * with the id as tie-breaker, so each page is an index range scan. The users list pages by e-mail, which
 * its unique index already serves.
 */
export const peopleListPaging: Migration = {
  name: '0033-people-list-paging',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE INDEX api_keys_created_idx ON api_keys (created_at DESC, id DESC);
      CREATE INDEX webhook_subscriptions_created_idx ON webhook_subscriptions (created_at, id);
    `);
  },
};

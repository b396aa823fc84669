import { QueryTypes } from 'sequelize';
import type { Migration } from '@wms/platform';
import { normalizeEmail } from '../users/index.js';

/** Format characters and controls: what an e-mail stored before normalisation may hide (see users/email.ts). */
const INVISIBLE = /[\p{Cf}\p{Cc}]/gu;

/**
 * Stores every e-mail in the form it is now compared in (NFKC, lower case, trimmed, invisible characters
 * removed), where that form is no other user's: an e-mail whose form another user also has is left as it
 * was stored, so no account is merged or lost. Sign-in looks an address up by its form, so such a look-alike
 * can no longer sign in; an admin finds it in the users list (ADR 0012).
 */
export const normalisedEmails: Migration = {
  name: '0090-normalised-emails',
  async up({ sequelize }) {
    const users = await sequelize.query<{ id: string; email: string }>(`SELECT id, email FROM users ORDER BY id`, {
      type: QueryTypes.SELECT,
    });
    const formOf = (email: string) => normalizeEmail(email.replace(INVISIBLE, ''));
    const holders = new Map<string, number>();
    for (const { email } of users) holders.set(formOf(email), (holders.get(formOf(email)) ?? 0) + 1);
    for (const { id, email } of users) {
      const form = formOf(email);
      if (form === email || holders.get(form) !== 1) continue;
      // Only where PostgreSQL's lower() agrees, as the table's check requires.
      await sequelize.query(`UPDATE users SET email = $2 WHERE id = $1 AND $2 = lower(btrim($2))`, {
        bind: [id, form],
      });
    }
  },
};

import type { Database, UnitOfWork } from '@wms/platform';
import type { PartnerCredentials, TradingPartner } from './trading-partner.js';

/** The columns of a TradingPartner, for every read of this file. */
export const PARTNER_COLUMNS = `
  p.id, p.tenant_id AS "tenantId", p.name, p.status,
  jsonb_build_object('qualifier', p.partner_qualifier, 'interchangeId', p.partner_interchange_id,
                     'groupCode', p.partner_group_code) AS partner,
  jsonb_build_object('qualifier', p.our_qualifier, 'interchangeId', p.our_interchange_id,
                     'groupCode', p.our_group_code) AS us,
  p.x12_version AS "x12Version", p.usage_indicator AS "usageIndicator",
  jsonb_build_object('element', p.element_separator, 'component', p.component_separator,
                     'segment', p.segment_terminator) AS separators,
  p.inbound_sets AS "inboundSets", p.outbound_sets AS "outboundSets",
  p.warehouse_code AS "warehouseCode", p.ship_from AS "shipFrom",
  p.inventory_advice_minutes AS "inventoryAdviceMinutes", p.next_inventory_advice_at AS "nextInventoryAdviceAt",
  p.ack_overdue_hours AS "ackOverdueHours", p.api_key_id AS "apiKeyId", p.sftp_username AS "sftpUsername",
  p.subscription_id AS "subscriptionId", p.created_at AS "createdAt", p.updated_at AS "updatedAt"`;

/** The interchange and group control numbers (ISA13, GS06) one outbound interchange takes. */
export interface ControlNumbers {
  interchange: number;
  group: number;
}

/** The highest ISA13 (nine digits); the counter starts again at 1 after it. */
export const MAX_CONTROL_NUMBER = 999_999_999;

/** Trading partners: `edi_trading_partners`. */
export class PartnersRepository {
  constructor(private readonly db: Database) {}

  async find(id: string, transaction?: UnitOfWork): Promise<TradingPartner | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${PARTNER_COLUMNS} FROM edi_trading_partners p WHERE p.id = $1`,
      {
        bind: [id],
        transaction,
      },
    )) as [TradingPartner[], unknown];
    return rows[0] ?? null;
  }

  /** The partner an API key speaks for (`POST /edi`), or null when the key is bound to none. */
  async findByApiKey(apiKeyId: string): Promise<TradingPartner | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${PARTNER_COLUMNS} FROM edi_trading_partners p WHERE p.api_key_id = $1`,
      { bind: [apiKeyId] },
    )) as [TradingPartner[], unknown];
    return rows[0] ?? null;
  }

  /** What an SFTP login is checked against, by its user name. */
  async credentials(sftpUsername: string): Promise<PartnerCredentials | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT p.id AS "partnerId", p.tenant_id AS "tenantId", p.status, p.sftp_username AS "sftpUsername",
              p.sftp_password_hash AS "sftpPasswordHash", p.sftp_public_keys AS "sftpPublicKeys"
         FROM edi_trading_partners p WHERE p.sftp_username = $1`,
      { bind: [sftpUsername] },
    )) as [PartnerCredentials[], unknown];
    return rows[0] ?? null;
  }

  /**
   * Takes the partner's next ISA13 and GS06 in the caller's transaction: the row lock orders concurrent
   * takers, so the numbers are unique and increase per partner across processes (after 999999999, 1).
   */
  async takeControlNumbers(partnerId: string, transaction: UnitOfWork): Promise<ControlNumbers> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE edi_trading_partners p
          SET next_interchange_control = CASE WHEN p.next_interchange_control >= $2 THEN 1 ELSE p.next_interchange_control + 1 END,
              next_group_control = CASE WHEN p.next_group_control >= $2 THEN 1 ELSE p.next_group_control + 1 END
        WHERE p.id = $1
        RETURNING (CASE WHEN p.next_interchange_control = 1 THEN $2 ELSE p.next_interchange_control - 1 END)::int AS interchange,
                  (CASE WHEN p.next_group_control = 1 THEN $2 ELSE p.next_group_control - 1 END)::int AS "group"`,
      { bind: [partnerId, MAX_CONTROL_NUMBER], transaction },
    )) as [ControlNumbers[], unknown];
    const numbers = rows[0];
    if (!numbers) throw new Error(`trading partner ${partnerId} does not exist`);
    return numbers;
  }

  /** Stores the partner's own webhook subscription (null: it has none). */
  async setSubscription(partnerId: string, subscriptionId: string | null, transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE edi_trading_partners p SET subscription_id = $2, updated_at = now() WHERE p.id = $1`,
      { bind: [partnerId, subscriptionId], transaction },
    );
  }

  /**
   * Claims up to `limit` active partners whose scheduled 846 is due, in the caller's transaction: rows another
   * process holds are skipped (FOR UPDATE SKIP LOCKED), so each due advice is written once over all processes.
   */
  async claimDueInventoryAdvice(limit: number, transaction: UnitOfWork): Promise<TradingPartner[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${PARTNER_COLUMNS} FROM edi_trading_partners p
        WHERE p.inventory_advice_minutes IS NOT NULL AND p.status = 'active'
          AND (p.next_inventory_advice_at IS NULL OR p.next_inventory_advice_at <= now())
        ORDER BY p.next_inventory_advice_at NULLS FIRST
        LIMIT $1
        FOR UPDATE OF p SKIP LOCKED`,
      { bind: [limit], transaction },
    )) as [TradingPartner[], unknown];
    return rows;
  }

  /** The next scheduled 846 is the partner's interval from now. */
  async advanceInventoryAdvice(partnerId: string, transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE edi_trading_partners p
          SET next_inventory_advice_at = now() + make_interval(mins => p.inventory_advice_minutes)
        WHERE p.id = $1 AND p.inventory_advice_minutes IS NOT NULL`,
      { bind: [partnerId], transaction },
    );
  }
}

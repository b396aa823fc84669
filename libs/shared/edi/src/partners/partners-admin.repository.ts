import { cursorColumn, type CursorPosition, type Database, type UnitOfWork } from '@wms/platform';
import { PARTNER_COLUMNS } from './partners.repository.js';
import type { EnvelopeParty, InboundSet, OutboundSet, Separators, TradingPartner } from './trading-partner.js';

/** A partner as its administration reads it: the library's fields, and of the SFTP account what may be shown. */
export interface AdminPartnerRow extends TradingPartner {
  sftpPasswordSet: boolean;
  /** The stored OpenSSH public lines (public keys: no secret). */
  sftpPublicKeys: string[];
}

/** Every field an admin sets; the service merges a patch over the stored row and writes it whole. */
export interface PartnerSettings {
  name: string;
  partner: EnvelopeParty;
  us: EnvelopeParty;
  x12Version: string;
  usageIndicator: 'P' | 'T';
  separators: Separators;
  inboundSets: InboundSet[];
  outboundSets: OutboundSet[];
  warehouseCode: string | null;
  shipFrom: Record<string, string> | null;
  inventoryAdviceMinutes: number | null;
  ackOverdueHours: number;
  apiKeyId: string | null;
  sftpUsername: string | null;
}

const ADMIN_COLUMNS = `${PARTNER_COLUMNS}, p.sftp_password_hash IS NOT NULL AS "sftpPasswordSet",
  p.sftp_public_keys AS "sftpPublicKeys"`;

/** The settings' binds from $2 on, in the column order of INSERT and UPDATE below. */
function settingBinds(s: PartnerSettings): unknown[] {
  return [
    s.name,
    s.partner.qualifier,
    s.partner.interchangeId,
    s.partner.groupCode,
    s.us.qualifier,
    s.us.interchangeId,
    s.us.groupCode,
    s.x12Version,
    s.usageIndicator,
    s.separators.element,
    s.separators.component,
    s.separators.segment,
    s.inboundSets,
    s.outboundSets,
    s.warehouseCode,
    s.shipFrom === null ? null : JSON.stringify(s.shipFrom),
    s.inventoryAdviceMinutes,
    s.ackOverdueHours,
    s.apiKeyId,
    s.sftpUsername,
  ];
}

/**
 * The partners' administration (`edi_trading_partners`): what PartnersRepository's readers do not need. The
 * 846 schedule's next run is set here whenever its interval changes: one interval from the change.
 */
export class PartnersAdminRepository {
  constructor(private readonly db: Database) {}

  async insert(
    id: string,
    tenantId: string,
    settings: PartnerSettings,
    createdBy: string | null,
    transaction: UnitOfWork,
  ) {
    await this.db.sequelize.query(
      `INSERT INTO edi_trading_partners AS p (id, tenant_id, name, partner_qualifier, partner_interchange_id,
              partner_group_code, our_qualifier, our_interchange_id, our_group_code, x12_version, usage_indicator,
              element_separator, component_separator, segment_terminator, inbound_sets, outbound_sets,
              warehouse_code, ship_from, inventory_advice_minutes, ack_overdue_hours, api_key_id, sftp_username,
              next_inventory_advice_at, created_by)
       VALUES ($1, $22, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::text[], $15::text[], $16, $17::jsonb,
               $18, $19, $20, $21, now() + make_interval(mins => $18), $23)`,
      { bind: [id, ...settingBinds(settings), tenantId, createdBy], transaction },
    );
  }

  /** Writes every setting; the schedule's next run moves only when its interval changed. */
  async save(id: string, settings: PartnerSettings, transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE edi_trading_partners AS p
          SET name = $2, partner_qualifier = $3, partner_interchange_id = $4, partner_group_code = $5,
              our_qualifier = $6, our_interchange_id = $7, our_group_code = $8, x12_version = $9,
              usage_indicator = $10, element_separator = $11, component_separator = $12, segment_terminator = $13,
              inbound_sets = $14::text[], outbound_sets = $15::text[], warehouse_code = $16, ship_from = $17::jsonb,
              next_inventory_advice_at = CASE WHEN p.inventory_advice_minutes IS NOT DISTINCT FROM $18::int
                                              THEN p.next_inventory_advice_at
                                              ELSE now() + make_interval(mins => $18::int) END,
              inventory_advice_minutes = $18, ack_overdue_hours = $19, api_key_id = $20, sftp_username = $21,
              updated_at = now()
        WHERE p.id = $1`,
      { bind: [id, ...settingBinds(settings)], transaction },
    );
  }

  /** The partner, locked for the rest of `transaction` when one is given. */
  async find(id: string, transaction?: UnitOfWork): Promise<AdminPartnerRow | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${ADMIN_COLUMNS} FROM edi_trading_partners p WHERE p.id = $1${transaction ? ' FOR UPDATE' : ''}`,
      { bind: [id], transaction },
    )) as [AdminPartnerRow[], unknown];
    return rows[0] ?? null;
  }

  /** Oldest first by (created_at, id), of one tenant or all, of one status or both. */
  async page(query: {
    tenantId: string | null;
    status: 'active' | 'disabled' | null;
    limit: number;
    cursor?: CursorPosition;
  }): Promise<Array<AdminPartnerRow & { cursor: CursorPosition }>> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${ADMIN_COLUMNS}, ${cursorColumn('p.created_at', 'p.id')}
         FROM edi_trading_partners p
        WHERE ($1::uuid IS NULL OR p.tenant_id = $1)
          AND ($2::text IS NULL OR p.status = $2)
          AND ($3::timestamptz IS NULL OR (p.created_at, p.id) > ($3::timestamptz, $4::uuid))
        ORDER BY p.created_at, p.id
        LIMIT $5`,
      {
        bind: [query.tenantId, query.status, query.cursor?.updatedAt ?? null, query.cursor?.id ?? null, query.limit],
      },
    )) as [Array<AdminPartnerRow & { cursor: CursorPosition }>, unknown];
    return rows;
  }

  async setStatus(id: string, status: 'active' | 'disabled', transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE edi_trading_partners AS p SET status = $2, updated_at = now() WHERE p.id = $1`,
      { bind: [id, status], transaction },
    );
  }

  async setPasswordHash(id: string, hash: string, transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE edi_trading_partners AS p SET sftp_password_hash = $2, updated_at = now() WHERE p.id = $1`,
      { bind: [id, hash], transaction },
    );
  }

  async setPublicKeys(id: string, lines: string[], transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE edi_trading_partners AS p SET sftp_public_keys = $2::text[], updated_at = now() WHERE p.id = $1`,
      { bind: [id, lines], transaction },
    );
  }

  /** Whether any interchange was exchanged with the partner (which keeps it from being deleted). */
  async hasInterchanges(id: string, transaction: UnitOfWork): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT EXISTS (SELECT 1 FROM edi_interchanges i WHERE i.partner_id = $1) AS "exists"`,
      { bind: [id], transaction },
    )) as [Array<{ exists: boolean }>, unknown];
    return rows[0]?.exists ?? false;
  }

  /** The partner whose SFTP account has this user name, if any (uniqueness is checked before the write). */
  async idBySftpUsername(username: string, transaction: UnitOfWork): Promise<string | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT p.id FROM edi_trading_partners p WHERE p.sftp_username = $1`,
      { bind: [username], transaction },
    )) as [Array<{ id: string }>, unknown];
    return rows[0]?.id ?? null;
  }

  async setSubscription(id: string, subscriptionId: string | null, transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(`UPDATE edi_trading_partners AS p SET subscription_id = $2 WHERE p.id = $1`, {
      bind: [id, subscriptionId],
      transaction,
    });
  }

  async delete(id: string, transaction: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(`DELETE FROM edi_trading_partners p WHERE p.id = $1`, {
      bind: [id],
      transaction,
    });
  }
}

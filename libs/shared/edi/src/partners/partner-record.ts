import type { AdminPartnerRow, PartnerSettings } from './partners-admin.repository.js';
import { describePublicKey, type SftpPublicKey } from './sftp-credentials.js';
import type { TradingPartner } from './trading-partner.js';

/** The audit entries' entity type of a trading partner. */
export const PARTNER_ENTITY = 'edi_trading_partner';

/** A trading partner as the admin API answers it: its settings, and of its SFTP account only what is no secret. */
export interface TradingPartnerRecord extends TradingPartner {
  /** Whether a password was generated for the SFTP account (it is never shown again). */
  sftpPasswordSet: boolean;
  sftpPublicKeys: SftpPublicKey[];
}

export function toRecord(row: AdminPartnerRow): TradingPartnerRecord {
  return { ...row, sftpPublicKeys: row.sftpPublicKeys.map(describePublicKey) };
}

/** The fields an admin sets, out of a stored partner. */
export function settingsOf(row: TradingPartner): PartnerSettings {
  return {
    name: row.name,
    partner: row.partner,
    us: row.us,
    x12Version: row.x12Version,
    usageIndicator: row.usageIndicator,
    separators: row.separators,
    inboundSets: row.inboundSets,
    outboundSets: row.outboundSets,
    warehouseCode: row.warehouseCode,
    shipFrom: row.shipFrom,
    inventoryAdviceMinutes: row.inventoryAdviceMinutes,
    ackOverdueHours: row.ackOverdueHours,
    apiKeyId: row.apiKeyId,
    sftpUsername: row.sftpUsername,
  };
}

/** The settings an audit entry compares and keeps: every one (none is a secret). */
export const AUDITED_SETTINGS = [
  'name',
  'partner',
  'us',
  'x12Version',
  'usageIndicator',
  'separators',
  'inboundSets',
  'outboundSets',
  'warehouseCode',
  'shipFrom',
  'inventoryAdviceMinutes',
  'ackOverdueHours',
  'apiKeyId',
  'sftpUsername',
] as const satisfies readonly (keyof PartnerSettings)[];

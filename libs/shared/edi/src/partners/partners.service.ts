import { randomBytes, randomUUID } from 'node:crypto';
import type { ApiKeysRepository } from '@wms/api-keys';
import { changedFields, type AuditService, type Principal } from '@wms/identity';
import {
  AppError,
  isUuid,
  toPage,
  unitOfWork,
  validate,
  type CursorPosition,
  type Database,
  type ErrorDetail,
  type ListPage,
  type UnitOfWork,
} from '@wms/platform';
import type { WarehousesService } from '@wms/warehouse';
import type { EdiOutboundControl } from './outbound-control.js';
import { createPartnerSchema, updatePartnerSchema } from './partner.schema.js';
import { AUDITED_SETTINGS, PARTNER_ENTITY, settingsOf, toRecord, type TradingPartnerRecord } from './partner-record.js';
import { assertSetsWithinReach } from './partner-reach.js';
import { PartnersAdminRepository, type AdminPartnerRow, type PartnerSettings } from './partners-admin.repository.js';
import { INBOUND_SETS, OUTBOUND_SETS, type TradingPartner } from './trading-partner.js';

export interface PartnersServiceDeps {
  audit: AuditService;
  warehouses: Pick<WarehousesService, 'findByCode'>;
  apiKeys: Pick<ApiKeysRepository, 'findById'>;
  /** The outbound side: keeps the partner's subscription in step with its settings, in the same unit of work. */
  outbound: EdiOutboundControl;
}

/** What the unique constraints of edi_trading_partners mean to the admin. */
const CONFLICTS: Record<string, () => AppError> = {
  edi_trading_partners_isa: () =>
    AppError.conflict('PARTNER_ISA_EXISTS', 'The tenant already has a trading partner with this ISA qualifier and ID'),
  edi_trading_partners_api_key_id_key: () =>
    AppError.conflict('API_KEY_BOUND', 'The API key is bound to another trading partner'),
  edi_trading_partners_sftp_username_key: () => AppError.conflict('SFTP_USERNAME_TAKEN', 'The SFTP user name is taken'),
};

function asConflict(error: unknown): unknown {
  const constraint = (error as { parent?: { constraint?: string } }).parent?.constraint;
  const known = constraint ? CONFLICTS[constraint] : undefined;
  return known ? known() : error;
}

/** A user name for the SFTP account from the partner's name: unique by its random tail. */
function derivedUsername(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20);
  return `${slug || 'partner'}-${randomBytes(3).toString('hex')}`;
}

/**
 * Trading partners' administration: every change audited and the partner's outbound subscription synced in
 * one unit of work. A partner with interchanges is never deleted (its documents would go with it): disable it.
 */
export class TradingPartnersService {
  readonly repository: PartnersAdminRepository;

  constructor(
    private readonly db: Database,
    private readonly deps: PartnersServiceDeps,
  ) {
    this.repository = new PartnersAdminRepository(db);
  }

  async create(body: unknown, tenantId: string, actor: Principal): Promise<TradingPartnerRecord> {
    const input = validate<Partial<PartnerSettings> & Pick<PartnerSettings, 'name' | 'partner' | 'us'>>(
      createPartnerSchema,
      body,
    );
    const settings: PartnerSettings = {
      x12Version: '004010',
      usageIndicator: 'P',
      separators: { element: '*', component: '>', segment: '~' },
      inboundSets: [...INBOUND_SETS],
      outboundSets: [...OUTBOUND_SETS],
      warehouseCode: null,
      shipFrom: null,
      inventoryAdviceMinutes: null,
      ackOverdueHours: 24,
      apiKeyId: null,
      ...input,
      sftpUsername: input.sftpUsername ?? derivedUsername(input.name),
    };
    assertSetsWithinReach(actor, [...settings.inboundSets, ...settings.outboundSets]);
    const id = randomUUID();
    try {
      return await unitOfWork(this.db, async (transaction) => {
        await this.checkSettings(id, tenantId, settings, null, transaction);
        await this.repository.insert(id, tenantId, settings, actor.sub, transaction);
        const created = await this.syncOutbound(id, transaction);
        await this.record('edi_partner.created', created, actor, { ...settings, tenantId }, transaction);
        return toRecord(created);
      });
    } catch (error) {
      throw asConflict(error);
    }
  }

  async page(
    viewer: { tenantId: string | null },
    query: { tenantId?: string; status?: 'active' | 'disabled'; limit: number; cursor?: CursorPosition },
  ): Promise<ListPage<TradingPartnerRecord>> {
    const rows = await this.repository.page({
      tenantId: viewer.tenantId ?? query.tenantId ?? null,
      status: query.status ?? null,
      limit: query.limit + 1,
      cursor: query.cursor,
    });
    const page = toPage(rows, query.limit);
    return { data: page.data.map(toRecord), nextCursor: page.nextCursor };
  }

  async get(id: string, viewer: { tenantId: string | null }): Promise<TradingPartnerRecord> {
    return toRecord(await this.visible(id, viewer));
  }

  /** The partner as the library reads it, when the viewer may see it; else 404. */
  async visible(id: string, viewer: { tenantId: string | null }, transaction?: UnitOfWork): Promise<AdminPartnerRow> {
    const row = isUuid(id) ? await this.repository.find(id, transaction) : null;
    // Another tenant's partner behaves as if it did not exist.
    if (!row || (viewer.tenantId && row.tenantId !== viewer.tenantId)) {
      throw AppError.notFound(`Trading partner ${id} not found`);
    }
    return row;
  }

  /** Applies the patch under the row's lock; a patch that changes nothing audits nothing. */
  async update(id: string, body: unknown, actor: Principal): Promise<TradingPartnerRecord> {
    const patch = validate<Partial<PartnerSettings>>(updatePartnerSchema, body);
    if (patch.inboundSets || patch.outboundSets) {
      assertSetsWithinReach(actor, [...(patch.inboundSets ?? []), ...(patch.outboundSets ?? [])]);
    }
    try {
      return await unitOfWork(this.db, async (transaction) => {
        const before = await this.visible(id, actor, transaction);
        const settings = { ...settingsOf(before), ...patch };
        const changes = changedFields(settingsOf(before), settings, AUDITED_SETTINGS);
        if (!Object.keys(changes).length) return toRecord(before);
        await this.checkSettings(id, before.tenantId, settings, settingsOf(before), transaction);
        await this.repository.save(id, settings, transaction);
        const after = await this.syncOutbound(id, transaction);
        await this.record('edi_partner.updated', after, actor, changes, transaction);
        return toRecord(after);
      });
    } catch (error) {
      throw asConflict(error);
    }
  }

  async setStatus(id: string, status: 'active' | 'disabled', actor: Principal): Promise<TradingPartnerRecord> {
    return unitOfWork(this.db, async (transaction) => {
      const before = await this.visible(id, actor, transaction);
      if (before.status === status) return toRecord(before);
      await this.repository.setStatus(id, status, transaction);
      const after = await this.syncOutbound(id, transaction);
      const action = status === 'active' ? 'edi_partner.enabled' : 'edi_partner.disabled';
      await this.record(action, after, actor, { status: { from: before.status, to: status } }, transaction);
      return toRecord(after);
    });
  }

  /** 409 PARTNER_HAS_DOCUMENTS once any interchange was exchanged: its documents stay, the partner is disabled. */
  async remove(id: string, actor: Principal): Promise<void> {
    await unitOfWork(this.db, async (transaction) => {
      const partner = await this.visible(id, actor, transaction);
      if (await this.repository.hasInterchanges(id, transaction)) {
        throw AppError.conflict(
          'PARTNER_HAS_DOCUMENTS',
          'The trading partner has exchanged documents, which deleting it would delete: disable it instead',
        );
      }
      // Told as a partner that sends nothing, so the outbound side removes its subscription.
      await this.deps.outbound.syncSubscription({ ...partner, status: 'disabled', outboundSets: [] }, transaction);
      await this.repository.delete(id, transaction);
      await this.record('edi_partner.deleted', partner, actor, { ...settingsOf(partner) }, transaction);
    });
  }

  /**
   * 400 naming every setting that refers to what the tenant does not have, or that the separators would break.
   * A reference an update leaves as it was is not checked again: a key revoked since does not block an edit.
   */
  private async checkSettings(
    id: string,
    tenantId: string,
    settings: PartnerSettings,
    before: PartnerSettings | null,
    transaction: UnitOfWork,
  ) {
    const details: ErrorDetail[] = [];
    const { element, component, segment } = settings.separators;
    for (const side of ['partner', 'us'] as const) {
      for (const field of ['interchangeId', 'groupCode'] as const) {
        const value = settings[side][field];
        if ([element, component, segment].some((separator) => value.includes(separator))) {
          details.push({ path: `${side}.${field}`, message: `${side}.${field} holds one of the separators` });
        }
      }
    }
    const changed = (field: 'warehouseCode' | 'apiKeyId') => !before || before[field] !== settings[field];
    if (
      settings.warehouseCode &&
      changed('warehouseCode') &&
      !(await this.deps.warehouses.findByCode(tenantId, settings.warehouseCode))
    ) {
      details.push({ path: 'warehouseCode', message: `the tenant has no warehouse ${settings.warehouseCode}` });
    }
    if (settings.apiKeyId && changed('apiKeyId')) {
      const key = await this.deps.apiKeys.findById(settings.apiKeyId, transaction);
      const expired = key?.expiresAt ? new Date(key.expiresAt).getTime() <= Date.now() : false;
      if (!key || key.tenantId !== tenantId) {
        details.push({ path: 'apiKeyId', message: "no API key of the partner's tenant has this id" });
      } else if (!key.active || expired) {
        details.push({ path: 'apiKeyId', message: 'the API key is revoked or expired' });
      }
    }
    if (details.length) throw AppError.validation('Invalid trading partner', details);
    if (settings.sftpUsername) {
      const holder = await this.repository.idBySftpUsername(settings.sftpUsername, transaction);
      if (holder && holder !== id) throw CONFLICTS.edi_trading_partners_sftp_username_key!();
    }
  }

  /** Has the outbound side make, change or remove the partner's subscription; the row as it is then. */
  private async syncOutbound(id: string, transaction: UnitOfWork): Promise<AdminPartnerRow> {
    const partner = (await this.repository.find(id, transaction))!;
    const subscriptionId = await this.deps.outbound.syncSubscription(partner, transaction);
    if (subscriptionId === partner.subscriptionId) return partner;
    await this.repository.setSubscription(id, subscriptionId, transaction);
    return { ...partner, subscriptionId };
  }

  record(
    action: string,
    partner: TradingPartner,
    actor: Principal,
    changes: Record<string, unknown>,
    transaction: UnitOfWork,
  ): Promise<void> {
    return this.deps.audit.record(
      {
        action,
        entityType: PARTNER_ENTITY,
        entityId: partner.id,
        tenantId: partner.tenantId,
        actorUserId: actor.sub,
        changes,
      },
      transaction,
    );
  }
}

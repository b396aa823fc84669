import type { Migration } from '@wms/platform';

/**
 * EDI (ADR 0207): trading partners, the interchanges exchanged with them (both ways, raw bytes kept), the
 * transaction sets each one held, and the mailbox a partner's SFTP account sees (`in/`, `out/`, `archive/`),
 * whose files are interchanges: the bytes live once, in `edi_interchanges.raw`.
 *
 * - A partner's interchange and group control numbers are counters on its row, taken with an UPDATE in the
 *   transaction that stores the outbound interchange: unique and increasing per partner across processes.
 * - Exactly once inbound: one canonical interchange per partner and ISA13 (a resend is a row of its own,
 *   `duplicate_of` the first), one inbound set per partner, functional group and group and set control number.
 * - Exactly once outbound: one interchange per partner and event it was made from.
 */
export const edi: Migration = {
  name: '0096-edi',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS edi_trading_partners (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        name text NOT NULL,
        status text NOT NULL DEFAULT 'active' CONSTRAINT edi_trading_partners_status CHECK (status IN ('active', 'disabled')),
        partner_qualifier varchar(2) NOT NULL,
        partner_interchange_id varchar(15) NOT NULL,
        our_qualifier varchar(2) NOT NULL,
        our_interchange_id varchar(15) NOT NULL,
        partner_group_code varchar(15) NOT NULL,
        our_group_code varchar(15) NOT NULL,
        x12_version varchar(12) NOT NULL DEFAULT '004010',
        usage_indicator char(1) NOT NULL DEFAULT 'P' CONSTRAINT edi_trading_partners_usage CHECK (usage_indicator IN ('P', 'T')),
        element_separator char(1) NOT NULL DEFAULT '*',
        component_separator char(1) NOT NULL DEFAULT '>',
        segment_terminator char(1) NOT NULL DEFAULT '~',
        inbound_sets text[] NOT NULL DEFAULT '{940,943,856,997}',
        outbound_sets text[] NOT NULL DEFAULT '{944,945,947,846,997}',
        warehouse_code text,
        ship_from jsonb,
        inventory_advice_minutes integer CONSTRAINT edi_trading_partners_advice_minutes CHECK (inventory_advice_minutes > 0),
        next_inventory_advice_at timestamptz,
        ack_overdue_hours integer NOT NULL DEFAULT 24 CONSTRAINT edi_trading_partners_overdue CHECK (ack_overdue_hours > 0),
        api_key_id uuid UNIQUE REFERENCES api_keys(id) ON DELETE SET NULL,
        sftp_username text UNIQUE,
        sftp_password_hash text,
        sftp_public_keys text[] NOT NULL DEFAULT '{}',
        subscription_id uuid REFERENCES webhook_subscriptions(id) ON DELETE SET NULL,
        next_interchange_control bigint NOT NULL DEFAULT 1,
        next_group_control bigint NOT NULL DEFAULT 1,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT edi_trading_partners_isa UNIQUE (tenant_id, partner_qualifier, partner_interchange_id)
      )`);
    await sequelize.query(`
      CREATE INDEX IF NOT EXISTS edi_trading_partners_advice_due ON edi_trading_partners (next_inventory_advice_at)
        WHERE inventory_advice_minutes IS NOT NULL AND status = 'active'`);
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS edi_interchanges (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        partner_id uuid NOT NULL REFERENCES edi_trading_partners(id) ON DELETE CASCADE,
        direction text NOT NULL CONSTRAINT edi_interchanges_direction CHECK (direction IN ('in', 'out')),
        source text NOT NULL CONSTRAINT edi_interchanges_source
          CHECK (source IN ('sftp', 'http', 'event', 'schedule', 'demand', 'acknowledgment', 'resend')),
        file_name text,
        interchange_control varchar(9),
        set_codes text[] NOT NULL DEFAULT '{}',
        raw bytea NOT NULL,
        size_bytes integer NOT NULL,
        state text NOT NULL CONSTRAINT edi_interchanges_state CHECK (state IN (
          'received', 'processing', 'accepted', 'partially_accepted', 'rejected', 'unreadable', 'duplicate',
          'sent', 'acknowledged', 'acknowledged_with_errors', 'acknowledgment_rejected')),
        error text,
        duplicate_of uuid REFERENCES edi_interchanges(id) ON DELETE SET NULL,
        acknowledgment_id uuid REFERENCES edi_interchanges(id) ON DELETE SET NULL,
        resent_from uuid REFERENCES edi_interchanges(id) ON DELETE SET NULL,
        source_event_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz,
        acknowledged_at timestamptz
      )`);
    await sequelize.query(`
      CREATE UNIQUE INDEX IF NOT EXISTS edi_interchanges_inbound_once ON edi_interchanges (partner_id, interchange_control)
        WHERE direction = 'in' AND duplicate_of IS NULL AND interchange_control IS NOT NULL AND state <> 'unreadable'`);
    await sequelize.query(`
      CREATE UNIQUE INDEX IF NOT EXISTS edi_interchanges_outbound_once ON edi_interchanges (partner_id, source_event_id)
        WHERE direction = 'out' AND source_event_id IS NOT NULL AND resent_from IS NULL`);
    await sequelize.query(`
      CREATE INDEX IF NOT EXISTS edi_interchanges_partner_list ON edi_interchanges (partner_id, created_at DESC, id DESC)`);
    await sequelize.query(`
      CREATE INDEX IF NOT EXISTS edi_interchanges_pending ON edi_interchanges (created_at)
        WHERE state IN ('received', 'processing')`);
    await sequelize.query(`
      CREATE INDEX IF NOT EXISTS edi_interchanges_unacknowledged ON edi_interchanges (partner_id, created_at)
        WHERE direction = 'out' AND state = 'sent'`);
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS edi_transaction_sets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        interchange_id uuid NOT NULL REFERENCES edi_interchanges(id) ON DELETE CASCADE,
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        partner_id uuid NOT NULL REFERENCES edi_trading_partners(id) ON DELETE CASCADE,
        direction text NOT NULL CONSTRAINT edi_transaction_sets_direction CHECK (direction IN ('in', 'out')),
        set_code varchar(3) NOT NULL,
        functional_id varchar(2) NOT NULL,
        group_control varchar(9) NOT NULL,
        set_control varchar(9) NOT NULL,
        state text NOT NULL CONSTRAINT edi_transaction_sets_state CHECK (state IN (
          'accepted', 'accepted_with_errors', 'rejected', 'sent', 'acknowledged', 'acknowledgment_rejected')),
        errors jsonb NOT NULL DEFAULT '[]',
        document_kind text,
        document_ref text,
        created_at timestamptz NOT NULL DEFAULT now(),
        acknowledged_at timestamptz
      )`);
    await sequelize.query(`
      CREATE UNIQUE INDEX IF NOT EXISTS edi_transaction_sets_inbound_once
        ON edi_transaction_sets (partner_id, functional_id, group_control, set_control) WHERE direction = 'in'`);
    await sequelize.query(`
      CREATE INDEX IF NOT EXISTS edi_transaction_sets_interchange ON edi_transaction_sets (interchange_id)`);
    await sequelize.query(`
      CREATE INDEX IF NOT EXISTS edi_transaction_sets_outbound_group
        ON edi_transaction_sets (partner_id, functional_id, group_control) WHERE direction = 'out'`);
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS edi_mailbox_files (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        partner_id uuid NOT NULL REFERENCES edi_trading_partners(id) ON DELETE CASCADE,
        folder text NOT NULL CONSTRAINT edi_mailbox_files_folder CHECK (folder IN ('in', 'out', 'archive')),
        name text NOT NULL,
        interchange_id uuid NOT NULL REFERENCES edi_interchanges(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT edi_mailbox_files_name UNIQUE (partner_id, folder, name)
      )`);
  },
};

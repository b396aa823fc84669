/** The X12 sets this service reads from a partner and writes to one (ADR 0207, docs/edi.md). */
export const INBOUND_SETS = ['940', '943', '856', '997'] as const;
export const OUTBOUND_SETS = ['944', '945', '947', '846', '997'] as const;
export type InboundSet = (typeof INBOUND_SETS)[number];
export type OutboundSet = (typeof OUTBOUND_SETS)[number];

/** The separators an interchange is written with (ISA's element separator, ISA16, the segment terminator). */
export interface Separators {
  element: string;
  component: string;
  segment: string;
}

/** One side of the envelopes: its ISA qualifier and ID (ISA05/06 or ISA07/08) and its GS code (GS02/03). */
export interface EnvelopeParty {
  qualifier: string;
  interchangeId: string;
  groupCode: string;
}

/** A trading partner of one tenant, as the library reads it (secrets left out: see PartnerCredentials). */
export interface TradingPartner {
  id: string;
  tenantId: string;
  name: string;
  status: 'active' | 'disabled';
  /** The partner's ISA and GS identifiers: the sender of what it sends, the receiver of what we send. */
  partner: EnvelopeParty;
  /** Ours, as this partner knows us. */
  us: EnvelopeParty;
  /** GS08, e.g. 004010; ISA12 is its first five digits (00401). */
  x12Version: string;
  /** ISA15: P production, T test. */
  usageIndicator: 'P' | 'T';
  /** What we write with; what the partner sends is read with the separators its own ISA declares. */
  separators: Separators;
  inboundSets: InboundSet[];
  outboundSets: OutboundSet[];
  /** The warehouse a document without one is mapped to. */
  warehouseCode: string | null;
  /** The ship-from party written into outbound advices (N1*SF), as given by the admin. */
  shipFrom: Record<string, string> | null;
  /** Every how many minutes an 846 is sent; null: only on demand. */
  inventoryAdviceMinutes: number | null;
  nextInventoryAdviceAt: Date | null;
  /** An outbound group without a 997 for this long is overdue. */
  ackOverdueHours: number;
  /** The API key whose `POST /edi` speaks for this partner. */
  apiKeyId: string | null;
  sftpUsername: string | null;
  /** The partner's own webhook subscription that turns events into its outbound advices. */
  subscriptionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What an SFTP login is checked against; read only by the SFTP server. */
export interface PartnerCredentials {
  partnerId: string;
  tenantId: string;
  status: 'active' | 'disabled';
  sftpUsername: string;
  sftpPasswordHash: string | null;
  sftpPublicKeys: string[];
}

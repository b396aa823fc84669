import type { Interchange } from './interchanges/index.js';
import type { TradingPartner } from './partners/index.js';

/**
 * The seams between the EDI library's parts, so that the ways in (SFTP, `POST /edi`), the engine and the
 * outbound side meet in one place. Each is implemented once in its capability's folder.
 */

/** Takes an inbound interchange in (inbound/). */
export interface EdiInbox {
  /**
   * Stores the bytes as a received interchange of the partner (and, from SFTP, as the file `in/<fileName>`),
   * and has it read on the ingest worker's EDI queue. Resolves once it is stored: nothing accepted is lost.
   */
  receive(
    partner: TradingPartner,
    upload: { source: 'sftp' | 'http'; fileName: string | null; content: Buffer },
  ): Promise<Interchange>;
}

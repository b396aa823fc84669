import { posix } from 'node:path';
import { MAILBOX_FOLDERS, type MailboxFolder } from '@wms/edi';

/** Where a path of a partner's session points: the root, one of its folders, a name in one, or nothing. */
export type Location =
  | { kind: 'root'; path: '/' }
  | { kind: 'folder'; path: string; folder: MailboxFolder }
  | { kind: 'file'; path: string; folder: MailboxFolder; name: string }
  | { kind: 'none'; path: string };

/** The longest file name an upload may take (as most file systems allow). */
export const MAX_NAME_LENGTH = 255;

/**
 * Normalises a client's path against the session's root, which is also its working directory: `.`, `..` and
 * repeated slashes are resolved first, and `..` at the root stays at the root, so no path leaves the mailbox.
 */
export function normalisePath(path: string): string {
  return posix.normalize(`/${path}`).replace(/(.)\/$/, '$1');
}

export function locate(path: string): Location {
  const normal = normalisePath(path);
  if (normal === '/') return { kind: 'root', path: '/' };
  const [folder, name, ...deeper] = normal.slice(1).split('/');
  if (!isFolder(folder)) return { kind: 'none', path: normal };
  if (name === undefined) return { kind: 'folder', path: normal, folder };
  if (deeper.length > 0 || !isValidName(name)) return { kind: 'none', path: normal };
  return { kind: 'file', path: normal, folder, name };
}

function isFolder(value: string | undefined): value is MailboxFolder {
  return MAILBOX_FOLDERS.includes(value as MailboxFolder);
}

/** A name a file may have: not empty, not too long, no control characters (a NUL among them). */
export function isValidName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name.length > 0 && name.length <= MAX_NAME_LENGTH && !/[\u0000-\u001f\u007f]/.test(name);
}

import type { Attributes, FileEntry } from 'ssh2';
import type { MailboxFile, MailboxFolder } from '@wms/edi';

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
/** The root holds the three folders only; a folder takes files (in/) or gives them up (out/, archive/). */
const ROOT_MODE = S_IFDIR | 0o555;
const FOLDER_MODE = S_IFDIR | 0o755;
/** in/: what the partner sent, not read back; out/ and archive/: to be read, moved and removed. */
const FILE_MODES: Record<MailboxFolder, number> = {
  in: S_IFREG | 0o200,
  out: S_IFREG | 0o644,
  archive: S_IFREG | 0o644,
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function rootAttributes(at: Date): Attributes {
  return { mode: ROOT_MODE, uid: 0, gid: 0, size: 0, atime: seconds(at), mtime: seconds(at) };
}

export function folderAttributes(at: Date): Attributes {
  return { mode: FOLDER_MODE, uid: 0, gid: 0, size: 0, atime: seconds(at), mtime: seconds(at) };
}

export function fileAttributes(file: Pick<MailboxFile, 'folder' | 'sizeBytes' | 'updatedAt'>): Attributes {
  const time = seconds(new Date(file.updatedAt));
  return { mode: FILE_MODES[file.folder], uid: 0, gid: 0, size: Number(file.sizeBytes), atime: time, mtime: time };
}

/** A directory entry with the `ls -l` line clients show (and some read a file's type from). */
export function entry(filename: string, attrs: Attributes, owner: string): FileEntry {
  return { filename, longname: longName(filename, attrs, owner), attrs };
}

function longName(filename: string, attrs: Attributes, owner: string): string {
  const when = new Date(attrs.mtime * 1000);
  const time = `${MONTHS[when.getUTCMonth()]} ${String(when.getUTCDate()).padStart(2)} ${String(
    when.getUTCHours(),
  ).padStart(2, '0')}:${String(when.getUTCMinutes()).padStart(2, '0')}`;
  const user = owner.slice(0, 16).padEnd(8);
  return `${modeString(attrs.mode)}    1 ${user} ${user} ${String(attrs.size).padStart(12)} ${time} ${filename}`;
}

function modeString(mode: number): string {
  const type = (mode & 0o170000) === S_IFDIR ? 'd' : '-';
  const bits = ['r', 'w', 'x'];
  let text = type;
  for (let shift = 8; shift >= 0; shift--) text += mode & (1 << shift) ? bits[(8 - shift) % 3] : '-';
  return text;
}

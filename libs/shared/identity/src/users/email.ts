import { AppError } from '@wms/platform';

/**
 * Characters that show nothing or reorder what is shown: format characters (Unicode category Cf: zero-width
 * space, joiners, soft hyphen, bidi controls, the byte-order mark…) and controls. An e-mail holding one looks
 * like another; it is refused, never silently cleaned, so what a person typed is what is stored.
 */
const INVISIBLE = /[\p{Cf}\p{Cc}]/u;

export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * The one form of an e-mail that is compared and stored: NFKC (fullwidth `ｓ４` is `s4`, ligatures are
 * letters), lower case, no surrounding spaces. Two addresses a reader cannot tell apart have one form, so
 * the users table's unique e-mail refuses the second (409).
 */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').toLowerCase().normalize('NFKC').trim();
}

/** `normalizeEmail` of an e-mail a caller names, refused with 400 when it holds invisible characters. */
export function emailForLookup(email: string): string {
  if (hasInvisibleCharacters(email))
    throw AppError.validation('The e-mail must not contain invisible characters', [
      { path: 'email', message: 'email must not contain invisible characters' },
    ]);
  return normalizeEmail(email);
}

import type { Request, Response } from 'express';

/**
 * Admin lists answer a bare JSON array; the way to the next page travels in headers instead:
 * `X-Next-Cursor` (pass it back as `cursor`) and an RFC 8288 `Link: <…>; rel="next"` with the same
 * query plus that cursor. Both are absent on the last page.
 */
export function setNextPage(req: Request, res: Response, nextCursor: string | null): void {
  if (!nextCursor) return;
  const next = new URL(req.originalUrl, 'http://local');
  next.searchParams.set('cursor', nextCursor);
  res.setHeader('X-Next-Cursor', nextCursor);
  res.setHeader('Link', `<${next.pathname}${next.search}>; rel="next"`);
}

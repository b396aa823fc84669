/** Seed section 8: a request body is at most 1 MB. */
export const BODY_LIMIT = '1mb';

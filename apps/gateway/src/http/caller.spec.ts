import type { NextFunction, Request, Response } from 'express';
import type { ApiKeyPrincipal } from '@wms/api-keys';
import type { AccessTokenPayload } from '@wms/identity';
import { AppError } from '@wms/platform';
import { attachKey, attachPerson, keyOf, personOf, withKey, withPerson } from './caller.js';

/** The typed caller: a handler receives the caller its guard attached, and a request without one is a 401. */
const request = () => ({}) as Request;
const response = {} as Response;
const next: NextFunction = () => undefined;

describe('the caller of a request', () => {
  it('is none until a guard attaches one', () => {
    const req = request();
    expect(keyOf(req)).toBeUndefined();
    expect(personOf(req)).toBeUndefined();
  });

  it('hands a key handler the key the guard attached', () => {
    const req = request();
    const key = { id: 'key-1', tenantId: null } as unknown as ApiKeyPrincipal;
    attachKey(req, key);
    const seen: unknown[] = [];
    withKey((typed) => seen.push(typed.apiKey.id))(req, response, next);
    expect(seen).toEqual(['key-1']);
    expect(personOf(req)).toBeUndefined();
  });

  it('hands a person handler the person the guard attached', () => {
    const req = request();
    attachPerson(req, { sub: 'user-1', tenantId: null } as unknown as AccessTokenPayload);
    const seen: unknown[] = [];
    withPerson((typed) => seen.push(typed.principal.sub))(req, response, next);
    expect(seen).toEqual(['user-1']);
  });

  it('refuses with 401 a handler whose guard did not run', () => {
    let ran = 0;
    const run = () => {
      ran += 1;
    };
    const refusal = (call: () => void) => {
      try {
        call();
      } catch (error) {
        return error instanceof AppError ? error.code : error;
      }
      return 'answered';
    };
    expect(refusal(() => withKey(run)(request(), response, next))).toBe('MISSING_API_KEY');
    expect(refusal(() => withPerson(run)(request(), response, next))).toBe('UNAUTHORIZED');
    expect(ran).toBe(0);
  });
});

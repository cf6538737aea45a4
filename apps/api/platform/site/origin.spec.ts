import { safeNext } from './origin.js';

describe('safeNext', () => {
  it.each(['/partner', '/partner/swaps?status=finished', '/partner/api-keys#new'])(
    'keeps the dashboard page %j',
    (next) => {
      expect(safeNext(next)).toBe(next);
    },
  );

  it.each([
    undefined,
    42,
    'https://evil.example/partner',
    '//evil.example/partner',
    '/partner//evil.example',
    '/\\evil.example',
    '/partner\\..\\v1',
    '/v1/swaps',
    '/partnerx',
    '/partner/login?next=/partner',
    '/partner/\u0000',
    `/partner/${'a'.repeat(3000)}`,
  ])('sends %j to the Overview instead', (next) => {
    expect(safeNext(next)).toBe('/partner');
  });
});

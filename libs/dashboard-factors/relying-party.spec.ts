import { relyingPartyFor } from './relying-party.js';

describe(relyingPartyFor.name, () => {
  const fromHost = (protocol: string, host: string | undefined) =>
    relyingPartyFor({ publicUrl: null, protocol, host });

  it('takes the domain and origin of the request', () => {
    expect(fromHost('http', 'localhost:3000')).toEqual({
      id: 'localhost',
      origin: 'http://localhost:3000',
      name: 'Swap Partners',
    });
    expect(fromHost('https', 'Partners.Example.com')).toMatchObject({
      id: 'partners.example.com',
      origin: 'https://partners.example.com',
    });
    expect(fromHost('http', 'app.localhost:8080')?.id).toBe('app.localhost');
  });

  it('prefers PUBLIC_URL to the request', () => {
    expect(
      relyingPartyFor({
        publicUrl: 'https://dash.example.com',
        protocol: 'http',
        host: '10.0.0.5:3000',
      }),
    ).toMatchObject({ id: 'dash.example.com', origin: 'https://dash.example.com' });
  });

  it.each([
    ['http', '127.0.0.1:3000'],
    ['https', '127.0.0.1'],
    ['https', '[::1]:3000'],
    ['https', '2130706433'],
    ['http', 'partners.example.com'],
    ['https', 'example.com.'],
    ['https', 'user@example.com'],
    ['https', 'example.com/path'],
    ['https', ''],
    ['https', undefined],
    ['https', 'exa mple.com'],
  ])('offers no passkeys on %s://%s', (protocol, host) => {
    expect(fromHost(protocol, host)).toBeNull();
  });
});

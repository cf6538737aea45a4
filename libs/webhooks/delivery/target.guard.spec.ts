import {
  checkWebhookTarget,
  checkWebhookUrl,
  classifyAddress,
  type ResolveAll,
} from './target.guard.js';

const strict = { allowPrivateTargets: false };
const relaxed = { allowPrivateTargets: true };
const resolvesTo =
  (...addresses: string[]): ResolveAll =>
  () =>
    Promise.resolve(
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

describe(classifyAddress.name, () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link_local'],
    ['2002:c0a8:0101::1', 'private'],
    ['::127.0.0.1', 'reserved'],
    ['not-an-ip', 'reserved'],
    // Local-use NAT64 and IPv4-translated forms reach an IPv4 address the guard cannot judge.
    ['64:ff9b:1::a00:1', 'private'],
    ['64:ff9b:1:ffff::808:808', 'private'],
    ['::ffff:0:a00:1', 'reserved'],
    ['::ffff:0:7f00:1', 'reserved'],
    ['::ffff:0:808:808', 'reserved'],
    ['::ffff:0:10.0.0.1', 'reserved'],
    // Outside global unicast 2000::/3: refused whatever the block.
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['1::1', 'reserved'],
    ['fec0::1', 'private'],
    // Special blocks inside 2000::/3.
    ['2001::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['2001:1ff:ffff::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['3fff:fff:ffff::1', 'reserved'],
    ['2002:7f00:1::1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['::ffff:100.64.0.1', 'cgnat'],
  ])('refuses %s as %s', (address, refused) => {
    expect(classifyAddress(address)).toBe(refused);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2a00:1450:4001:80b::200e',
    '2001:200::1',
    '3ffe::1',
    '2620:4f:8000::1',
  ])('accepts the public address %s', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });
});

describe(checkWebhookUrl.name, () => {
  it('requires https:// in live mode unless private targets are allowed', () => {
    expect(checkWebhookUrl('http://example.com/hook', true, strict)).toEqual({
      allowed: false,
      reason: 'must use https:// in live mode',
    });
    expect(checkWebhookUrl('http://example.com/hook', true, relaxed).allowed).toBe(true);
    expect(checkWebhookUrl('http://example.com/hook', false, strict).allowed).toBe(true);
    expect(checkWebhookUrl('https://example.com/hook', true, strict).allowed).toBe(true);
  });

  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    '/relative',
    'not a url',
  ])('refuses %s', (url) => {
    expect(checkWebhookUrl(url, false, relaxed).allowed).toBe(false);
  });

  it('refuses credentials in the URL and overly long URLs', () => {
    expect(checkWebhookUrl('https://user:pw@example.com/', true, strict).allowed).toBe(false);
    expect(checkWebhookUrl(`https://example.com/${'a'.repeat(2_100)}`, true, strict).allowed).toBe(
      false,
    );
  });

  it('refuses literal addresses that are not public, in every notation', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://169.254.169.254/latest/meta-data',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://10.0.0.1:8443/',
    ]) {
      expect(checkWebhookUrl(url, true, strict)).toMatchObject({ allowed: false });
    }
    expect(checkWebhookUrl('https://127.0.0.1/', true, relaxed).allowed).toBe(true);
  });
});

describe(checkWebhookTarget.name, () => {
  it('accepts a host whose every address is public', async () => {
    await expect(
      checkWebhookTarget(
        'https://hooks.partner.example/swaps',
        true,
        strict,
        resolvesTo('93.184.216.34', '2606:4700::1111'),
      ),
    ).resolves.toEqual({ allowed: true });
  });

  it('refuses a host with one private address among public ones', async () => {
    await expect(
      checkWebhookTarget(
        'https://mixed.example/',
        true,
        strict,
        resolvesTo('93.184.216.34', '10.0.0.5'),
      ),
    ).resolves.toEqual({ allowed: false, reason: 'resolves to a private address' });
  });

  it('refuses a host that resolves to the metadata address or does not resolve', async () => {
    await expect(
      checkWebhookTarget('https://metadata.example/', true, strict, resolvesTo('169.254.169.254')),
    ).resolves.toEqual({ allowed: false, reason: 'resolves to a link-local address' });
    await expect(
      checkWebhookTarget('https://nowhere.example/', true, strict, () =>
        Promise.reject(new Error('ENOTFOUND')),
      ),
    ).resolves.toMatchObject({ allowed: false });
  });

  it('lets private targets through when allowed', async () => {
    await expect(
      checkWebhookTarget('http://localhost:4000/', true, relaxed, resolvesTo('127.0.0.1')),
    ).resolves.toEqual({ allowed: true });
  });
});

import { execFileSync } from 'node:child_process';
import { walkthrough } from './walkthrough.js';

const KEY = 'pk_test_0123456789abcdef0123456789abcdef';

describe(walkthrough.name, () => {
  const sut = walkthrough;

  it('fills in the origin and the public key, and reads the secret from $SECRET', () => {
    const printed = sut('https://swap.example', KEY);
    expect(printed.create.split('\n').slice(0, 2)).toEqual([
      'API=https://swap.example',
      `AUTH="Authorization: Bearer ${KEY}:\${SECRET:?first export SECRET=the secret of ${KEY}}"`,
    ]);
    expect(printed.sdk).toContain("baseUrl: 'https://swap.example',");
    expect(printed.sdk).toContain(`credential: \`${KEY}:\${process.env.SECRET}\`,`);
    expect(printed.listen).toContain('--api https://swap.example --forward-to');
    expect(Object.values(printed).join('\n')).not.toMatch(/sk_test_[0-9a-f]/);
  });

  it('stops with a message when SECRET is not set, before any request', () => {
    const { create } = sut('http://127.0.0.1:9', KEY);
    const run = (): string =>
      execFileSync('bash', ['--norc', '-c', create.split('\n').slice(0, 2).join('\n')], {
        env: { PATH: process.env.PATH },
        stdio: 'pipe',
      }).toString();
    expect(run).toThrow(/first export SECRET=the secret of pk_test_/);
  });

  it.each([
    ["http://a'b", `API='http://a'\\''b'`],
    ['http://h$(touch x)', `API='http://h$(touch x)'`],
    ['http://h;id', `API='http://h;id'`],
  ])('quotes an origin the shell would read otherwise (%s)', (origin, line) => {
    const printed = sut(origin, KEY);
    expect(printed.create.split('\n')[0]).toBe(line);
    expect(printed.sdk).toContain(`baseUrl: '${origin.replace(/'/g, "\\'")}',`);
    const echoed = execFileSync('bash', ['--norc', '-c', `${line}\nprintf %s "$API"`], {
      env: { PATH: process.env.PATH },
    }).toString();
    expect(echoed).toBe(origin);
  });
});

import { validate } from 'class-validator';
import { IsPlainText, isPlainText } from './plain-text.validator.js';

class Input {
  @IsPlainText()
  name: unknown;
}

describe(isPlainText.name, () => {
  it.each([
    '',
    'Acme Wallet',
    'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    'Ünïcödé ✓',
    '🙂💱',
    '\u202Ebtc',
  ])('accepts %p', (value) => {
    expect(isPlainText(value)).toBe(true);
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['a tab', 'a\tb'],
    ['a newline', 'a\nb'],
    ['an escape', '\u001B[2J'],
    ['DEL', 'a\u007Fb'],
    ['a C1 control', 'a\u0085b'],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', '\uDC00'],
    ['a reversed pair', '\uDE42\uD83D'],
  ])('refuses %s', (_name, value) => {
    expect(isPlainText(value)).toBe(false);
  });
});

describe(IsPlainText.name, () => {
  it('names the field and leaves other types to the type check', async () => {
    const input = Object.assign(new Input(), { name: 'Acme\u0000' });
    const [error] = await validate(input);
    expect(error.constraints).toEqual({
      isPlainText: 'name must not contain control characters or unpaired surrogates.',
    });
    expect(await validate(Object.assign(new Input(), { name: 42 }))).toEqual([]);
  });
});

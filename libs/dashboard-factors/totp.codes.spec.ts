import { generateSync } from 'otplib';
import {
  manualKey,
  matchTotp,
  newRecoveryCodes,
  normalizeRecoveryCode,
  normalizeTotpCode,
} from './totp.codes.js';

// RFC 6238 appendix B's SHA-1 seed, "12345678901234567890", in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes', () => {
  it('match the RFC 6238 test vectors (6 digits)', () => {
    expect(matchTotp(RFC_SECRET, '287082', 59_000, null)).toBe(1);
    expect(matchTotp(RFC_SECRET, '081804', 1_111_111_109_000, null)).toBe(37_037_036);
    expect(matchTotp(RFC_SECRET, '005924', 1_234_567_890_000, null)).toBe(41_152_263);
  });

  it('refuse a step at or before the last one used', () => {
    const at = 1_234_567_890_000;
    const code = generateSync({ secret: RFC_SECRET, epoch: at / 1000 });
    expect(matchTotp(RFC_SECRET, code, at, 41_152_262)).toBe(41_152_263);
    expect(matchTotp(RFC_SECRET, code, at, 41_152_263)).toBeNull();
  });

  it('read what people type and nothing else', () => {
    expect(normalizeTotpCode(' 123 456 ')).toBe('123456');
    expect(normalizeTotpCode('12345')).toBeNull();
    expect(normalizeTotpCode('１２３４５６')).toBeNull();
    expect(normalizeTotpCode('1'.repeat(1000))).toBeNull();
    expect(normalizeRecoveryCode('ABCDE-FGH23')).toBe('abcdefgh23');
    expect(normalizeRecoveryCode('abcde fgh23')).toBe('abcdefgh23');
    expect(normalizeRecoveryCode('abcde-fgh2')).toBeNull();
    expect(normalizeRecoveryCode('abcde-fgh18')).toBeNull();
  });

  it('make ten distinct recovery codes that read back as themselves', () => {
    const codes = newRecoveryCodes();
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(normalizeRecoveryCode(code)).toBe(code.replace('-', ''));
    }
  });

  it('group the manual key in fours', () => {
    expect(manualKey('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
  });
});

import { describe, expect, it } from 'vitest';
import { COLOR_ROLES, LOADING_SIZES, MODAL_SIZES, theme } from '../src/config/theme';

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('theme', () => {
  it('has every colour role of docs/product.md', () => {
    expect(Object.keys(COLOR_ROLES)).toEqual(
      expect.arrayContaining([
        'primary',
        'secondary',
        'accent',
        'neutral',
        'white',
        'error',
        'disabled',
      ]),
    );
  });

  it.each([
    ['white on primary', COLOR_ROLES.white, COLOR_ROLES.primary],
    ['text on secondary', COLOR_ROLES.text, COLOR_ROLES.secondary],
    ['accent on white', COLOR_ROLES.accent, COLOR_ROLES.white],
    ['neutral on white', COLOR_ROLES.neutral, COLOR_ROLES.white],
    ['error on white', COLOR_ROLES.error, COLOR_ROLES.white],
    ['disabled on white', COLOR_ROLES.disabled, COLOR_ROLES.white],
    ['text on surface', COLOR_ROLES.text, COLOR_ROLES.surface],
    ['error on surface', COLOR_ROLES.error, COLOR_ROLES.surface],
  ])('passes WCAG AA for %s', (_name, foreground, background) => {
    expect(contrast(foreground, background)).toBeGreaterThanOrEqual(4.5);
  });

  it('uses Arial and the documented breakpoints and sizes', () => {
    expect(theme.fontFamily?.startsWith('Arial')).toBe(true);
    expect(theme.breakpoints?.mobile).toBe(`${675 / 16}em`);
    expect(theme.breakpoints?.tablet).toBe(`${900 / 16}em`);
    expect(MODAL_SIZES).toEqual({
      xs: { desktop: '30rem', tablet: '30rem' },
      s: { desktop: '60rem', tablet: '70vw' },
      m: { desktop: '80vw', tablet: '90vw' },
    });
    expect(LOADING_SIZES).toEqual({ xs: '0.4rem', s: '0.8rem', m: '2rem' });
  });
});

/** Badge colours dark enough for white text at WCAG AA (Mantine's .9 shades are not, for small text). */
export const TONE = { good: '#1e5b2c', bad: '#9b1c1c', warn: '#8a3c00', neutral: '#343a40', info: '#0b4a8b' } as const;

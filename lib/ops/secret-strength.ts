/**
 * About how many random bits a secret holds, judged from the text alone: the bytes it encodes (hex or
 * base64 text carries 4 or 6 bits a character; any other text 8 at most), and no more than its characters'
 * spread allows (Shannon's estimate from their frequencies: a phrase or a repeat scores low whatever its
 * length). A fresh `openssl rand -hex 32` scores about 240; 32 random bytes in base64 about 215, 195 at worst.
 */
export function estimatedRandomBits(secret: string): number {
  const length = [...secret].length;
  if (length === 0) return 0;
  // Text with spaces is a phrase: English carries about 1.5 bits a letter, whatever its letters' spread.
  const perChar = /^[0-9a-fA-F]+$/.test(secret)
    ? 4
    : /^[A-Za-z0-9+/_=-]+$/.test(secret)
      ? 6
      : /\s/.test(secret)
        ? 2
        : 8;
  const counts = new Map<string, number>();
  for (const c of secret) counts.set(c, (counts.get(c) ?? 0) + 1);
  let shannon = 0;
  for (const n of counts.values()) shannon -= (n / length) * Math.log2(n / length);
  return Math.floor(length * Math.min(perChar, shannon));
}

/** What a shared secret must score: 32 random bytes, less what the estimate misses on a short sample. */
export const SECRET_BITS_REQUIRED = 180;

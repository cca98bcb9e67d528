import { isIPv6 } from "node:net";

/** An IP address parsed from any spelling: IPv4 as a 32-bit number, IPv6 as 16 bytes. */
export type ParsedIp = { family: 4; value: number } | { family: 6; bytes: Uint8Array };

export type AddressVerdict = { allowed: true; address: string } | { allowed: false; reason: string };

// inet_aton parts: 0x.. is hex, a leading 0 is octal, anything else decimal.
function part(text: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(text)) return text.length === 2 ? 0 : Number.parseInt(text.slice(2), 16);
  if (/^0[0-7]*$/.test(text)) return Number.parseInt(text, 8);
  if (/^[1-9][0-9]*$/.test(text)) return Number.parseInt(text, 10);
  return null;
}

/**
 * Parses IPv4 the way inet_aton (and so many resolvers and libcs) does: "127.0.0.1", "2130706433",
 * "0x7f000001", "0177.0.0.1", "127.1" and "0x7f.1" all mean 127.0.0.1. Null when it is not IPv4.
 */
export function parseIpv4Loose(text: string): number | null {
  const parts = text.replace(/\.$/, "").split(".");
  if (parts.length === 0 || parts.length > 4) return null;
  const values = parts.map(part);
  if (values.some((v) => v === null || !Number.isFinite(v))) return null;
  const nums = values as number[];
  const last = nums.pop()!;
  if (nums.some((v) => v > 255) || last >= 2 ** (8 * (4 - nums.length))) return null;
  let value = 0;
  nums.forEach((v, i) => {
    value += v * 2 ** (8 * (3 - i));
  });
  return value + last;
}

function parseIpv6(input: string): Uint8Array | null {
  if (!isIPv6(input)) return null;
  // A dotted IPv4 tail ("::ffff:1.2.3.4") becomes its two hex groups ("::ffff:102:304").
  const text = input.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
    [((+a << 8) | +b).toString(16), ((+c << 8) | +d).toString(16)].join(":"),
  );
  const [left, right] = text.includes("::") ? text.split("::") : [text, undefined];
  const l = left ? left.split(":") : [];
  const r = right ? right.split(":") : [];
  const groups = right === undefined ? l : [...l, ...Array(8 - l.length - r.length).fill("0"), ...r];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const v = Number.parseInt(g, 16);
    bytes[i * 2] = v >> 8;
    bytes[i * 2 + 1] = v & 0xff;
  });
  return bytes;
}

/** Parses an address in any spelling (brackets and an IPv6 zone are dropped); null when it is a name. */
export function parseIp(input: string): ParsedIp | null {
  const text = input
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (text.includes(":")) {
    const bytes = parseIpv6(text);
    return bytes ? { family: 6, bytes } : null;
  }
  const value = parseIpv4Loose(text);
  return value === null ? null : { family: 4, value };
}

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
const IPV4_REFUSED: [number, number, string][] = [
  [v4(169, 254, 169, 254), 32, "cloud metadata"],
  [v4(100, 100, 100, 200), 32, "cloud metadata"],
  [v4(255, 255, 255, 255), 32, "broadcast"],
  [v4(0, 0, 0, 0), 8, "this network (0.0.0.0/8)"],
  [v4(10, 0, 0, 0), 8, "private"],
  [v4(100, 64, 0, 0), 10, "carrier-grade NAT"],
  [v4(127, 0, 0, 0), 8, "loopback"],
  [v4(169, 254, 0, 0), 16, "link-local"],
  [v4(172, 16, 0, 0), 12, "private"],
  [v4(192, 0, 0, 0), 24, "reserved (IETF protocol assignments)"],
  [v4(192, 0, 2, 0), 24, "reserved (documentation)"],
  [v4(192, 88, 99, 0), 24, "reserved (6to4 relay)"],
  [v4(192, 168, 0, 0), 16, "private"],
  [v4(198, 18, 0, 0), 15, "reserved (benchmarking)"],
  [v4(198, 51, 100, 0), 24, "reserved (documentation)"],
  [v4(203, 0, 113, 0), 24, "reserved (documentation)"],
  [v4(224, 0, 0, 0), 4, "multicast"],
  [v4(240, 0, 0, 0), 4, "reserved"],
];

function classifyV4(value: number): string | null {
  for (const [base, bits, reason] of IPV4_REFUSED) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return reason;
  }
  return null;
}

const startsWith = (bytes: Uint8Array, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);
const embeddedV4 = (bytes: Uint8Array, at: number) =>
  ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;

function classifyV6(b: Uint8Array): string | null {
  const zeros = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (zeros(16)) return "unspecified";
  if (zeros(15) && b[15] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible (::a.b.c.d) carry an IPv4 address.
  if (zeros(10) && b[10] === 0xff && b[11] === 0xff) return classifyV4(embeddedV4(b, 12));
  if (zeros(12)) return classifyV4(embeddedV4(b, 12));
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the IPv4 address they embed.
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return classifyV4(embeddedV4(b, 12));
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 1])) return "reserved (local-use NAT64)";
  if (startsWith(b, [0x20, 0x02])) return classifyV4(embeddedV4(b, 2));
  if (startsWith(b, [0x20, 0x01, 0, 0])) return "reserved (Teredo)";
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8])) return "reserved (documentation)";
  if (startsWith(b, [0xfd, 0, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54])) return "cloud metadata";
  if ((b[0]! & 0xfe) === 0xfc) return "private (unique local)";
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return "link-local";
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return "reserved (site-local)";
  if (b[0] === 0xff) return "multicast";
  // Everything outside global unicast (2000::/3) is reserved.
  if ((b[0]! & 0xe0) !== 0x20) return "reserved";
  return null;
}

/** The canonical text of a parsed address (dotted IPv4 or node's IPv6 form). */
function formatIp(ip: ParsedIp): string {
  if (ip.family === 4) return [24, 16, 8, 0].map((s) => (ip.value >>> s) & 0xff).join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  return groups.join(":");
}

/**
 * Whether a webhook may be sent to `address` (any spelling). Only public unicast passes; loopback
 * passes too when `allowLoopback` (the local devnet only).
 */
export function checkAddress(address: string, options: { allowLoopback?: boolean } = {}): AddressVerdict {
  const ip = parseIp(address);
  if (!ip) return { allowed: false, reason: "not an IP address" };
  const reason = ip.family === 4 ? classifyV4(ip.value) : classifyV6(ip.bytes);
  if (reason === null || (reason === "loopback" && options.allowLoopback)) {
    return { allowed: true, address: formatIp(ip) };
  }
  return { allowed: false, reason };
}

/**
 * Checks a webhook URL without resolving it: http(s) only, no credentials, and a literal IP or
 * "localhost" host must pass the address policy. Names are checked again when resolved, at send time.
 */
export function checkWebhookUrl(url: string, options: { allowLoopback?: boolean } = {}): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "is not a URL";
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "must be an http(s) URL";
  if (parsed.username || parsed.password) return "must not carry credentials";
  const host = parsed.hostname.replace(/\.$/, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) {
    return options.allowLoopback ? null : "points at a loopback address";
  }
  if (parseIp(host) === null) return null;
  const verdict = checkAddress(host, options);
  return verdict.allowed ? null : `points at a ${verdict.reason} address`;
}

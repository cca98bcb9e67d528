import "server-only";
import { isIPv6 } from "node:net";
import { getAddress } from "viem";

/** The fields of a sign-in proof that its EIP-4361 (SIWE) text is made of. */
export type SiweFields = {
  domain: string;
  address: string;
  statement?: string;
  uri: string;
  version: string;
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: string[];
};

// The productions of EIP-4361's ABNF (RFC 3986 URIs, RFC 3339 times) as regular expressions. None lets a
// line break through, so every field stays on its own labelled line: distinct fields, distinct texts.
const PCT = "%[0-9A-Fa-f]{2}";
const PCHAR = `(?:[A-Za-z0-9\\-._~!$&'()*+,;=:@]|${PCT})`;
const SEGMENT = `${PCHAR}*`;
const USERINFO = `(?:[A-Za-z0-9\\-._~!$&'()*+,;=:]|${PCT})*`;
const REG_NAME = `(?:[A-Za-z0-9\\-._~!$&'()*+,;=]|${PCT})*`;
const IP_LITERAL = "\\[([0-9A-Fa-f:.]+|[vV][0-9A-Fa-f]+\\.[A-Za-z0-9\\-._~!$&'()*+,;=:]+)\\]";
const AUTHORITY = `(?:${USERINFO}@)?(?:${IP_LITERAL}|${REG_NAME})(?::[0-9]*)?`;
const HIER_PART = `(?://${AUTHORITY}(?:/${SEGMENT})*|/(?:${PCHAR}+(?:/${SEGMENT})*)?|${PCHAR}+(?:/${SEGMENT})*|)`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:${HIER_PART}(?:\\?${QUERY})?(?:#${QUERY})?$`);
const DOMAIN = new RegExp(`^${AUTHORITY}$`);
const STATEMENT = /^[A-Za-z0-9 !#$&-;=?@[\]_~]+$/;
const NONCE = /^[A-Za-z0-9]{8,}$/;
const REQUEST_ID = new RegExp(`^${PCHAR}*$`);
const ADDRESS = /^0x[0-9A-Fa-f]{40}$/;
const DATE_TIME =
  /^(\d{4}-(?:0[1-9]|1[012])-(?:0[1-9]|[12]\d|3[01]))[Tt](?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

function matches(pattern: RegExp, value: string): boolean {
  const match = pattern.exec(value);
  if (!match) return false;
  // An IP literal is an IPv6 address unless it says it is something newer (IPvFuture).
  const literal = match[1];
  return literal === undefined || /^[vV]/.test(literal) || isIPv6(literal);
}

const isUri = (value: string) => matches(URI, value);

// A calendar date that exists (no February 30th), as the SIWE parser checks it.
function isDateTime(value: string): boolean {
  const date = DATE_TIME.exec(value)?.[1];
  return date !== undefined && new Date(date).toISOString().slice(0, 10) === date;
}

/** The address as SIWE writes it: EIP-55 checksummed; null when its mixed case is a wrong checksum. */
function checksummed(address: string): string | null {
  if (!ADDRESS.test(address)) return null;
  const hex = address.slice(2);
  const sameCase = hex === hex.toLowerCase() || hex === hex.toUpperCase();
  const canonical = getAddress(address);
  return sameCase || canonical === address ? canonical : null;
}

function grammatical(f: SiweFields): boolean {
  return (
    f.version === "1" &&
    Number.isSafeInteger(f.chainId) &&
    f.chainId >= 0 &&
    f.domain !== "" &&
    matches(DOMAIN, f.domain) &&
    NONCE.test(f.nonce) &&
    isUri(f.uri) &&
    isDateTime(f.issuedAt) &&
    (!f.expirationTime || isDateTime(f.expirationTime)) &&
    (!f.notBefore || isDateTime(f.notBefore)) &&
    (f.statement === undefined || f.statement === "" || STATEMENT.test(f.statement)) &&
    (f.requestId === undefined || REQUEST_ID.test(f.requestId)) &&
    (f.resources ?? []).every(isUri)
  );
}

/**
 * The EIP-4361 text of these fields, byte for byte what `siwe`'s `prepareMessage()` writes (and what
 * the x402 client signs); null when a field breaks the message's grammar, where `siwe` would throw.
 */
export function siweMessage(f: SiweFields): string | null {
  const address = checksummed(f.address);
  if (!address || !grammatical(f)) return null;
  const lines = [
    `URI: ${f.uri}`,
    `Version: ${f.version}`,
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
  ];
  // Empty times are left out and an empty request id is kept, exactly as `siwe` renders them.
  if (f.expirationTime) lines.push(`Expiration Time: ${f.expirationTime}`);
  if (f.notBefore) lines.push(`Not Before: ${f.notBefore}`);
  if (f.requestId !== undefined) lines.push(`Request ID: ${f.requestId}`);
  if (f.resources) lines.push(["Resources:", ...f.resources.map((r) => `- ${r}`)].join("\n"));
  const head = `${f.domain} wants you to sign in with your Ethereum account:\n${address}\n\n`;
  return `${head}${f.statement === undefined ? "" : `${f.statement}\n`}\n${lines.join("\n")}`;
}

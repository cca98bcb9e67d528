import "server-only";
import { Resolver as DnsResolver } from "node:dns/promises";
import { checkAddress, parseIp } from "./address-policy";

type Address = { address: string; family: number };

/** Resolves a host name to every address it has; `signal` aborts when the attempt runs out of time. */
export type Resolver = (hostname: string, signal: AbortSignal) => Promise<Address[]>;

// Per query and server; the caller's deadline still bounds the whole resolution.
const DNS_QUERY_TIMEOUT_MS = 5_000;
// RFC 6761: these names are loopback and never sent to DNS (c-ares does not read /etc/hosts).
const LOOPBACK: Address[] = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

/**
 * The default resolver: c-ares A and AAAA queries, never dns.lookup, whose getaddrinfo runs on the
 * libuv thread pool that fetch needs for the chain RPCs. Aborting `signal` cancels the queries.
 */
const resolveWithCares: Resolver = async (hostname, signal) => {
  const resolver = new DnsResolver({ timeout: DNS_QUERY_TIMEOUT_MS, tries: 1 });
  const cancel = () => resolver.cancel();
  signal.addEventListener("abort", cancel, { once: true });
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const found = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    const errors = [v4, v6].flatMap((r) =>
      r.status === "rejected" ? [r.reason as NodeJS.ErrnoException] : [],
    );
    // A name may have only one family: ENODATA for the other says nothing, so report the more telling error.
    if (found.length === 0 && errors.length > 0) throw errors.find((e) => e.code !== "ENODATA") ?? errors[0];
    return found;
  } finally {
    signal.removeEventListener("abort", cancel);
  }
};

/** Why a host may not be sent to: it does not exist, has no address, or resolves to a refused one. */
export class HostRefused extends Error {
  constructor(
    readonly kind: "no-such-host" | "no-address" | "dns-error" | "address-refused",
    message: string,
  ) {
    super(message);
  }
}
/** The deadline passed before the host resolved; a late answer is never used. */
export class DnsTimeout extends Error {}

/** `promise`, or a DnsTimeout as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DnsTimeout());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The host's addresses: a literal as is, localhost as loopback without a query, any other name resolved. */
function addressesOf(host: string, resolve: Resolver, signal: AbortSignal): Promise<Address[]> {
  if (parseIp(host) !== null) return Promise.resolve([{ address: host, family: 0 }]);
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return Promise.resolve(LOOPBACK);
  // RFC 6761 §6.4: "invalid" names never exist, and resolvers answer so without asking.
  if (name === "invalid" || name.endsWith(".invalid")) {
    return Promise.reject(Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: "ENOTFOUND" }));
  }
  return untilAborted(resolve(host, signal), signal);
}

function dnsRefusal(host: string, error: NodeJS.ErrnoException): HostRefused {
  if (error.code === "ENOTFOUND" || error.code === "NXDOMAIN") {
    return new HostRefused("no-such-host", `DNS: no such host (${host})`);
  }
  if (error.code === "ENODATA") return new HostRefused("no-address", `DNS: ${host} has no address`);
  return new HostRefused("dns-error", `DNS: cannot resolve ${host} (${error.code ?? error.message})`);
}

/**
 * Resolves a URL's host once and returns the one address to connect to: every address it resolves to
 * must pass the address policy. Throws HostRefused, or DnsTimeout when `signal` aborts first.
 */
export async function pinAddress(
  url: URL,
  options: { allowLoopback?: boolean; resolve?: Resolver },
  signal: AbortSignal,
): Promise<string> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  try {
    addresses = (await addressesOf(host, options.resolve ?? resolveWithCares, signal)).map((a) => a.address);
  } catch (error) {
    if (error instanceof DnsTimeout) throw error;
    // c-ares gave up on its own (each query's timeout): as much a timeout as the deadline.
    if ((error as NodeJS.ErrnoException).code === "ETIMEOUT") throw new DnsTimeout();
    throw dnsRefusal(host, error as NodeJS.ErrnoException);
  }
  if (signal.aborted) throw new DnsTimeout();
  if (addresses.length === 0) throw new HostRefused("no-address", `DNS: ${host} has no address`);
  // Every answer must pass: a name that also resolves to a private address is refused outright.
  for (const address of addresses) {
    const verdict = checkAddress(address, options);
    if (!verdict.allowed) {
      throw new HostRefused(
        "address-refused",
        `${host} resolves to a ${verdict.reason} address (${address})`,
      );
    }
  }
  return addresses[0]!;
}

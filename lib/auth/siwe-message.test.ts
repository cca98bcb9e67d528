import { createSIWxMessage } from "@x402/extensions/sign-in-with-x";
import fc from "fast-check";
import { SiweMessage } from "siwe";
import { bytesToHex, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { type SiweFields, siweMessage } from "./siwe-message";

const checksummedAddress = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => getAddress(bytesToHex(b)));
const anyCaseAddress = fc
  .tuple(checksummedAddress, fc.constantFrom("checksum", "lower", "upper"))
  .map(([a, c]) => (c === "lower" ? a.toLowerCase() : c === "upper" ? `0x${a.slice(2).toUpperCase()}` : a));
const dateTime = fc
  .tuple(
    fc.date({ min: new Date("1970-01-01"), max: new Date("2999-12-31"), noInvalidDate: true }),
    fc.constantFrom("ms", "seconds", "offset", "lower"),
  )
  .map(([d, form]) => {
    const iso = d.toISOString();
    if (form === "seconds") return iso.replace(/\.\d+Z$/, "Z");
    if (form === "offset") return iso.replace(/Z$/, "+02:30");
    return form === "lower" ? iso.replace("T", "t").replace("Z", "z") : iso;
  });
const uri = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    "http://localhost:3000/api/namespace/list?namespace=acme&cursor=abc",
    "https://user:pa%20ss@example.com:8443/a/b;c?d=e/f?#g",
    "http://[::1]:3000/",
    "http://[v7.fe80::a]/x",
    "http://192.168.0.256/",
    "urn:isbn:0451450523",
    "mailto:someone@example.com",
    "did:pkh:eip155:1:0xb9c5714089478a327f09197987f16f9e5d936e8a",
    "ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
    "x:",
  ),
);
const pchars = "A-Za-z0-9\\-._~!$&'()*+,;=:@";
const validFields = (address: fc.Arbitrary<string>, requestId: fc.Arbitrary<string>) =>
  fc.record(
    {
      domain: fc.oneof(
        fc.domain(),
        fc.constantFrom("localhost:3000", "[::1]:8080", "user@sub.example.org", "127.0.0.1", "x.io:"),
      ),
      address,
      statement: fc.oneof(fc.constant(""), fc.stringMatching(/^[A-Za-z0-9 !#$&-;=?@[\]_~]{1,60}$/)),
      uri,
      version: fc.constant("1"),
      chainId: fc.oneof(fc.nat(), fc.constantFrom(1, 8453, 31337, 4217, Number.MAX_SAFE_INTEGER)),
      nonce: fc.stringMatching(/^[A-Za-z0-9]{8,40}$/),
      issuedAt: dateTime,
      expirationTime: dateTime,
      notBefore: dateTime,
      requestId,
      resources: fc.array(uri, { maxLength: 4 }),
    },
    { requiredKeys: ["domain", "address", "uri", "version", "chainId", "nonce", "issuedAt"] },
  );
const requestId = fc.stringMatching(new RegExp(`^(?:[${pchars}]|%[0-9A-F]{2}){1,24}$`));

/** What the x402 client signs for these fields (the `siwe` 4 renderer), or null where it throws. */
function clientText(f: SiweFields): string | null {
  try {
    const info = { ...f, chainId: `eip155:${f.chainId}`, type: "eip191" as const };
    return createSIWxMessage(info, f.address);
  } catch {
    return null;
  }
}

// One field spoiled by one character: a line break, a space, or something outside its grammar.
const spoiled = fc
  .tuple(
    validFields(anyCaseAddress, fc.oneof(fc.constant(""), requestId)),
    fc.constantFrom("domain", "address", "statement", "uri", "nonce", "issuedAt", "requestId", "resources"),
    fc.constantFrom(
      "\n",
      "\r",
      " ",
      '"',
      "%",
      "<",
      "^",
      "`",
      "{",
      "é",
      "\t",
      "#",
      "/",
      "?",
      "\\",
      ":",
      "[",
      "@",
    ),
    fc.nat(),
  )
  .map(([fields, key, char, at]) => {
    const spoil = (v: string) => v.slice(0, at % (v.length + 1)) + char + v.slice(at % (v.length + 1));
    const f = { ...fields } as Record<string, unknown>;
    const value = f[key];
    if (key === "resources")
      f[key] = Array.isArray(value) && value[0] ? [spoil(value[0]), ...value.slice(1)] : [char];
    else f[key] = spoil(typeof value === "string" ? value : "");
    return f as SiweFields;
  });

describe("the EIP-4361 text of a sign-in proof", () => {
  it("is byte for byte what siwe's prepareMessage() writes, for every combination of fields", () => {
    fc.assert(
      fc.property(validFields(checksummedAddress, requestId), (f) => {
        const ours = siweMessage(f);
        expect(ours).not.toBeNull();
        expect(ours).toBe(new SiweMessage(f).prepareMessage());
        expect(ours).toBe(clientText(f));
      }),
      { numRuns: 400 },
    );
  });

  it("matches what the x402 client signs, lower-case addresses and empty request ids included", () => {
    fc.assert(
      fc.property(validFields(anyCaseAddress, fc.oneof(fc.constant(""), requestId)), (f) => {
        expect(siweMessage(f)).toBe(clientText(f));
      }),
      { numRuns: 300 },
    );
  });

  it("is refused wherever siwe refuses to write it, so no spoiled field is ever rendered", () => {
    fc.assert(
      fc.property(spoiled, (f) => {
        const [ours, theirs] = [siweMessage(f), clientText(f)];
        if (theirs === null || ours !== null) expect(ours).toBe(theirs);
        // Stricter in one place: siwe writes "0x…\n" as an address, and the text then reads as an empty statement.
        else expect(f.address).not.toMatch(/^0x[0-9A-Fa-f]{40}$/);
      }),
      { numRuns: 1500 },
    );
  });

  it("reads back, through siwe's ABNF parser, as exactly the fields it was made of", () => {
    fc.assert(
      fc.property(validFields(anyCaseAddress, fc.oneof(fc.constant(""), requestId)), (f) => {
        const parsed = new SiweMessage(siweMessage(f)!);
        expect({ ...parsed, warnings: undefined, scheme: undefined }).toEqual({
          ...f,
          address: getAddress(f.address),
          warnings: undefined,
          scheme: undefined,
          statement: f.statement,
          expirationTime: f.expirationTime,
          notBefore: f.notBefore,
          requestId: f.requestId,
          resources: f.resources,
        });
      }),
      { numRuns: 300 },
    );
  });

  it("refuses line breaks in every field and a wrong EIP-55 checksum", () => {
    const base: SiweFields = {
      domain: "localhost:3000",
      address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      uri: "http://localhost:3000/api/namespace/list",
      version: "1",
      chainId: 31337,
      nonce: "0123456789abcdef",
      issuedAt: "2026-11-24T10:00:00.000Z",
      expirationTime: "2026-11-24T10:05:00.000Z",
    };
    expect(siweMessage(base)).not.toBeNull();
    for (const key of ["domain", "uri", "nonce", "issuedAt", "expirationTime"] as const) {
      expect(siweMessage({ ...base, [key]: `${base[key]}\nVersion: 1` })).toBeNull();
    }
    expect(siweMessage({ ...base, statement: "Sign in\nURI: https://evil.example" })).toBeNull();
    expect(siweMessage({ ...base, requestId: "a\nb" })).toBeNull();
    expect(siweMessage({ ...base, resources: ["https://a.example\n- https://b.example"] })).toBeNull();
    expect(siweMessage({ ...base, address: "0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266" })).toBeNull();
    expect(siweMessage({ ...base, version: "2" })).toBeNull();
    expect(siweMessage({ ...base, issuedAt: "2026-02-30T10:00:00Z" })).toBeNull();
  });

  // Inputs long enough that a quadratic scan would take minutes, where a linear one takes about 20 ms: the
  // bound is 250 times that, so a loaded machine passes and a backtracking pattern still fails.
  it("takes linear time on hostile input", () => {
    const base: SiweFields = {
      domain: "localhost:3000",
      address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      uri: "http://localhost:3000/",
      version: "1",
      chainId: 1,
      nonce: "0123456789abcdef",
      issuedAt: "2026-11-24T10:00:00Z",
    };
    const hostile = [
      `http://${"a:".repeat(100_000)}${"b".repeat(100_000)} `,
      `http://${"%41".repeat(100_000)}@${"[".repeat(2)}${"1:".repeat(100_000)}`,
      `x:${"/".repeat(200_000)}${"c/".repeat(100_000)}?${"?/".repeat(100_000)}#${"#".repeat(2)}`,
    ];
    for (const long of hostile) {
      const started = performance.now();
      for (const key of ["domain", "uri", "requestId"] as const) {
        expect(siweMessage({ ...base, [key]: long }) === null).toBe(true);
      }
      expect(siweMessage({ ...base, resources: [long] }) === null).toBe(true);
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});

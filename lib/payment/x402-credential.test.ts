import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/http/errors";
import { parseX402Credential, type X402Offer, x402HeaderOf, x402KeyParts } from "./x402-credential";

const NOW = 1_800_000_000;
const offer: X402Offer = {
  requirement: {
    scheme: "exact",
    network: "eip155:31337",
    amount: "10000",
    asset: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    maxTimeoutSeconds: 120,
    extra: { name: "USD Coin", version: "2" },
  },
  resource: {
    url: "http://localhost:3000/api/namespace/feedback",
    description: "Submitting feedback",
    mimeType: "application/json",
  },
};
const payload = () => ({
  x402Version: 2,
  resource: { ...offer.resource },
  accepted: { ...offer.requirement, extra: { ...offer.requirement.extra } },
  payload: {
    signature: `0x${"ab".repeat(65)}`,
    authorization: {
      from: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      to: offer.requirement.payTo,
      value: "10000",
      validAfter: String(NOW - 600),
      validBefore: String(NOW + 120),
      nonce: `0x${"12".repeat(32)}`,
    },
  },
});
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
const parse = (header: string | null) => parseX402Credential(header, offer, NOW);

/** The fields a refusal names, or a failure when it is not a 402 payment-invalid. */
function refusedFields(header: string | null): string[] {
  try {
    parse(header);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(402);
    expect((error as AppError).code).toBe("payment-invalid");
    return ((error as AppError).extra.errors ?? []).map((e) => e.field);
  }
  throw new Error("accepted");
}

function mutated(path: string[], value: unknown) {
  const p = payload() as Record<string, unknown>;
  let node = p;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  if (value === undefined) delete node[path.at(-1)!];
  else node[path.at(-1)!] = value;
  return encode(p);
}

describe("reading an x402 credential before anything is claimed", () => {
  it("accepts the credential the route offered, with its replay key, payer and deadline", () => {
    const read = parse(encode(payload()));
    expect(read.payer).toBe("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
    expect(read.expiresAt.getTime()).toBe((NOW + 120) * 1000);
    expect(x402KeyParts(read.paymentKey)).toEqual({
      asset: offer.requirement.asset.toLowerCase(),
      authorizer: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
      nonce: `0x${"12".repeat(32)}`,
    });
  });

  it.each([
    ["value", "abc"],
    ["value", "-1"],
    ["value", "1e4"],
    ["value", 10000],
    ["value", "0010000"],
    ["value", "9".repeat(79)],
    ["validBefore", "x"],
    ["validBefore", "100000000000000000000"],
    ["validBefore", String(NOW + 2)],
    ["validAfter", String(NOW + 60)],
    ["validAfter", null],
    ["nonce", "0x12"],
    ["nonce", `0x${"zz".repeat(32)}`],
    ["from", "0x123"],
    ["to", "0x0000000000000000000000000000000000000001"],
  ])("refuses authorization.%s = %j, naming it", (field, value) => {
    expect(refusedFields(mutated(["payload", "authorization", field], value))).toEqual([
      `PAYMENT-SIGNATURE.payload.authorization.${field}`,
    ]);
  });

  it("refuses a signature that is not hex of 65 bytes or more, or missing", () => {
    for (const value of ["0x", "0xabc", `0x${"ab".repeat(64)}`, 42, undefined]) {
      expect(refusedFields(mutated(["payload", "signature"], value))).toEqual([
        "PAYMENT-SIGNATURE.payload.signature",
      ]);
    }
  });

  it("refuses a credential for another price, recipient, network, asset or route", () => {
    expect(refusedFields(mutated(["accepted", "amount"], "20000"))).toContain("PAYMENT-SIGNATURE.accepted");
    expect(refusedFields(mutated(["accepted", "network"], "eip155:8453"))).toContain(
      "PAYMENT-SIGNATURE.accepted",
    );
    expect(refusedFields(mutated(["accepted", "maxTimeoutSeconds"], 99999))).toContain(
      "PAYMENT-SIGNATURE.accepted",
    );
    expect(
      refusedFields(mutated(["resource", "url"], "http://localhost:3000/api/namespace/resolve")),
    ).toEqual(["PAYMENT-SIGNATURE.resource"]);
  });

  it("buys the resource's url, description and type: the service's Bazaar metadata may be echoed or left out", () => {
    const described = {
      ...offer,
      resource: { ...offer.resource, serviceName: "Feedback service", tags: ["feedback"] },
    };
    const echoed = { ...payload(), resource: { ...described.resource } };
    const minimal = payload();
    for (const sent of [echoed, minimal]) {
      expect(() => parseX402Credential(encode(sent), described, NOW)).not.toThrow();
    }
    // Anything else beside them is not what was offered.
    const padded = { ...payload(), resource: { ...offer.resource, amount: "0" } };
    expect(() => parseX402Credential(encode(padded), described, NOW)).toThrow(/resource/);
  });

  it("refuses unknown fields, a wrong version, and headers that are not base64 JSON", () => {
    expect(refusedFields(mutated(["payload", "authorization", "extra"], "1"))).toEqual([
      "PAYMENT-SIGNATURE.payload.authorization",
    ]);
    expect(refusedFields(mutated(["x402Version"], 1))).toEqual(["PAYMENT-SIGNATURE.x402Version"]);
    expect(refusedFields(mutated(["payload"], undefined))).toEqual(["PAYMENT-SIGNATURE.payload"]);
    for (const header of [
      "",
      "not base64!",
      encode("a string"),
      Buffer.from("{").toString("base64"),
      "A".repeat(20_000),
    ]) {
      expect(refusedFields(header).length).toBeGreaterThan(0);
    }
    expect(refusedFields(null)).toEqual(["PAYMENT-SIGNATURE"]);
  });

  it("ignores what clients add in extensions, but reads a payment-identifier", () => {
    const p = { ...payload(), extensions: { "client-note": { id: "x" } } };
    expect(parse(encode(p))).toMatchObject({
      payer: payload().payload.authorization.from,
      paymentIdentifier: null,
    });
    const declared = { info: { required: false, id: "pay_0123456789abcdef" } };
    const carried = { ...payload(), extensions: { "payment-identifier": declared } };
    expect(parse(encode(carried)).paymentIdentifier).toBe("pay_0123456789abcdef");
    const bare = { ...payload(), extensions: { "payment-identifier": { info: { required: false } } } };
    expect(parse(encode(bare)).paymentIdentifier).toBeNull();
  });

  it("refuses a malformed payment-identifier, naming it", () => {
    for (const id of ["short", "has spaces in it, sixteen+", "x".repeat(129), 42]) {
      const p = { ...payload(), extensions: { "payment-identifier": { info: { required: false, id } } } };
      expect(() => parse(encode(p))).toThrow(/PAYMENT-SIGNATURE\.extensions\.payment-identifier/);
    }
    for (const info of [undefined, "text", { id: "pay_0123456789abcdef" }, { required: "no" }]) {
      const p = { ...payload(), extensions: { "payment-identifier": { info } } };
      expect(() => parse(encode(p))).toThrow(/PAYMENT-SIGNATURE\.extensions\.payment-identifier/);
    }
  });

  // The header is read before any signature is checked, so whatever it carries comes from anyone. A JSON
  // schema in it is the client's to write: compiling it would let one unsigned request spend the server's
  // CPU at will (a `pattern` that backtracks on the id stops the event loop for hours), and it would let the
  // client choose which ids are valid. The identifier is checked against the service's own rules only.
  it("never runs a JSON schema the client put beside its payment-identifier", () => {
    const id = "pay_0123456789abcdef";
    for (const schema of [
      { type: "object", properties: { id: { type: "string", maxLength: 1 } } },
      { $ref: "https://attacker.example/schema.json" },
      { type: "object", properties: { id: { type: "string", pattern: "^(a|a?)+$" } } },
      "not a schema",
    ]) {
      const p = {
        ...payload(),
        extensions: { "payment-identifier": { info: { required: false, id }, schema } },
      };
      expect(parse(encode(p)).paymentIdentifier).toBe(id);
    }
    // Nor does a permissive schema let an id past the service's own rules.
    const lax = { type: "object" };
    const p = {
      ...payload(),
      extensions: { "payment-identifier": { info: { required: false, id: "short" }, schema: lax } },
    };
    expect(() => parse(encode(p))).toThrow(/PAYMENT-SIGNATURE\.extensions\.payment-identifier/);
  });
});

describe("x402 header values", () => {
  it("are the text the SDK's encoders write, non-ASCII included", async () => {
    const { encodePaymentRequiredHeader, encodePaymentResponseHeader } = await import("@x402/core/http");
    const required = {
      x402Version: 2,
      error: "Payment required",
      resource: { ...offer.resource, description: "Rückmeldung senden — 送信 ✓" },
      accepts: [offer.requirement],
      extensions: { bazaar: { info: { input: { body: { title: "𝔘nicode" } } } } },
    };
    expect(x402HeaderOf(required)).toBe(encodePaymentRequiredHeader(required as never));
    const settled = {
      success: true,
      transaction: "0xabc",
      network: "eip155:31337",
      payer: offer.requirement.payTo,
    };
    expect(x402HeaderOf(settled)).toBe(encodePaymentResponseHeader(settled as never));
  });
});

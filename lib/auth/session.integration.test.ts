import { SiweMessage } from "siwe";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import * as nonceRoute from "@/app/api/auth/nonce/route";
import * as sessionRoute from "@/app/api/auth/session/route";
import * as statusRoute from "@/app/api/namespace/status/route";
import { requireSignIn } from "./siwx";

const ORIGIN = "http://localhost:3000";
const wallet = privateKeyToAccount(generatePrivateKey());

async function signedMessage(overrides: Partial<SiweMessage> = {}, signer = wallet) {
  const challenge = await (await nonceRoute.GET(new Request(`${ORIGIN}/api/auth/nonce`))).json();
  const message = new SiweMessage({ ...challenge, address: signer.address, ...overrides }).prepareMessage();
  return { message, signature: await signer.signMessage({ message }) };
}

function post(body: unknown, origin: string | null = ORIGIN) {
  return sessionRoute.POST(
    new Request(`${ORIGIN}/api/auth/session`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(origin ? { origin } : {}) },
      body: JSON.stringify(body),
    }),
  );
}

async function signIn(): Promise<string> {
  const res = await post(await signedMessage());
  expect(res.status).toBe(200);
  return (res.headers.get("set-cookie") ?? "").split(";")[0]!;
}

const status = (cookie: string) =>
  statusRoute.GET(new Request(`${ORIGIN}/api/namespace/status`, { headers: { cookie } }));

describe("browser sessions", () => {
  it("trades a signed SIWE message for an HttpOnly, SameSite, 8-hour cookie that list and status accept", async () => {
    const res = await post(await signedMessage());
    expect(res.status).toBe(200);
    expect((await res.json()).session.address).toBe(wallet.address);
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("Max-Age=28800");
    const cookie = setCookie.split(";")[0]!;
    const read = await status(cookie);
    expect(read.status).toBe(200);
    expect((await read.json()).submitter).toBe(wallet.address);
    const session = await sessionRoute.GET(
      new Request(`${ORIGIN}/api/auth/session`, { headers: { cookie } }),
    );
    expect((await session.json()).session.address).toBe(wallet.address);
  });

  it("accepts each signed message once", async () => {
    const signed = await signedMessage();
    expect((await post(signed)).status).toBe(200);
    const replay = await post(signed);
    expect(replay.status).toBe(401);
    expect((await replay.json()).detail).toMatch(/nonce/);
  });

  it("refuses a message for another site or chain, or signed by another wallet, without spending the nonce", async () => {
    const forged = await signedMessage({ domain: "evil.example" });
    expect((await post(forged)).status).toBe(401);
    const otherChain = await signedMessage({ chainId: 1 });
    expect((await post(otherChain)).status).toBe(401);
    const honest = await signedMessage();
    const impostor = privateKeyToAccount(generatePrivateKey());
    const stolen = {
      message: honest.message,
      signature: await impostor.signMessage({ message: honest.message }),
    };
    const refused = await post(stolen);
    expect(refused.status).toBe(401);
    expect((await refused.json()).detail).toMatch(/signature does not match/);
    expect((await post(honest)).status).toBe(200);
  });

  it("refuses a sign-in posted from another site", async () => {
    expect((await post(await signedMessage(), "https://evil.example")).status).toBe(403);
    expect((await post(await signedMessage(), null)).status).toBe(403);
  });

  it("ignores an unknown or tampered cookie: the caller is asked to sign in", async () => {
    const cookie = await signIn();
    const tampered = `${cookie.slice(0, -2)}${cookie.endsWith("AA") ? "BB" : "AA"}`;
    expect((await status(tampered)).status).toBe(402);
    expect((await status("session=not-a-token")).status).toBe(402);
  });

  it("lets a cookie authorise a state-changing request only from our own origin", async () => {
    const cookie = await signIn();
    const from = (origin: string) =>
      new Request(`${ORIGIN}/api/namespace/resolve`, { method: "POST", headers: { cookie, origin } });
    await expect(requireSignIn(from("https://evil.example"))).rejects.toMatchObject({ status: 403 });
    await expect(requireSignIn(from(ORIGIN))).resolves.toMatchObject({ address: wallet.address });
  });

  it("signs out on the server: the old cookie stops working", async () => {
    const cookie = await signIn();
    const del = (origin: string) =>
      sessionRoute.DELETE(
        new Request(`${ORIGIN}/api/auth/session`, { method: "DELETE", headers: { cookie, origin } }),
      );
    expect((await del("https://evil.example")).status).toBe(403);
    expect((await status(cookie)).status).toBe(200);
    const out = await del(ORIGIN);
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/^session=; .*Max-Age=0/);
    expect((await status(cookie)).status).toBe(402);
  });
});

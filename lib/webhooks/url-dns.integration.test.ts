import { Resolver as DnsResolver } from "node:dns/promises";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createSignInFetch } from "@/scripts/clients/siwx-fetch";
import { devnetX402Payer } from "@/scripts/clients/x402-payer";
import { APP, appFetch, postJson, uniqueName } from "@/testing/app-fetch";
import { chainReader } from "@/testing/chain";
import { workerDevnet } from "@/testing/worker-devnet";
import { SAVE_DNS_TIMEOUT_MS } from "./url-check";

// Saving a webhook URL resolves its host with the sender's own resolver and address policy: a host
// that does not exist, resolves to a refused address, or does not answer in time is a 400 on `url`.

const devnet = workerDevnet();
const owner = {
  pay: devnetX402Payer(devnet, 5, appFetch),
  read: createSignInFetch(devnet.accounts[5]!.privateKey as `0x${string}`, appFetch),
};
const stranger = createSignInFetch(devnet.accounts[4]!.privateKey as `0x${string}`, appFetch);
const namespace = uniqueName("dns");
const api = `${APP}/api/namespace/webhook`;
const patch = (url: string, by = owner.read) =>
  by.fetch(api, { ...postJson({ namespace, url }), method: "PATCH" });
const savedUrl = async () => (await (await owner.read.fetch(`${api}?namespace=${namespace}`)).json()).url;
/** The field errors of a refused save. */
async function refusal(res: Response) {
  expect(res.status).toBe(400);
  return (await res.json()).errors as { field: string; message: string }[];
}
/** The c-ares resolver's answers, from a table instead of the network. */
function answer(v4: () => Promise<string[]>) {
  vi.spyOn(DnsResolver.prototype, "resolve4").mockImplementation(v4 as never);
  vi.spyOn(DnsResolver.prototype, "resolve6").mockImplementation((async () => {
    throw Object.assign(new Error("queryAaaa ENODATA"), { code: "ENODATA" });
  }) as never);
}

beforeAll(async () => {
  const res = await owner.pay.fetch(`${APP}/api/namespace/register`, postJson({ namespace }));
  expect(res.status).toBe(200);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("saving a webhook URL checks that its host resolves", () => {
  it("refuses a host that does not exist, naming url, and keeps the URL saved before", async () => {
    expect((await patch("http://localhost:9/ok")).status).toBe(200);
    const errors = await refusal(await patch("https://hooks.slack.invalid/services/T0/B0/x"));
    expect(errors).toEqual([
      { field: "url", message: "names a host that does not exist (DNS: no such host hooks.slack.invalid)" },
    ]);
    answer(async () => {
      throw Object.assign(new Error("queryA ENOTFOUND"), { code: "ENOTFOUND" });
    });
    expect((await refusal(await patch("https://typo.example.net/hook")))[0]!.message).toMatch(
      /does not exist .*typo\.example\.net/,
    );
    expect(await savedUrl()).toBe("http://localhost:9/ok");
  });

  it("refuses a name that resolves to a private address, as a send would", async () => {
    answer(async () => ["93.184.216.34", "10.0.0.7"]);
    const errors = await refusal(await patch("https://inside.example.net/hook"));
    expect(errors).toEqual([
      { field: "url", message: "inside.example.net resolves to a private address (10.0.0.7)" },
    ]);
  });

  it("says when the DNS lookup timed out, and saves nothing", async () => {
    answer(() => new Promise(() => {}));
    const started = Date.now();
    const errors = await refusal(await patch("https://slow.example.net/hook"));
    expect(errors[0]).toEqual({
      field: "url",
      message: `could not be checked: the DNS lookup of slow.example.net timed out after ${SAVE_DNS_TIMEOUT_MS / 1000} s`,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(SAVE_DNS_TIMEOUT_MS - 100);
    expect(await savedUrl()).toBe("http://localhost:9/ok");
  });

  it("saves a public name, and keeps the loopback allowance of the devnet as it was", async () => {
    answer(async () => ["93.184.216.34"]);
    expect(await (await patch("https://hooks.example.net/feedback")).json()).toMatchObject({
      url: "https://hooks.example.net/feedback",
    });
    vi.restoreAllMocks();
    // 127.0.0.1 and localhost pass only because the devnet sets WEBHOOKS_ALLOW_LOOPBACK.
    expect((await patch("http://127.0.0.1:9/hook")).status).toBe(200);
    expect((await patch("http://api.localhost:9/hook")).status).toBe(200);
  });

  it("looks nothing up for someone who is not the owner", async () => {
    const query = vi.spyOn(DnsResolver.prototype, "resolve4");
    expect((await patch("https://hooks.example.net/x", stranger)).status).toBe(403);
    expect(query).not.toHaveBeenCalled();
  });
});

describe("a reporter's callback URL is resolved for a payer only", () => {
  const submit = {
    namespace,
    type: "bug",
    title: "Callback check",
    description: "Its callback host is slow.",
  };

  it("answers a stranger's unpaid ask with the price, looking nothing up; the paid retry is refused uncharged", async () => {
    const lookups = vi.fn(async () => ["93.184.215.14"]);
    answer(lookups);
    const url = "https://agent.example.com/hook";
    const asked = await appFetch(`${APP}/api/namespace/feedback`, postJson({ ...submit, callbackUrl: url }));
    expect(asked.status).toBe(402);
    expect(lookups).not.toHaveBeenCalled();
    // The form is still checked before any price: a private address in the URL itself is a 400 at once.
    const privateUrl = await appFetch(
      `${APP}/api/namespace/feedback`,
      postJson({ ...submit, callbackUrl: "http://10.0.0.7/hook" }),
    );
    expect((await refusal(privateUrl)).map((e) => e.field)).toEqual(["callbackUrl"]);
    // A host that does not exist is refused for the payer, before the payment is taken.
    const payer = devnetX402Payer(devnet, 4, appFetch);
    const tokens = chainReader(devnet.x402.rpcUrl, devnet.x402.asset);
    const before = await tokens.balanceOf(payer.address);
    const paid = await payer.fetch(
      `${APP}/api/namespace/feedback`,
      postJson({ ...submit, callbackUrl: "https://agent.nowhere.invalid/hook" }),
    );
    expect((await refusal(paid)).map((e) => e.field)).toEqual(["callbackUrl"]);
    expect(await tokens.balanceOf(payer.address)).toBe(before);
  });
});

import { expect, type Page, type TestInfo } from "@playwright/test";
import type { Hex } from "viem";
import { createX402Fetch } from "../../scripts/clients/x402-payer";
import { devnet } from "./wallet";

/** A full-page screenshot kept with the test's artifacts (and attached to the report). */
export async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/** A paid API call from `privateKey`: POSTs `body` as JSON, pays the 402 with x402, expects 200. */
export async function payAndPost(privateKey: Hex, path: string, body: Record<string, unknown>) {
  const payer = createX402Fetch({
    privateKey,
    network: devnet.x402.network,
    rpcUrl: devnet.x402.rpcUrl,
    asset: devnet.x402.asset,
  });
  const res = await payer.fetch(`${devnet.appUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  // A refusal names itself: its problem (a settlement still pending names its payment) is the message.
  expect(
    res.status,
    `paid ${path} answered ${res.status}: ${res.status === 200 ? "" : await res.clone().text()}`,
  ).toBe(200);
  return res.json();
}

/** An agent's submission through the API, paid with x402 from `privateKey`; returns the item id. */
export async function submitAsAgent(privateKey: Hex, namespace: string, body: Record<string, unknown>) {
  return (await payAndPost(privateKey, "/api/namespace/feedback", { namespace, ...body })).id as string;
}

/** Every Content-Security-Policy violation the page reports, across navigations. */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__cspViolation", (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __cspViolation: (v: string) => void }).__cspViolation(
        `${e.violatedDirective} ${e.blockedURI} at ${location.pathname}`,
      );
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  return violations;
}

/**
 * The next request matching `url` is answered by the server at once, but the answer reaches the page
 * only once `until` has settled: a slow network delivering a read from before a write after that write.
 */
export async function deliverLate(page: Page, url: RegExp, until: Promise<unknown>) {
  await page.route(
    url,
    async (route) => {
      const response = await route.fetch();
      await until;
      await route.fulfill({ response });
    },
    { times: 1 },
  );
}

import { createWalletClient, defineChain, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { getBlock, getBlockNumber, getTransaction, getTransactionCount } from "viem/actions";
import { afterAll, describe, expect, it } from "vitest";
import { type FaultPolicy, PASS, startRpcProxy } from "@/testing/rpc-proxy";
import { workerDevnet } from "@/testing/worker-devnet";
import { createLocalNonceManager } from "./nonces";
import { createSender } from "./sender";

// A sender on the devnet's EVM chain, behind a proxy that loses or refuses its sends.
const devnet = workerDevnet();
const proxy = await startRpcProxy(devnet.x402.rpcUrl);
afterAll(() => proxy.close());

const account = privateKeyToAccount(devnet.accounts[6]!.privateKey);
const chain = defineChain({
  id: Number(devnet.x402.network.split(":")[1]),
  name: "devnet",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: [proxy.url] } },
});
const client = createWalletClient({ account, chain, pollingInterval: 50, transport: http(proxy.url) });
const sender = createSender({ client, account, nonces: createLocalNonceManager(), receiptTimeoutMs: 5_000 });
const noop = { to: account.address, value: 0n };
const nextNonce = () => getTransactionCount(client, { address: account.address });

/** The sender's mined transaction at `nonce`, from the last few blocks. */
async function transactionAt(nonce: number) {
  const head = await getBlockNumber(client);
  for (let n = head; n >= 0n && n > head - 10n; n--) {
    const block = await getBlock(client, { blockNumber: n, includeTransactions: true });
    const found = block.transactions.find(
      (t) => t.from === account.address.toLowerCase() && t.nonce === nonce,
    );
    if (found) return found;
  }
  return undefined;
}

/** A sender of its own that asks the node about a send still unanswered after `lostSendCheckMs`. */
const watchingSender = (lostSendCheckMs: number) =>
  createSender({
    client,
    account,
    nonces: createLocalNonceManager(),
    receiptTimeoutMs: 5_000,
    lostSendCheckMs,
  });

/** Applies `fault` to the first send only. */
function firstSend(fault: ReturnType<FaultPolicy>): FaultPolicy {
  let done = false;
  return ({ method }) => {
    if (done || !method.startsWith("eth_sendRawTransaction")) return { kind: "pass" };
    done = true;
    return fault;
  };
}

describe("the sender", () => {
  it("sends synchronously and brings the receipt back", async () => {
    const nonce = await nextNonce();
    const sent = await sender.send(noop);
    expect(sent.receipt).toMatchObject({ status: "success", transactionHash: sent.hash });
    expect((await getTransaction(client, { hash: sent.hash })).nonce).toBe(nonce);
  });

  it("keeps the hash of a send whose connection was cut, and gives its nonce to the next send", async () => {
    const nonce = await nextNonce();
    proxy.setPolicy(firstSend({ kind: "cut" }));
    // Another value than the next send's: the same call at the same nonce would be the same transaction.
    const lost = await sender.send({ ...noop, value: 1n });
    expect(lost.receipt).toBeUndefined();
    const next = await sender.send(noop);
    proxy.setPolicy(PASS);
    expect(next.receipt?.status).toBe("success");
    expect((await getTransaction(client, { hash: next.hash })).nonce).toBe(nonce);
    // The lost one is still waited for by its hash: it never reached the chain, so the wait runs out.
    await expect(sender.wait({ hash: lost.hash, timeout: 300 })).rejects.toThrow();
    expect(await nextNonce()).toBe(nonce + 1);
  });

  it("sends a swallowed send's bytes again once the node is found not to hold it: the sends behind it wait for it, not for the timeout", async () => {
    const watching = watchingSender(300);
    const nonce = await nextNonce();
    // Never answered, never forwarded: without the look after 300 ms it would hang for the client's 10 s.
    proxy.setPolicy(firstSend({ kind: "drop" }));
    const lost = watching.send({ ...noop, value: 1n });
    await new Promise((r) => setTimeout(r, 50));
    const behind = watching.send({ ...noop, value: 2n });
    const [first, second] = await Promise.all([lost, behind]);
    proxy.setPolicy(PASS);
    expect(proxy.stats().faults.drop).toBeGreaterThanOrEqual(1);
    // The swallowed transaction itself is mined, at its own nonce, once: no filler took its place.
    const mined = await watching.wait({ hash: first.hash, timeout: 5_000 });
    expect(mined.status).toBe("success");
    expect((await getTransaction(client, { hash: first.hash })).nonce).toBe(nonce);
    const after = second.receipt ?? (await watching.wait({ hash: second.hash, timeout: 5_000 }));
    expect(after.status).toBe("success");
    expect((await getTransaction(client, { hash: second.hash })).nonce).toBe(nonce + 1);
    expect(await nextNonce()).toBe(nonce + 2);
  });

  it("fails a swallowed send whose bytes, sent again, the node refuses: its nonce is filled, and the send behind it is mined", async () => {
    const watching = watchingSender(300);
    const nonce = await nextNonce();
    // The first send is swallowed; the same bytes sent again are refused (a node that lost its pool and now
    // finds the account short): never on the chain, so its nonce must not hold up the send behind it.
    let swallowed: unknown;
    proxy.setPolicy(({ method, params }) => {
      if (!method.startsWith("eth_sendRawTransaction")) return { kind: "pass" };
      if (swallowed === undefined) {
        swallowed = params[0];
        return { kind: "drop" };
      }
      return params[0] === swallowed
        ? { kind: "rpc-error", code: -32003, message: "insufficient funds for gas * price + value" }
        : { kind: "pass" };
    });
    const lost = watching.send({ ...noop, value: 1n });
    const refused = expect(lost).rejects.toThrow(/insufficient funds/);
    await new Promise((r) => setTimeout(r, 50));
    const behind = await watching.send({ ...noop, value: 2n });
    await refused;
    const after = behind.receipt ?? (await watching.wait({ hash: behind.hash, timeout: 5_000 }));
    proxy.setPolicy(PASS);
    expect(after.status).toBe("success");
    expect((await getTransaction(client, { hash: behind.hash })).nonce).toBe(nonce + 1);
    // The refused nonce went to a no-op filler, not to the refused transaction.
    expect(await nextNonce()).toBe(nonce + 2);
    expect(await transactionAt(nonce)).toMatchObject({ to: account.address.toLowerCase(), value: 0n });
  });

  it("waits by hash for a send the node holds whose answer is slow, instead of waiting out the answer", async () => {
    const watching = watchingSender(200);
    let release = () => {};
    const answer = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Forwarded at once (the devnet mines it), answered 3 s later: the look at 200 ms finds it held, and the
    // send comes back without waiting for that answer (which would have brought the receipt along).
    proxy.setPolicy(firstSend({ kind: "answer-held", until: answer }));
    const nonce = await nextNonce();
    const later = setTimeout(release, 3_000);
    const sent = await watching.send(noop);
    proxy.setPolicy(PASS);
    clearTimeout(later);
    release();
    expect(sent.receipt).toBeUndefined();
    expect((await watching.wait({ hash: sent.hash, timeout: 5_000 })).status).toBe("success");
    expect(await nextNonce()).toBe(nonce + 1);
  });

  it("throws when the node refuses a send, and gives its nonce to the next send", async () => {
    const nonce = await nextNonce();
    proxy.setPolicy(firstSend({ kind: "rpc-error", code: -32003, message: "insufficient funds" }));
    await expect(sender.send(noop)).rejects.toThrow(/insufficient funds/);
    const next = await sender.send(noop);
    proxy.setPolicy(PASS);
    expect((await getTransaction(client, { hash: next.hash })).nonce).toBe(nonce);
  });

  it("sends nothing when its check right before signing refuses, and keeps the nonce for the next send", async () => {
    let allowed = false;
    const guarded = createSender({
      client,
      account,
      nonces: createLocalNonceManager(),
      receiptTimeoutMs: 5_000,
      beforeSend: async () => {
        if (!allowed) throw new Error("the key is no longer ours");
      },
    });
    const nonce = await nextNonce();
    await expect(guarded.send(noop)).rejects.toThrow("the key is no longer ours");
    expect(await nextNonce()).toBe(nonce);
    allowed = true;
    const sent = await guarded.send(noop);
    expect((await getTransaction(client, { hash: sent.hash })).nonce).toBe(nonce);
  });
});

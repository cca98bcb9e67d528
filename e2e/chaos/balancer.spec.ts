import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { startBalancer } from "./balancer";

/**
 * The balancer keeps its connections to the instances alive, and an instance may close one just as the
 * balancer reuses it (its idle timeout): that request must be sent again, not answered with a 502 the
 * tests would read as the app's failure. A fresh connection that fails is the instance's failure.
 */
test("sends a request again when a reused upstream connection is reset, and only then", async () => {
  // "second": a connection is reset at its second request; "always": every request is reset.
  let reset: "second" | "always" = "second";
  const received: string[] = [];
  const upstream = http.createServer(async (req, res) => {
    const socket = req.socket as typeof req.socket & { served?: number };
    socket.served = (socket.served ?? 0) + 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    received.push(body);
    if (reset === "always" || socket.served > 1) {
      socket.resetAndDestroy();
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" }).end(`echo ${body}`);
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const balancer = await startBalancer(0, [origin]);
  const post = async (body: string) => {
    const res = await fetch(`${balancer.url}/api`, { method: "POST", body });
    return { status: res.status, text: await res.text() };
  };
  try {
    // The first request opens the connection the balancer then keeps.
    expect(await post("one")).toEqual({ status: 200, text: "echo one" });
    // Reused and reset: sent again, body and all, on a fresh connection.
    expect(await post("two")).toEqual({ status: 200, text: "echo two" });
    expect(received).toEqual(["one", "two", "two"]);
    expect(balancer.stats().failed).toBe(0);

    // Reset on the reused connection, then again on a fresh one: the instance failed, so the client is
    // told (502), after one more try and no more.
    reset = "always";
    received.length = 0;
    expect((await post("three")).status).toBe(502);
    expect(received).toEqual(["three", "three"]);
    expect(balancer.stats().failed).toBe(1);
  } finally {
    await balancer.close();
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
});

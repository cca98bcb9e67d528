/**
 * The baseline server: node:http in front of the `withX402` route handler in handler.ts. Each request is
 * turned into a NextRequest and the NextResponse written back, as `next start` would, without Next's
 * router. Environment: the X402_* variables of lib/devnet/app-env.ts, and PORT.
 */
import { createServer } from "node:http";
import { NextRequest } from "next/server";
import { POST, storedCount } from "./handler";

const port = Number(process.env.PORT ?? 3999);

const server = createServer(async (req, res) => {
  try {
    const url = `http://127.0.0.1:${port}${req.url ?? "/"}`;
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ items: storedCount() }));
      return;
    }
    if (req.method !== "POST" || !req.url?.startsWith("/api/feedback")) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === "string") headers.set(k, v);
      else if (Array.isArray(v)) for (const item of v) headers.append(k, item);
    }
    const response = await POST(
      new NextRequest(url, { method: "POST", headers, body: Buffer.concat(chunks) }),
    );
    const out: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      out[key] = value;
    });
    res.writeHead(response.status, out);
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    console.error("[baseline]", error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
});

server.listen(port, "127.0.0.1", () => console.log(`baseline listening on ${port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));

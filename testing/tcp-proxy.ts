import { connect, createServer, type Server, type Socket } from "node:net";

export type TcpProxy = {
  /** host:port the proxy listens on. */
  host: string;
  port: number;
  /** Drops every open connection and refuses new ones, as a database server that went down. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  heal(): Promise<void>;
  close(): Promise<void>;
};

/** A TCP proxy to `target`, for tests of a server that goes away and comes back. */
export async function startTcpProxy(target: { hostname: string; port: string }): Promise<TcpProxy> {
  const to = { host: target.hostname, port: Number(target.port || 5432) };
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const upstream = connect(to.port, to.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    host: "127.0.0.1",
    port,
    cut: stop,
    heal: () => (server ? Promise.resolve() : listen()),
    close: stop,
  };
}

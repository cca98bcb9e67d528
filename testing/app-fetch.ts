// vitest (Vite) expands import.meta.glob when it loads this file; its types live in Vite's client types.
declare global {
  interface ImportMeta {
    glob<T>(patterns: string[], options: { eager: true }): Record<string, T>;
  }
}

type Method = "GET" | "POST" | "PATCH" | "DELETE";
type Route = Partial<Record<Method, (request: Request) => Promise<Response>>>;

/** Every route handler under app/, found by vitest at load time: no table to keep in step by hand. */
const ROUTES: Record<string, Route> = Object.fromEntries(
  Object.entries(
    import.meta.glob<Route>(["/app/**/route.ts", "/app/.well-known/**/route.ts"], { eager: true }),
  ).map(([file, route]) => [file.replace(/^\/app/, "").replace(/\/route\.ts$/, "") || "/", route]),
);

/** The paths appFetch serves (for a test that checks the table is whole). */
export const ROUTE_PATHS = Object.keys(ROUTES).sort();

/** A fetch that calls the route handlers in-process, so route tests need no server. */
export const appFetch: typeof globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const handler = ROUTES[new URL(request.url).pathname]?.[request.method as Method];
  if (!handler) return new Response("not found", { status: 404 });
  return handler(request);
};

export const APP = "http://localhost:3000";

/** A JSON POST init. */
export function postJson(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  };
}

/** A short random suffix so tests sharing a database never collide. */
export function uniqueName(prefix = "t"): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}

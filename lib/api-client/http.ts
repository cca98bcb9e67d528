/** A refusal from the service, read from its problem+json body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The stable problem code, e.g. "not-owner" (from `type: "/problems/not-owner"`). */
    readonly code: string,
    readonly detail: string,
    readonly fields: { field: string; message: string }[] = [],
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

type Problem = { type?: unknown; detail?: unknown; errors?: unknown };

/** Turns a non-2xx answer into an ApiError carrying the service's own words. */
export async function toApiError(response: Response): Promise<ApiError> {
  let body: Problem | null = null;
  try {
    body = (await response.json()) as Problem;
  } catch {}
  const code =
    typeof body?.type === "string" ? body.type.replace(/^\/problems\//, "") : `http-${response.status}`;
  const detail =
    typeof body?.detail === "string" ? body.detail : `The service answered with status ${response.status}.`;
  const fields = Array.isArray(body?.errors) ? (body.errors as ApiError["fields"]) : [];
  return new ApiError(response.status, code, detail, fields);
}

/** The JSON body of a successful answer; throws ApiError otherwise. */
export async function readJson<T>(response: Response): Promise<T> {
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as T;
}

/** A same-origin JSON call that sends the session cookie. */
export async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set("accept", "application/json");
  if (init.body !== undefined) headers.set("content-type", "application/json");
  const response = await fetch(path, { ...init, headers, credentials: "same-origin", cache: "no-store" });
  return readJson<T>(response);
}

/** True when the service says the caller is not (or no longer) signed in. */
export function isSignedOutError(error: unknown): boolean {
  return error instanceof ApiError && error.code === "authentication-required";
}

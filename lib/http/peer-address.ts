import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** The header this process writes on every incoming request: the address of the socket it came from. */
export const PEER_HEADER = "x-feedback-peer-address";

const state = globalThis as unknown as { __feedbackPeerHook?: boolean };

/**
 * Stamps each request Node's HTTP server receives with the socket's address, over any client-written value:
 * handlers see only a Request and `next start` keeps a client's X-Forwarded-For, so this is the one address a
 * client cannot choose. Install once at startup (`http.server.request.start` runs before any handler).
 */
export function installPeerAddressHook(): void {
  if (state.__feedbackPeerHook) return;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_HEADER] = socket.remoteAddress ?? "";
  });
  state.__feedbackPeerHook = true;
}

/** The socket address of a request, when this process stamped it; null otherwise (never a client's word). */
export function peerAddress(request: Request): string | null {
  if (!state.__feedbackPeerHook) return null;
  return request.headers.get(PEER_HEADER) || null;
}

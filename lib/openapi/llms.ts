import "server-only";
import { SIWX_HEADER } from "@/lib/auth/siwx";
import { env } from "@/lib/env";
import { PAID_OPERATIONS, paymentProtocols, priceOf, REQUEST_CAPS, SUBMITTER_GUIDANCE } from "./catalog";

/** /llms.txt: how an agent uses the service, on one page of markdown. */
export function llmsText(): string {
  const e = env();
  const o = e.PUBLIC_ORIGIN;
  const { x402, mpp } = paymentProtocols();
  const prices = PAID_OPERATIONS.map((op) => {
    const p = priceOf(op);
    return `- \`${op.method} ${op.path}\`: ${p.amount === null ? `price = rewardAmount (${p.dynamic.min} to ${p.dynamic.max} USD); free without a reward` : `${p.amount} USD`}. ${op.description}`;
  }).join("\n");
  const m = REQUEST_CAPS.metadata;
  return `# Feedback service

> A pay-per-use feedback inbox for AI agents. Agents pay 0.01 USD to file a bug, a feature request or general feedback into any namespace name. Companies pay 1 USD to register a namespace, then read their inbox for free and resolve items, optionally tipping the submitter in USDC.

Machine-readable: [OpenAPI 3.1](${o}/openapi.json) (prices in \`x-payment-info\`), [paid resources](${o}/.well-known/x402).

## Prices

${prices}
- \`GET /api/namespace/list\`, \`GET /api/namespace/status\`, \`GET /api/namespace/feedback?id=\`: free, signed in.

## Paying

Call a paid endpoint without payment: the answer is a 402 carrying both challenges, and a problem+json body naming the price, the protocols and these docs. Pay with one protocol and retry the same request.

- **x402** (version 2, scheme \`exact\`): challenge in the \`PAYMENT-REQUIRED\` header; network \`${x402.network}\`, USDC \`${x402.asset}\`, pay to \`${x402.payTo}\`. Retry with \`PAYMENT-SIGNATURE\`; the answer carries \`PAYMENT-RESPONSE\` with the transaction, and \`Server-Timing\` with where the time went.
  \`\`\`ts
  import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
  import { ExactEvmScheme } from "@x402/evm/exact/client";
  const client = x402Client.fromConfig({ schemes: [{ network: "${x402.network}", client: new ExactEvmScheme(signer) }] });
  const pay = wrapFetchWithPayment(fetch, client);
  \`\`\`
- **MPP** (method \`${mpp.method}\`, intent \`${mpp.intent}\`): challenge in \`WWW-Authenticate: Payment\`; currency \`${mpp.currency}\` (USDC.e), recipient \`${mpp.recipient}\`, chain ${mpp.chainId}. Retry with \`Authorization: Payment\`; the answer carries \`Payment-Receipt\`, and \`Server-Timing\`.
  \`\`\`ts
  import { Mppx, tempo } from "mppx/client";
  const pay = Mppx.create({ methods: [tempo.charge({ account })], polyfill: false }).fetch;
  \`\`\`

A request carrying both credentials is refused. A credential is accepted once. Bad input is refused (400) before you are asked to pay; a refused or failed call is never charged.

## Signing in (free endpoints)

Without a proof, free endpoints answer 402 "Authentication Required" with a \`sign-in-with-x\` challenge (a server nonce) in \`PAYMENT-REQUIRED\`. Sign the SIWE (EIP-4361) message with your wallet and retry with the base64 JSON proof in the \`${SIWX_HEADER}\` header. Each nonce works once: ask for a new challenge per call.

\`\`\`ts
import { createSIWxClientExtension } from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
const signedIn = wrapFetchWithPayment(fetch, new x402Client().registerExtension(createSIWxClientExtension({ signers: [account] })));
\`\`\`

## Endpoints

\`\`\`sh
# Submit feedback (0.01 USD); answers {id, namespace, registered, createdAt}
curl -X POST ${o}/api/namespace/feedback -H 'content-type: application/json' \\
  -d '{"namespace":"acme-app","type":"bug","title":"Checkout fails","description":"Pay does nothing on /checkout.","severity":"high","steps":["Open /checkout","Click Pay"],"expected":"A receipt","actual":"Nothing","metadata":{"url":"https://acme.example/checkout"}}'
# Register a namespace (1 USD); answers {namespace, ownerWallet, existingFeedbackLinked, createdAt}
curl -X POST ${o}/api/namespace/register -H 'content-type: application/json' -d '{"namespace":"acme-app","description":"Acme"}'
# The owner's inbox (signed in); filters type, severity, resolved, q; pages with limit (1-100) and cursor
curl '${o}/api/namespace/list?namespace=acme-app&type=bug&limit=20' -H '${SIWX_HEADER}: <proof>'
# Resolve (free and signed in, or paid with rewardAmount up to 2 USD forwarded to the submitter)
curl -X POST ${o}/api/namespace/resolve -H 'content-type: application/json' -H '${SIWX_HEADER}: <proof>' -d '{"feedbackId":"fb_…","message":"Fixed in 2.3"}'
# What you submitted, with resolutions and rewards (signed in)
curl '${o}/api/namespace/status?namespace=acme-app' -H '${SIWX_HEADER}: <proof>'
# One full record (signed in as owner or submitter)
curl '${o}/api/namespace/feedback?id=fb_…' -H '${SIWX_HEADER}: <proof>'
# The owner's webhook: URL and signing secret; set the URL (null stops events), rotate the secret, send a test, read the log
curl '${o}/api/namespace/webhook?namespace=acme-app' -H '${SIWX_HEADER}: <proof>'
curl -X PATCH ${o}/api/namespace/webhook -H 'content-type: application/json' -H '${SIWX_HEADER}: <proof>' -d '{"namespace":"acme-app","url":"https://acme.example/hooks/feedback"}'
\`\`\`

Webhook events (\`feedback.created\`, \`feedback.resolved\`, \`reward.paid\`) are JSON POSTs signed the Standard Webhooks way; their bodies are in the \`webhooks\` section of ${o}/openapi.json, with \`POST /api/namespace/webhook/rotate\`, \`/webhook/test\` and \`GET /api/namespace/webhook/deliveries\`.

## Limits

- namespace 3 to 30 characters (to register: \`^[a-z0-9][a-z0-9-]{1,28}[a-z0-9]$\`); title 3 to 200; description 10 to 10,000; steps at most 20 items of at most 500; expected and actual at most 2,000; context at most 50,000; resolve message at most 2,000. Lengths count Unicode characters.
- type \`bug\`, \`feature\` or \`feedback\`; severity \`low\`, \`medium\`, \`high\` or \`critical\`. Unknown fields are refused.
- Text: no NUL, no unpaired surrogates, no control characters; multi-line fields (description, steps, expected, actual, context, message) may hold tab, line feed and carriage return.
- metadata: a JSON object, at most ${m.maxDepth} levels deep, ${m.maxKeys} keys in all, ${m.maxBytes} bytes as JSON; keys \`__proto__\`, \`constructor\` and \`prototype\` are refused.
- Request bodies: at most ${REQUEST_CAPS.bodyBytes} bytes (413 before parsing).
- Free endpoints: ${e.RATE_LIMIT_WALLET_PER_MINUTE} requests a minute per wallet and ${e.RATE_LIMIT_ADDRESS_PER_MINUTE} per client address; over it, 429 with \`Retry-After\`.

## Errors

Every error is \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\`, and for bad input \`errors: [{field, message}]\`. 400 invalid input; 401 a sign-in proof that does not verify; 402 payment or sign-in required; 403 not the owner; 404 unknown namespace or item; 409 taken name, already resolved, credential already used; 413 body too large; 415 not JSON; 429 rate limited; 502 reward not paid (refunded); 503 payment network unavailable, nothing charged, or a settlement not yet confirmed (reconciled from the chain, never charged twice; do not re-sign, the body carries \`paymentId\`).

## Guidance for submitters

${SUBMITTER_GUIDANCE.map((g) => `- ${g}`).join("\n")}
`;
}

import type { WebhookDelivery } from "@/lib/api-client/fetchers/webhooks";
import { answerOf, prettyBody } from "./delivery-words";

const pre = "font-mono text-xs whitespace-pre-wrap break-all";

/**
 * A body that may scroll: the scrolling box takes focus and names itself, so a keyboard can scroll it
 * too (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
function Body({ label, testId, children }: { label: string; testId: string; children: string }) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling box must be reachable by keyboard to be scrolled
      tabIndex={0}
      className="mt-1 max-h-64 overflow-auto rounded-lg bg-zinc-50 p-3 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <pre className={pre} data-testid={testId}>
        {children}
      </pre>
    </section>
  );
}

/** What was sent and what came back: the body last POSTed, and the receiver's answer or silence. */
export function DeliveryDetails({ delivery, id }: { delivery: WebhookDelivery; id: string }) {
  return (
    <div id={id} className="grid min-w-0 gap-4 text-sm md:grid-cols-2">
      <section className="min-w-0">
        <h3 className="text-xs font-medium text-zinc-500 uppercase">Sent</h3>
        {delivery.sentBody ? (
          <Body label="Sent body" testId="delivery-sent">
            {prettyBody(delivery.sentBody)}
          </Body>
        ) : (
          <p className="mt-1 text-zinc-500">Not sent yet.</p>
        )}
      </section>
      <section className="min-w-0">
        <h3 className="text-xs font-medium text-zinc-500 uppercase">Answer</h3>
        {delivery.lastAttemptAt ? (
          <>
            <p className="mt-1" data-testid="delivery-answer">
              {answerOf(delivery)}
              {delivery.lastStatusCode !== null &&
              delivery.lastError &&
              !delivery.lastError.startsWith("HTTP")
                ? ` · ${delivery.lastError}`
                : ""}
            </p>
            {delivery.lastResponseExcerpt ? (
              <Body label="Answer body" testId="delivery-excerpt">
                {delivery.lastResponseExcerpt}
              </Body>
            ) : (
              <p className="mt-1 text-zinc-500">No body.</p>
            )}
          </>
        ) : (
          <p className="mt-1 text-zinc-500">No attempt yet.</p>
        )}
        <p className="mt-2 text-xs break-all text-zinc-500">
          webhook-id <span className="font-mono">{delivery.id}</span>
        </p>
      </section>
    </div>
  );
}

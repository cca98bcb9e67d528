import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { NamespaceGate } from "@/components/namespaces/namespace-gate";
import { SignInGate } from "@/components/wallet/sign-in-gate";
import { WebhookSettings } from "@/components/webhooks/webhook-settings";
import { prefetchNamespaceAccess } from "@/lib/api-client/server-prefetch";

type Props = { params: Promise<{ namespace: string }> };

export async function generateMetadata({ params }: Props) {
  const { namespace } = await params;
  return { title: `Webhooks · ${decodeURIComponent(namespace)} · Feedback` };
}

export default async function WebhooksPage({ params }: Props) {
  const namespace = decodeURIComponent((await params).namespace);
  const state = await prefetchNamespaceAccess((await headers()).get("cookie"), namespace);
  return (
    <main>
      <SignInGate title="Sign in to manage this namespace's webhook">
        <HydrationBoundary state={state}>
          <NamespaceGate namespace={namespace}>
            <WebhookSettings namespace={namespace} />
          </NamespaceGate>
        </HydrationBoundary>
      </SignInGate>
    </main>
  );
}

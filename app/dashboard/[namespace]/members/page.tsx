import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { MembersSettings } from "@/components/members/members-settings";
import { NamespaceGate } from "@/components/namespaces/namespace-gate";
import { SignInGate } from "@/components/wallet/sign-in-gate";
import { prefetchNamespaceAccess } from "@/lib/api-client/server-prefetch";

type Props = { params: Promise<{ namespace: string }> };

export async function generateMetadata({ params }: Props) {
  const { namespace } = await params;
  return { title: `Members · ${decodeURIComponent(namespace)} · Feedback` };
}

export default async function MembersPage({ params }: Props) {
  const namespace = decodeURIComponent((await params).namespace);
  const state = await prefetchNamespaceAccess((await headers()).get("cookie"), namespace);
  return (
    <main>
      <SignInGate title="Sign in to see this namespace's members">
        <HydrationBoundary state={state}>
          <NamespaceGate namespace={namespace}>
            <MembersSettings namespace={namespace} />
          </NamespaceGate>
        </HydrationBoundary>
      </SignInGate>
    </main>
  );
}

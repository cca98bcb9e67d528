import { HydrationBoundary } from "@tanstack/react-query";
import { headers } from "next/headers";
import { Suspense } from "react";
import { Inbox } from "@/components/inbox/inbox";
import { NamespaceGate } from "@/components/namespaces/namespace-gate";
import { Loading } from "@/components/ui/states";
import { SignInGate } from "@/components/wallet/sign-in-gate";
import { prefetchInbox } from "@/lib/api-client/server-prefetch";

type Props = {
  params: Promise<{ namespace: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props) {
  const { namespace } = await params;
  return { title: `${decodeURIComponent(namespace)} · Feedback` };
}

export default async function InboxPage({ params, searchParams }: Props) {
  const namespace = decodeURIComponent((await params).namespace);
  const state = await prefetchInbox((await headers()).get("cookie"), namespace, await searchParams);
  return (
    <main>
      <SignInGate title="Sign in to read this inbox">
        <HydrationBoundary state={state}>
          <NamespaceGate namespace={namespace}>
            <Suspense fallback={<Loading />}>
              <Inbox namespace={namespace} />
            </Suspense>
          </NamespaceGate>
        </HydrationBoundary>
      </SignInGate>
    </main>
  );
}

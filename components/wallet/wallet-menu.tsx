"use client";

import { useEffect, useRef, useState } from "react";
import { useConnection } from "wagmi";
import { Button } from "@/components/ui/button";
import { AlertIcon } from "@/components/ui/icons";
import { useSession } from "@/lib/api-client/hooks/use-session";
import { useSignIn, useSignOut } from "@/lib/api-client/hooks/use-sign-in";
import { shortAddress } from "../format";
import { ConnectDialog } from "./connect-dialog";

/** The header's wallet control: sign in, or who is signed in with a menu to sign out. */
export function WalletMenu() {
  const { session, isPending } = useSession();
  const connection = useConnection();
  const signIn = useSignIn();
  const signOut = useSignOut();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const accountRef = useRef<HTMLButtonElement>(null);
  const signedOut = useRef(false);

  // Signed in on this page (here or from a page's own "Connect wallet"): the button that began it is gone
  // with the dialog, and focus with them; it goes to who is now signed in, not back to the page's start.
  useEffect(() => {
    if (isPending) return;
    if (!session) {
      signedOut.current = true;
      return;
    }
    if (!signedOut.current) return;
    signedOut.current = false;
    const refocus = () => {
      const now = document.activeElement;
      if (!now || now === document.body) accountRef.current?.focus();
    };
    refocus();
    // A page's own sign-in prompt may leave a frame later than this menu changes.
    requestAnimationFrame(refocus);
  }, [session, isPending]);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === "Escape"
          : !menuRef.current?.contains(event.target as Node)
      )
        setMenuOpen(false);
    };
    document.addEventListener("mousedown", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("mousedown", close);
      document.removeEventListener("keydown", close);
    };
  }, [menuOpen]);

  if (isPending) return <div className="h-8 w-28 animate-pulse rounded-lg bg-zinc-100" aria-hidden="true" />;

  if (!session) {
    return (
      <>
        <Button size="sm" onClick={() => setDialogOpen(true)}>
          Connect wallet
        </Button>
        <ConnectDialog open={dialogOpen} onClose={() => setDialogOpen(false)} />
      </>
    );
  }

  const mismatch =
    connection.status === "connected" &&
    connection.address !== undefined &&
    connection.address.toLowerCase() !== session.address.toLowerCase();

  return (
    <div ref={menuRef} className="relative">
      <button
        ref={accountRef}
        type="button"
        aria-haspopup="true"
        aria-expanded={menuOpen}
        onClick={() => setMenuOpen((v) => !v)}
        className="flex h-8 items-center gap-2 rounded-lg bg-white px-2.5 text-sm font-medium shadow-sm ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
      >
        <span
          className={`size-2 rounded-full ${mismatch ? "bg-amber-500" : "bg-emerald-500"}`}
          aria-hidden="true"
        />
        <span className="font-mono">{shortAddress(session.address)}</span>
        <span className="sr-only">account menu</span>
      </button>
      {menuOpen ? (
        <div className="absolute right-0 z-40 mt-2 w-72 rounded-xl border border-zinc-200 bg-white p-3 text-sm shadow-lg">
          <p className="text-xs text-zinc-500">Signed in as</p>
          <p className="break-all font-mono text-xs">{session.address}</p>
          {mismatch ? (
            <div className="mt-3 rounded-lg bg-amber-50 p-2 text-xs text-amber-900">
              <p className="flex items-center gap-1 font-medium">
                <AlertIcon className="size-3.5" /> Your wallet switched to {shortAddress(connection.address)}.
              </p>
              <p className="mt-1">
                Payments come from the connected wallet. Sign in with it to manage its namespaces.
              </p>
              <Button size="sm" className="mt-2" busy={signIn.isPending} onClick={() => signIn.mutate({})}>
                Sign in as {shortAddress(connection.address)}
              </Button>
            </div>
          ) : null}
          {connection.status !== "connected" ? (
            <p className="mt-3 text-xs text-zinc-500">
              No wallet connected: reading works, paying needs the wallet.
            </p>
          ) : null}
          <Button
            variant="secondary"
            size="sm"
            className="mt-3 w-full"
            busy={signOut.isPending}
            onClick={() => signOut.mutate(undefined, { onSettled: () => setMenuOpen(false) })}
          >
            Sign out
          </Button>
        </div>
      ) : null}
    </div>
  );
}

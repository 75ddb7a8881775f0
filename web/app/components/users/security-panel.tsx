/**
 * Passkey sign-in and two-factor (TOTP) state, with resets: turning passkey sign-in off (the
 * API keeps no separate passkey list to show) and removing the TOTP secret.
 */

import type { ServerUser } from "@doorman/sdk";
import { useId } from "react";
import { ConfirmButton } from "../console-ui";

type Props = { user: ServerUser; label: string; onReset: (what: "passkey" | "totp") => Promise<void> };

export function SecurityPanel({ user, label, onReset }: Props) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Passkeys and two-factor</h2>
      <dl className="user-facts">
        <dt>Passkey sign-in</dt>
        <dd>
          {user.passkeyAuthEnabled ? "on" : "off"}
          {user.passkeyAuthEnabled ? (
            <ConfirmButton
              small
              label="Turn off passkey sign-in"
              title={`Turn off passkey sign-in for ${label}?`}
              consequence="Their passkey no longer signs them in. They sign in with another method and can register a passkey again from their account settings."
              confirmLabel="Turn off passkeys"
              onConfirm={() => onReset("passkey")}
            />
          ) : null}
        </dd>
        <dt>Two-factor (TOTP)</dt>
        <dd>
          {user.isMultiFactorRequired ? "on" : "off"}
          {user.isMultiFactorRequired ? (
            <ConfirmButton
              small
              label="Reset two-factor"
              title={`Reset two-factor for ${label}?`}
              consequence="Their authenticator app's codes stop working and sign-in no longer asks for one, until they set up two-factor again. Do this only after checking who is asking."
              confirmLabel="Reset two-factor"
              onConfirm={() => onReset("totp")}
            />
          ) : null}
        </dd>
      </dl>
    </section>
  );
}
